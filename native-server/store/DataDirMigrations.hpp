#pragma once
// The schema versions of every database of a data dir (svc.sqlite3, events.sqlite3 and each
// tenant's catalog), for `svc-server migrate [--check]` (docs/adr/0067, docs/operations.md
// "Upgrades"). `serve` migrates svc.sqlite3 and events.sqlite3 at start and each catalog when it
// is first opened; `migrate` does all of them at once, and `--check` says what it would do.
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "store/Migrations.hpp"

namespace svc {

struct DatabaseSchema {
    std::string file;  // relative to the data dir: "svc.sqlite3", "catalog/tenant-7.sqlite3"
    DatabaseKind kind = DatabaseKind::Main;
    SchemaState state;
    bool exists = true;  // false: serve creates it at the latest version
};

class DataDirMigrations {
public:
    // Every database's state, each opened read only: nothing in the data dir changes. A
    // database newer than this binary is an error naming its file.
    static Result<std::vector<DatabaseSchema>> check(const std::string& dataDir);
    // Applies what check() lists, under the data dir's lock (refused while a server runs on
    // it); returns the states before.
    static Result<std::vector<DatabaseSchema>> apply(const std::string& dataDir);
};

}  // namespace svc
