#include "http/OperatorAuth.hpp"

#include <sodium.h>

#include "tenant/SecretHasher.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

std::string cookieValue(const httplib::Request& request, const std::string& name) {
    std::string header = request.get_header_value("Cookie");
    for (const auto& part : splitList(header, ';')) {
        if (part.size() > name.size() && part.compare(0, name.size() + 1, name + "=") == 0) return part.substr(name.size() + 1);
    }
    return "";
}

bool sameToken(const std::string& a, const std::string& b) {
    return a.size() == b.size() && !a.empty() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

// The host part of an Origin ("https://ops.example:8443" -> "ops.example:8443").
std::string originHost(const std::string& origin) {
    size_t scheme = origin.find("://");
    return scheme == std::string::npos ? origin : origin.substr(scheme + 3);
}

}  // namespace

OperatorAuth::OperatorAuth(TenantStore& tenants, OperatorKeyStore& keys, std::unique_ptr<OperatorAccounts> accounts,
                           std::optional<PublicUrl> publicUrl)
    : tenants_(tenants), keys_(keys), accounts_(std::move(accounts)), publicUrl_(std::move(publicUrl)) {}

std::string OperatorAuth::sessionToken(const httplib::Request& request) { return cookieValue(request, kSessionCookie); }

Status OperatorAuth::sameOrigin(const httplib::Request& request) const {
    std::string origin = request.get_header_value("Origin");
    // Behind a proxy the Host svc sees may be the proxy's choice; the public URL is the console's origin.
    bool foreign = publicUrl_ ? origin != publicUrl_->origin() : originHost(origin) != request.get_header_value("Host");
    if (!origin.empty() && foreign) {
        return Error::permissionDenied("Origin: " + origin + " is not this server");
    }
    return {};
}

Result<OperatorCaller> OperatorAuth::authenticate(const httplib::Request& request, bool stateChanging) {
    std::string authorization = request.get_header_value("Authorization");
    const std::string bearer = "Bearer ";
    if (authorization.rfind(bearer, 0) == 0) {
        // A key is no ambient credential (a browser never adds it by itself): no CSRF check needed.
        auto keys = keys_.operatorKeys();
        if (!keys) return keys.error();
        std::string key = authorization.substr(bearer.size());
        for (const auto& stored : *keys) {
            if (SecretHasher::matches(key, stored.keyHash)) return OperatorCaller{};
        }
        return Error::unauthenticated("Authorization: not a valid operator key");
    }
    auto session = accounts_->authenticate(sessionToken(request));
    if (!session) return session.error();
    if (stateChanging) {
        // SameSite=Strict already keeps the cookie off other sites' requests; the origin and the
        // synchronizer token also hold when a browser ignores SameSite.
        if (auto origin = sameOrigin(request); !origin) return origin.error();
        if (!sameToken(request.get_header_value("X-CSRF-Token"), session->csrfToken)) {
            return Error::permissionDenied("X-CSRF-Token: missing or not this session's token (reload the console)");
        }
    }
    return OperatorCaller{session->email, session->csrfToken};
}

Result<Tenant> OperatorAuth::tenantOf(const httplib::Request& request) {
    std::string apiId = request.matches[1];
    auto found = tenants_.findByApiId(apiId);
    if (!found) return found.error();
    if (!*found) return Error::notFound("apiId: no tenant " + apiId);
    return **found;
}

Result<Tenant> OperatorAuth::tenantFor(const httplib::Request& request, bool stateChanging) {
    if (auto caller = authenticate(request, stateChanging); !caller) return caller.error();
    return tenantOf(request);
}

}  // namespace svc
