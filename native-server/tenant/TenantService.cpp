#include "tenant/TenantService.hpp"

#include "tenant/SecretHasher.hpp"
#include "text/StringUtil.hpp"

namespace svc {

Result<CreatedTenant> TenantService::create(const std::string& name) {
    std::string trimmed(trim(name));
    if (trimmed.empty()) return Error::invalidArgument("name: must not be empty");
    if (trimmed.size() > 200) return Error::invalidArgument("name: at most 200 characters");
    CreatedTenant created;
    created.apiSecret = randomSecret();
    Tenant tenant;
    tenant.apiId = randomUuid();
    tenant.feedId = randomUuid();
    tenant.name = trimmed;
    tenant.secretHash = SecretHasher::hash(created.apiSecret);
    auto stored = store_.create(tenant);
    if (!stored) return stored.error();
    created.tenant = std::move(*stored);
    return created;
}

Result<Tenant> TenantService::authenticate(const std::string& apiId, const std::string& apiSecret) {
    if (apiId.empty() || apiSecret.empty()) return Error::unauthenticated("x-api-id and x-api-secret are required");
    auto tenant = store_.findByApiId(apiId);
    if (!tenant) return tenant.error();
    if (!*tenant || !SecretHasher::matches(apiSecret, (*tenant)->secretHash)) {
        return Error::unauthenticated("x-api-id or x-api-secret is not valid");
    }
    if ((*tenant)->disabled) return Error::permissionDenied("the tenant is disabled: ask the service operator");
    return **tenant;
}

Result<std::string> TenantService::rotateSecret(int64_t tenantId) {
    std::string secret = randomSecret();
    if (auto status = store_.setSecretHash(tenantId, SecretHasher::hash(secret)); !status) return status.error();
    return secret;
}

}  // namespace svc
