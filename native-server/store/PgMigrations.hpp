#pragma once
// The PostgreSQL schema, migrated once however many nodes start at once (docs/adr/0086): every
// pending migration runs in one transaction holding a transaction-level advisory lock keyed by
// the schema, so a second node waits, then finds them applied; a node that dies half-way rolls
// back and lets go of the lock with its connection. svc_migrations records each version once.
#include "store/PgConnection.hpp"

namespace svc {

class PgMigrations {
public:
    static Status migrate(PgConnection& connection);
    // The newest version this build knows (a test checks each is recorded exactly once).
    static int latestVersion();
};

}  // namespace svc
