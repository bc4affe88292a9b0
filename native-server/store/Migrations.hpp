#pragma once
#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

// Brings the database to the newest schema version, one transaction per version.
// Versions are append-only: a released migration is never edited.
Status migrate(SqliteDatabase& db);
int latestSchemaVersion();

}  // namespace svc
