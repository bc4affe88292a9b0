#include "http/RequestContext.hpp"

#include <cctype>

namespace svc {

std::string publicBaseUrl(const httplib::Request& request, const std::string& fallbackHostPort) {
    std::string host = request.get_header_value("Host");
    bool safe = !host.empty() && host.size() <= 255;
    for (char c : host) {
        safe = safe && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']');
    }
    return "http://" + (safe ? host : fallbackHostPort);
}

Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants) {
    return tenants.authenticate(request.get_header_value("x-api-id"), request.get_header_value("x-api-secret"));
}

}  // namespace svc
