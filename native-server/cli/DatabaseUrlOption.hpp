#pragma once
// `--database-url`: where a command keeps its stores when not in the data dir (docs/adr/0091).
// Every command that opens storage takes it beside `--data-dir`; the data dir then still holds
// what is a node's own (its keys, copied to every node, and its lock), the database everything
// shared. Without it: the data dir's SQLite files, as before. Also from SVC_DATABASE_URL, so an
// operator's shell on a cluster node needs no password on its command lines.
#include <string>

#include <CLI/CLI.hpp>

namespace svc {

class DatabaseUrlOption {
public:
    // Adds --database-url to `command`. `fromEnvironment`: false for serve, whose options all get
    // their SVC_* variable from ConfigurationSources.
    static void addTo(CLI::App& command, std::string& databaseUrl, bool fromEnvironment = true);
    // What Storage::open is given: the database URL when there is one, else the data dir.
    static std::string storageLocation(const std::string& dataDir, const std::string& databaseUrl) {
        return databaseUrl.empty() ? dataDir : databaseUrl;
    }
};

}  // namespace svc
