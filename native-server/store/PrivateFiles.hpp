#pragma once
// Everything svc keeps in its data dir is the service's alone (issue 18, docs/adr/0061): the
// databases hold tenants, events and hashes, the uploads feed files, the keys the keys.
// Directories are 0700 and files 0600 whatever the process umask, and a data dir made by an
// older svc (0755/0644) is tightened when it is opened.
#include <fstream>
#include <string>
#include <system_error>

#include "core/Result.hpp"

namespace svc {

class PrivateFiles {
public:
    // Like std::filesystem::create_directories; every directory it creates is 0700.
    static std::error_code createDirectories(const std::string& directory);
    // Takes group and other permissions off `dataDir` and everything svc keeps in it (the
    // databases, catalog/, keys/, uploads/, pulls/, thumbs/, set-photos/, locks/, demo/); other
    // entries are left alone, symbolic links are neither followed nor changed.
    static Status tighten(const std::string& dataDir);
    // Creates `path` as 0600 when it does not exist (SQLite then gives its -wal, -shm and
    // journal files the database file's mode).
    static Status createFile(const std::string& path);
    // A stream writing `path` from its start, the file created 0600 first.
    static std::ofstream openForWriting(const std::string& path);
};

}  // namespace svc
