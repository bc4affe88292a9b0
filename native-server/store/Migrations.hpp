#pragma once
// Versioned, append-only schema migrations, one transaction per version. svc keeps
// the main database (tenants, imports, uploads, later events) apart from the
// catalogs, one file per tenant: long import transactions never block other writes
// (SQLite allows one writer per file), and tenants are isolated physically (docs/adr/0010).
#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

// Events: <data-dir>/events.sqlite3, tracking events apart from svc.sqlite3 so that their
// many small durable commits never wait behind imports' writes (docs/adr/0014).
enum class DatabaseKind { Main, Catalog, Events };

Status migrate(SqliteDatabase& db, DatabaseKind kind);
int latestSchemaVersion(DatabaseKind kind);

}  // namespace svc
