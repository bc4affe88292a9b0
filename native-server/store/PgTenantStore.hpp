#pragma once
// TenantStore on PostgreSQL (docs/adr/0086). Lookups by API ID (one per shopper request) are
// cached for 2 s as on SQLite (TenantCache: cleared by this node's writes, and by another node's
// through its change notice; docs/adr/0088). The last answer per API ID is also kept beyond that: while the database
// is unreachable (Unavailable), a lookup answers with it, so shoppers' content keeps coming from
// memory through a database restart or failover (ADR 0091). Bounded: past kMaxLastKnown API IDs
// that memory starts again.
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/Clock.hpp"
#include "store/PgDatabase.hpp"
#include "store/TenantCache.hpp"
#include "store/TenantStore.hpp"

namespace svc {

class PgTenantStore : public TenantStore {
public:
    PgTenantStore(PgDatabase& database, const Clock& clock) : database_(database), clock_(clock) {}

    Result<Tenant> create(const Tenant& tenant) override;
    Result<std::optional<Tenant>> findByApiId(const std::string& apiId) override;
    Result<std::optional<Tenant>> findById(int64_t tenantId) override;
    Result<std::vector<Tenant>> list() override;
    Status setMaxDeleteShare(int64_t tenantId, double share) override;
    Status setCurrency(int64_t tenantId, const std::string& currencyCode) override;
    Status setCommission(int64_t tenantId, int64_t attributionWindowDays, const std::string& commissionRates) override;
    Status setLocale(int64_t tenantId, const std::string& locale) override;
    Status setDisabled(int64_t tenantId, bool disabled) override;
    Status setSecretHash(int64_t tenantId, const std::string& secretHash) override;
    void changedElsewhere(int64_t) override { byApiId_.clear(); }

    static constexpr size_t kMaxLastKnown = 100'000;

private:
    Status update(const char* purpose, const char* sql, std::initializer_list<PgParam> params);

    PgDatabase& database_;
    const Clock& clock_;
    TenantCache byApiId_{std::chrono::seconds(2), 10000};
    std::mutex lastKnownMutex_;
    std::unordered_map<std::string, Tenant> lastKnown_;  // API ID -> the tenant as last read
};

}  // namespace svc
