#pragma once
// Versioned, append-only schema migrations, one transaction per version. svc keeps
// two SQLite files: the catalog (written by long import transactions) apart from
// everything else, so an import never blocks uploads, history or tracking writes
// (SQLite allows one writer per file; see docs/adr/0009).
#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

enum class DatabaseKind { Main, Catalog };

Status migrate(SqliteDatabase& db, DatabaseKind kind);
int latestSchemaVersion(DatabaseKind kind);

}  // namespace svc
