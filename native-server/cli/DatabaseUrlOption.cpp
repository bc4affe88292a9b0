#include "cli/DatabaseUrlOption.hpp"

namespace svc {

void DatabaseUrlOption::addTo(CLI::App& command, std::string& databaseUrl, bool fromEnvironment) {
    auto* option = command.add_option("--database-url", databaseUrl,
                                      "PostgreSQL URL (postgres://user@host:port/db) holding the stores shared by every node; "
                                      "without it: the data dir's SQLite files");
    if (fromEnvironment) option->envname("SVC_DATABASE_URL");
}

}  // namespace svc
