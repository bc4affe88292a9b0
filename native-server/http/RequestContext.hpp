#pragma once
// Small helpers every route needs: the public base URL and tenant authentication.
#include <httplib.h>

#include <optional>
#include <string>

#include "core/Result.hpp"
#include "http/PublicUrl.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

class TrustedProxies;

// Who sent the request being served on this thread and under which id (docs/adr/0069). Begun
// by ApiServer when a request's routing starts, ended after its answer is written.
class RequestIdentity {
public:
    // The real client (behind a trusted proxy: the address it forwards for) and the request id:
    // a trusted proxy's X-Request-Id when well formed (letters, digits, . _ -, at most 128),
    // else a new one (32 hex digits). Returns the id, for the answer's X-Request-Id header.
    static const std::string& begin(const httplib::Request& request, const TrustedProxies& proxies);
    static void end();
};

// The client address rate limits, lock-outs and logs count: the one RequestIdentity found, or
// the peer's outside a request begun by ApiServer.
std::string clientAddress(const httplib::Request& request);


// The base of every URL svc hands out (docs/adr/0068): the public URL when one is set. Without
// one, "http://<Host>" only for a loopback Host (the demo on this machine); any other Host gets
// the listen address instead and never appears in an answer: answers such as loader.js are
// cached publicly, so an echoed Host would let one request poison them for every shop page.
std::string publicBaseUrl(const httplib::Request& request, const std::optional<PublicUrl>& publicUrl, const std::string& listenHostPort);
// The tenant a public endpoint (loader, content, CSS, GraphQL) serves: a disabled or unknown one
// is none, and a storage failure looks the same to the visitor's page.
std::optional<Tenant> publicTenant(TenantService& tenants, const std::string& apiId);
// Requests from svc's own pages (the demo shop, the console's preview of unsaved-then-saved
// settings) are never cached: the operator sees a change at once. A shop's pages are on
// another origin, so theirs keep the short public cache. `base` is svc's own origin.
bool fromOwnPage(const httplib::Request& request, const std::string& base);
// Shop pages on any origin read the SDK, its content and GraphQL without credentials.
void allowAnyOrigin(httplib::Response& response);
// Server-to-server credentials: x-api-id and x-api-secret (401 when missing or wrong).
Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants);

}  // namespace svc
