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
    Result<Tenant> authenticate(const std::string& apiId, const std::string& apiSecret);
    Result<std::optional<Tenant>> findByApiId(const std::string& apiId) { return store_.findByApiId(apiId); }

private:
    TenantStore& store_;
};

}  // namespace svc
