#pragma once
// Versioned, append-only schema migrations, one transaction per version. svc keeps
// the main database (tenants, imports, uploads, later events) apart from the
// catalogs, one file per tenant: long import transactions never block other writes
// (SQLite allows one writer per file), and tenants are isolated physically (docs/adr/0010).
#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

enum class DatabaseKind { Main, Catalog };

Status migrate(SqliteDatabase& db, DatabaseKind kind);
int latestSchemaVersion(DatabaseKind kind);

}  // namespace svc
