#pragma once
// LeaseStore on PostgreSQL (docs/adr/0086): one row per lease; a claim is one INSERT ... ON
// CONFLICT DO UPDATE whose WHERE lets only the same owner or an expired lease through, so of
// racing nodes exactly one row version wins.
#include "store/LeaseStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgLeaseStore : public LeaseStore {
public:
    explicit PgLeaseStore(PgDatabase& database) : database_(database) {}

    Result<bool> claim(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) override;
    Result<bool> renew(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) override;
    Status release(const std::string& name, const std::string& owner) override;
    Result<std::optional<Lease>> holder(const std::string& name, int64_t now) override;
    Result<std::vector<Lease>> live(const std::string& prefix, int64_t now) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
