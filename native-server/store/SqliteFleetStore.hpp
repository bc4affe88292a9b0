#pragma once
// The fleet view's facts (shared/store/FleetStore.hpp, docs/adr/0066) in a fixed number of
// aggregate queries, whatever the number of tenants: five on svc.sqlite3 (feed states kept by
// triggers, pull sources, held imports through a partial index, countries, shop URLs) and three
// on events.sqlite3 (quarantined lines, unbooked claims, the monthly counters kept by triggers).
// Connections of its own, read only, so the console never waits behind the server's writers.
#include <memory>
#include <mutex>
#include <string>

#include "store/FleetStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteFleetStore : public FleetStore {
public:
    // `dataDir`'s databases must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<SqliteFleetStore>> open(const std::string& dataDir);
    Result<std::unordered_map<int64_t, TenantFleetFacts>> facts(const FleetPeriod& period) override;

private:
    SqliteFleetStore(std::unique_ptr<SqliteDatabase> main, std::unique_ptr<SqliteDatabase> events)
        : main_(std::move(main)), events_(std::move(events)) {}
    Status readMain(std::unordered_map<int64_t, TenantFleetFacts>& facts);
    Status readEvents(const FleetPeriod& period, std::unordered_map<int64_t, TenantFleetFacts>& facts);

    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> main_;
    std::unique_ptr<SqliteDatabase> events_;
};

}  // namespace svc
