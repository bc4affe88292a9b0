#include "http/RequestContext.hpp"

namespace svc {

std::string publicBaseUrl(const httplib::Request& request, const std::optional<PublicUrl>& publicUrl, const std::string& listenHostPort) {
    if (publicUrl) return publicUrl->origin();
    std::string host = request.get_header_value("Host");
    return "http://" + (isLoopbackHost(host) ? host : listenHostPort);
}

Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants) {
    return tenants.authenticate(request.get_header_value("x-api-id"), request.get_header_value("x-api-secret"));
}

}  // namespace svc
