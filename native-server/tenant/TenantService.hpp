#pragma once
#include <string>

#include "core/Result.hpp"
#include "store/TenantStore.hpp"

namespace svc {

struct CreatedTenant {
    Tenant tenant;
    std::string apiSecret;  // shown once to the operator, never stored
};

class TenantService {
public:
    explicit TenantService(TenantStore& store) : store_(store) {}
    Result<CreatedTenant> create(const std::string& name);
    // The tenant whose API ID and secret both match; Unauthenticated otherwise
    // (the message never says which of the two was wrong).
    // A disabled tenant is PermissionDenied (docs/adr/0041).
    Result<Tenant> authenticate(const std::string& apiId, const std::string& apiSecret);
    // A new API secret for the tenant (returned once; only its hash is stored): the old one
    // is refused from now on.
    Result<std::string> rotateSecret(int64_t tenantId);
    Result<std::optional<Tenant>> findByApiId(const std::string& apiId) { return store_.findByApiId(apiId); }
    Result<std::optional<Tenant>> findById(int64_t tenantId) { return store_.findById(tenantId); }

private:
    TenantStore& store_;
};

}  // namespace svc
