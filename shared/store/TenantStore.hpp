#pragma once
// Storage of tenants, owned by the domain: no SQL or file path crosses this line.
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "tenant/Tenant.hpp"

namespace svc {

class TenantStore {
public:
    virtual ~TenantStore() = default;
    // Stores a new tenant and returns it with its id set. AlreadyExists on a duplicate API ID.
    virtual Result<Tenant> create(const Tenant& tenant) = 0;
    virtual Result<std::optional<Tenant>> findByApiId(const std::string& apiId) = 0;
    virtual Result<std::optional<Tenant>> findById(int64_t tenantId) = 0;
    virtual Result<std::vector<Tenant>> list() = 0;
    // The truncation guard's threshold: a full feed deleting more than this share is held.
    virtual Status setMaxDeleteShare(int64_t tenantId, double share) = 0;
    // The ISO 4217 code of the shop's prices (feeds carry cents without a currency).
    virtual Status setCurrency(int64_t tenantId, const std::string& currencyCode) = 0;
    // The commission contract: attribution window in days and rates ("500,SET=750").
    virtual Status setCommission(int64_t tenantId, int64_t attributionWindowDays, const std::string& commissionRates) = 0;
    // The BCP 47 locale prices are formatted in ("de-DE").
    virtual Status setLocale(int64_t tenantId, const std::string& locale) = 0;
    // Disabled tenants are refused by every tenant-facing endpoint; their data stays.
    virtual Status setDisabled(int64_t tenantId, bool disabled) = 0;
    // A rotated API secret: only its hash is stored; the old secret stops working at once.
    virtual Status setSecretHash(int64_t tenantId, const std::string& secretHash) = 0;
    // Another process changed tenant `tenantId` (on a cluster, the change notice every node hears;
    // docs/adr/0088): what this store keeps of tenants in memory is read again on the next lookup,
    // so a disabled tenant or a rotated secret takes effect on every node at once, not after a cache's ttl.
    virtual void changedElsewhere(int64_t tenantId) = 0;
};

}  // namespace svc
