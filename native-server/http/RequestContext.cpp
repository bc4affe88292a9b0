#include "http/RequestContext.hpp"

#include <cctype>
#include <random>

#include "log/Log.hpp"
#include "net/TrustedProxies.hpp"

namespace svc {
namespace {

thread_local std::string currentClient;

bool wellFormedRequestId(const std::string& id) {
    if (id.empty() || id.size() > 128) return false;
    for (char c : id) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
    }
    return true;
}

std::string newRequestId() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    static const char* digits = "0123456789abcdef";
    std::string id(32, '0');
    for (size_t half = 0; half < 2; ++half) {
        uint64_t bits = random();
        for (size_t i = 0; i < 16; ++i, bits >>= 4) id[half * 16 + i] = digits[bits & 15];
    }
    return id;
}

}  // namespace

const std::string& RequestIdentity::begin(const httplib::Request& request, const TrustedProxies& proxies) {
    currentClient = proxies.clientAddress(request.remote_addr, request.get_header_value("X-Forwarded-For"),
                                          request.get_header_value("Forwarded"));
    std::string inbound = proxies.trusts(request.remote_addr) ? request.get_header_value("X-Request-Id") : std::string();
    Log::setRequestId(wellFormedRequestId(inbound) ? inbound : newRequestId());
    return Log::requestId();
}

void RequestIdentity::end() {
    currentClient.clear();
    Log::setRequestId({});
}

std::string clientAddress(const httplib::Request& request) { return currentClient.empty() ? request.remote_addr : currentClient; }

std::string publicBaseUrl(const httplib::Request& request, const std::optional<PublicUrl>& publicUrl, const std::string& listenHostPort) {
    if (publicUrl) return publicUrl->origin();
    std::string host = request.get_header_value("Host");
    return "http://" + (isLoopbackHost(host) ? host : listenHostPort);
}

Result<Tenant> authenticateTenant(const httplib::Request& request, TenantService& tenants) {
    return tenants.authenticate(request.get_header_value("x-api-id"), request.get_header_value("x-api-secret"));
}

std::optional<Tenant> publicTenant(TenantService& tenants, const std::string& apiId) {
    auto tenant = tenants.findByApiId(apiId);
    if (!tenant || !*tenant || (*tenant)->disabled) return std::nullopt;
    return **tenant;
}

bool fromOwnPage(const httplib::Request& request, const std::string& base) {
    std::string referer = request.get_header_value("Referer");
    return referer.compare(0, base.size(), base) == 0 && (referer.size() == base.size() || referer[base.size()] == '/');
}

void allowAnyOrigin(httplib::Response& response) {
    response.set_header("Access-Control-Allow-Origin", "*");
    response.set_header("Vary", "Origin");
}

}  // namespace svc
