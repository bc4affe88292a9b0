#pragma once
// Small helpers every route needs: the public base URL and tenant authentication.
#include <httplib.h>

#include <optional>
#include <string>

#include "core/Result.hpp"
#include "http/PublicUrl.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

// The base of every URL svc hands out (docs/adr/0068): the public URL when one is set. Without
// one, "http://<Host>" only for a loopback Host (the demo on this machine); any other Host gets
// the listen address instead and never appears in an answer: answers such as loader.js are
// cached publicly, so an echoed Host would let one request poison them for every shop page.
std::string publicBaseUrl(const httplib::Request& request, const std::optional<PublicUrl>& publicUrl, const std::string& listenHostPort);
// Server-to-server credentials: x-api-id and x-api-secret (401 when missing or wrong).
Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants);

}  // namespace svc
