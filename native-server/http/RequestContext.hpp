#pragma once
// Small helpers every route needs: the public base URL and tenant authentication.
#include <httplib.h>

#include <string>

#include "core/Result.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

// "http://<Host>" when the Host header is a plain host[:port], else the fallback.
std::string publicBaseUrl(const httplib::Request& request, const std::string& fallbackHostPort);
// Server-to-server credentials: x-api-id and x-api-secret (401 when missing or wrong).
Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants);

}  // namespace svc
