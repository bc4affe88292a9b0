#pragma once
// Who is calling the operator API (docs/adr/0039): a console session (cookie, plus
// X-CSRF-Token and a same-origin Origin on state-changing calls) or an operator key
// (Authorization: Bearer). Every operator route class asks this one object, so a new page's
// routes (feeds, sets, reports, operators) cannot forget a check.
#include <httplib.h>

#include <memory>
#include <optional>
#include <string>

#include "core/Result.hpp"
#include "http/PublicUrl.hpp"
#include "operator/OperatorAccounts.hpp"
#include "store/OperatorKeyStore.hpp"
#include "store/TenantStore.hpp"

namespace svc {

struct OperatorCaller {
    std::string email;  // "" for an operator key
    std::string csrfToken;
};

class OperatorAuth {
public:
    static constexpr const char* kSessionCookie = "svc_operator_session";

    // With a public URL (docs/adr/0068), a state-changing call's Origin must be exactly it; without
    // one, its host must be the request's Host (the demo on this machine).
    OperatorAuth(TenantStore& tenants, OperatorKeyStore& keys, std::unique_ptr<OperatorAccounts> accounts,
                 std::optional<PublicUrl> publicUrl = std::nullopt);

    // Session or operator key; state-changing calls by session also need the CSRF token and origin.
    Result<OperatorCaller> authenticate(const httplib::Request& request, bool stateChanging);
    // The tenant named by the route's first capture (/operator/api/tenants/<apiId>/...).
    Result<Tenant> tenantOf(const httplib::Request& request);
    // Both in one: the caller is authenticated first, so an unknown API ID tells a stranger nothing.
    Result<Tenant> tenantFor(const httplib::Request& request, bool stateChanging);
    // The origin check alone (sign-in has no session yet).
    Status sameOrigin(const httplib::Request& request) const;
    static std::string sessionToken(const httplib::Request& request);

    OperatorAccounts& accounts() { return *accounts_; }
    TenantStore& tenants() { return tenants_; }

private:
    TenantStore& tenants_;
    OperatorKeyStore& keys_;
    std::unique_ptr<OperatorAccounts> accounts_;
    std::optional<PublicUrl> publicUrl_;
};

}  // namespace svc
