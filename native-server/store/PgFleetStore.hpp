#pragma once
// The fleet view's facts on PostgreSQL (shared/store/FleetStore.hpp, docs/adr/0066, 0088) in a
// fixed number of aggregate statements, whatever the number of tenants, all in one read-only
// REPEATABLE READ transaction (one snapshot, as SQLite's read transaction): feed states (kept by
// a trigger on feed_imports), pull sources, held imports, countries, shop URLs; lines set
// aside, unbooked claims and the monthly counters of the event tables (PgMigrations 4).
#include <unordered_map>

#include "store/FleetStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgFleetStore : public FleetStore {
public:
    explicit PgFleetStore(PgDatabase& database) : database_(database) {}
    Result<std::unordered_map<int64_t, TenantFleetFacts>> facts(const FleetPeriod& period) override;

private:
    static Status readFeeds(PgConnection& connection, std::unordered_map<int64_t, TenantFleetFacts>& facts);
    static Status readEvents(PgConnection& connection, const FleetPeriod& period, std::unordered_map<int64_t, TenantFleetFacts>& facts);

    PgDatabase& database_;
};

}  // namespace svc
