#pragma once
// TenantStore on PostgreSQL (docs/adr/0086). Unlike SqliteTenantStore it keeps no cache of
// tenants by API ID: another node may change a tenant, and the cache's invalidation across nodes
// (LISTEN/NOTIFY, issue 24) is not built yet.
#include "core/Clock.hpp"
#include "store/PgDatabase.hpp"
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

private:
    Status update(const char* purpose, const char* sql, std::initializer_list<PgParam> params);

    PgDatabase& database_;
    const Clock& clock_;
};

}  // namespace svc
