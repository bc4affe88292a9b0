#include "cli/MigrationCommands.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "store/DataDirMigrations.hpp"

namespace svc {

MigrationCommands::MigrationCommands(CLI::App& app) {
    migrate_ = app.add_subcommand("migrate",
                                  "Bring a stopped data dir's databases to this svc-server's schema (serve also does at start); "
                                  "--check only says what that would do");
    migrate_->add_option("--data-dir", dataDir_, "The data dir")->required();
    migrate_->add_flag("--check", checkOnly_,
                       "Change nothing: list each database's version and the migrations an upgrade would apply; exit code 0 when "
                       "up to date, 4 when migrations are pending, 1 when a database is newer than this svc-server");
}

bool MigrationCommands::parsed() const { return migrate_->parsed(); }

int MigrationCommands::run() {
    auto databases = checkOnly_ ? DataDirMigrations::check(dataDir_) : DataDirMigrations::apply(dataDir_);
    if (!databases) {
        std::cerr << "svc-server: " << databases.error().message << std::endl;
        return 1;
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    size_t pending = 0;
    for (const auto& database : *databases) {
        // Databases serve creates at the latest version are no upgrade: listed, nothing pending.
        nlohmann::ordered_json versions = nlohmann::ordered_json::array();
        if (database.exists) {
            for (int version : database.state.pending) versions.push_back(version);
        }
        if (!versions.empty()) ++pending;
        list.push_back({{"database", database.file},
                        {"kind", databaseKindName(database.kind)},
                        {"exists", database.exists},
                        {"version", database.state.current},
                        {"latest", database.state.latest},
                        {checkOnly_ ? "pending" : "applied", versions}});
    }
    nlohmann::ordered_json summary{{checkOnly_ ? "upToDate" : "migrated", checkOnly_ ? pending == 0 : true},
                                   {checkOnly_ ? "databasesPending" : "databasesMigrated", pending},
                                   {"databases", list}};
    std::cout << summary.dump(2) << std::endl;
    return checkOnly_ && pending > 0 ? kPendingExitCode : 0;
}

}  // namespace svc
