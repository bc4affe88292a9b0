#pragma once
// Versioned, append-only schema migrations, one transaction per version. svc keeps
// the main database (tenants, imports, uploads, later events) apart from the
// catalogs, one file per tenant: long import transactions never block other writes
// (SQLite allows one writer per file), and tenants are isolated physically (docs/adr/0010).
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

// Events: <data-dir>/events.sqlite3, tracking events apart from svc.sqlite3 so that their
// many small durable commits never wait behind imports' writes (docs/adr/0014).
enum class DatabaseKind { Main, Catalog, Events };

Status migrate(SqliteDatabase& db, DatabaseKind kind);
int latestSchemaVersion(DatabaseKind kind);
std::string_view databaseKindName(DatabaseKind kind);

// Applies the migrations up to `version` only: a database as an older svc-server left it
// (the tests of upgrades build one so).
Status migrateTo(SqliteDatabase& db, DatabaseKind kind, int version);

// A database's recorded version against this binary's migrations, read without changing
// anything: a file without schema_migrations is at version 0.
struct SchemaState {
    int current = 0;
    int latest = 0;
    std::vector<int> pending;  // the versions an upgrade would apply, in order
    bool newer() const { return current > latest; }
};
Result<SchemaState> schemaState(SqliteDatabase& db, DatabaseKind kind);

}  // namespace svc
