#include "http/Metrics.hpp"

#include <memory>
#include <vector>

namespace svc {

namespace {

std::string statusLabel(int status) { return status >= 100 && status <= 599 ? std::to_string(status) : "other"; }

std::vector<double> latencyBuckets() { return {Metrics::kLatencyBuckets.begin(), Metrics::kLatencyBuckets.end()}; }

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Paths svc answers whole, as their own label.
const char* const kExactRoutes[] = {"/healthz", "/readyz", "/metrics", "/graphql", "/imagebot", "/events", "/events/validate",
                                    "/feeds/uploads", "/feeds/imports", "/feeds/validate", "/reports/summary", "/reports/ledger",
                                    "/sets/import", "/content-pool/import", "/content-pool/templates"};

// Prefixes collapsed into one label each (their rest is an id or a file name).
struct PrefixRoute {
    const char* prefix;
    const char* label;
};
const PrefixRoute kPrefixRoutes[] = {
    {"/demo/", "/demo/*"},
    {"/sdk/", "/sdk/*"},
    {"/feeds/uploads/", "/feeds/uploads/:id"},
    {"/shops/", "/shops/:apiId/:feedId"},
    {"/operator/api/", "/operator/api/*"},
    {"/operator/preview/", "/operator/preview/*"},
    {"/console/", "/console/*"},
    {"/set-preview/", "/set-preview/*"},
    {"/content-pool/templates/", "/content-pool/templates/:id"},
    {"/sets/custom", "/sets/custom/*"},
    {"/sets/photo", "/sets/photo/*"},
};

// The last part of /<apiId>/... paths.
struct TenantRoute {
    const char* suffix;  // matched at the end of the path, or after /<apiId>/ for the prefixed ones
    const char* label;
    bool prefixed;       // "/<apiId>/thumbs/<key>.jpg": the suffix is the segment after the API ID
};
const TenantRoute kTenantRoutes[] = {
    {"/loader.js", "/:apiId/loader.js", false},
    {"/content", "/:apiId/content", false},
    {"/widgets.css", "/:apiId/widgets.css", false},
    {"thumbs/", "/:apiId/thumbs/*", true},
    {"photos/", "/:apiId/photos/*", true},
};

}  // namespace

void Metrics::recordRequest(const std::string& route, int status, double seconds, const std::string& tenantApiId) {
    std::lock_guard lock(mutex_);
    ++requests_[{route, status}];
    if (status >= 400) ++errors_[{route, status >= 500 ? "5xx" : "4xx"}];
    if (!tenantApiId.empty()) ++tenantRequests_[tenantApiId];
    auto& latency = latency_[route];
    if (!latency) latency = std::make_unique<Histogram>(latencyBuckets());
    latency->observe(seconds);
}

void Metrics::render(ExpositionWriter& out) const {
    std::lock_guard lock(mutex_);
    out.family("svc_http_requests_total", "counter", "HTTP requests answered, by route and status.");
    for (const auto& [key, count] : requests_) {
        out.sample("svc_http_requests_total", {{"route", key.first}, {"status", statusLabel(key.second)}}, static_cast<double>(count));
    }
    out.family("svc_http_request_errors_total", "counter", "HTTP requests answered with a 4xx or 5xx status, by route and status class.");
    for (const auto& [key, count] : errors_) {
        out.sample("svc_http_request_errors_total", {{"route", key.first}, {"class", key.second}}, static_cast<double>(count));
    }
    out.family("svc_tenant_http_requests_total", "counter", "HTTP requests for an existing tenant, by the tenant's API ID.");
    for (const auto& [tenant, count] : tenantRequests_) {
        out.sample("svc_tenant_http_requests_total", {{"tenant", tenant}}, static_cast<double>(count));
    }
    out.family("svc_http_request_duration_seconds", "histogram", "Time from the request's routing to its answer, by route.");
    for (const auto& [route, latency] : latency_) out.histogram("svc_http_request_duration_seconds", {{"route", route}}, latency->snapshot());
}

std::string methodLabel(const std::string& method) {
    // The request line's method is whatever a client sent: only the methods svc answers become
    // labels, anything else is "OTHER", so junk neither breaks the page nor adds series.
    static const char* const kKnown[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
    for (const char* known : kKnown) {
        if (method == known) return method;
    }
    return "OTHER";
}

std::string routeLabel(const std::string& method, const std::string& path) {
    std::string route;
    for (const char* exact : kExactRoutes) {
        if (path == exact) route = exact;
    }
    if (route.empty() && path == "/demo") route = "/demo/*";
    if (route.empty() && startsWith(path, "/feeds/imports/")) {
        size_t action = path.find('/', std::string("/feeds/imports/").size());
        route = "/feeds/imports/:id" + (action == std::string::npos ? std::string() : path.substr(action));
        if (route != "/feeds/imports/:id" && route != "/feeds/imports/:id/confirm" && route != "/feeds/imports/:id/discard") route = "other";
    }
    if (route.empty() && startsWith(path, "/orders/")) route = endsWith(path, "/returns") ? "/orders/:orderId/returns" : "/orders/:orderId";
    for (const auto& prefix : kPrefixRoutes) {
        if (route.empty() && startsWith(path, prefix.prefix)) route = prefix.label;
    }
    if (route.empty()) {
        size_t second = path.find('/', 1);
        for (const auto& tenant : kTenantRoutes) {
            bool matches = tenant.prefixed ? second != std::string::npos && path.compare(second + 1, std::string(tenant.suffix).size(), tenant.suffix) == 0
                                           : endsWith(path, tenant.suffix) && second == path.size() - std::string(tenant.suffix).size();
            if (matches) {
                route = tenant.label;
                break;
            }
        }
    }
    if (route.empty()) route = "other";
    return methodLabel(method) + " " + route;
}

std::string requestedApiId(const std::string& route, const std::string& path, const std::string& apiIdHeader,
                           const std::string& apiIdParameter) {
    std::string label = route.substr(route.find(' ') + 1);
    auto segment = [&](size_t start) {
        size_t end = path.find('/', start);
        return path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    };
    if (startsWith(label, "/:apiId/")) return segment(1);
    if (label == "/shops/:apiId/:feedId") return segment(std::string("/shops/").size());
    const std::string operatorTenant = "/operator/api/tenants/";
    if (startsWith(path, operatorTenant)) return segment(operatorTenant.size());
    if (!apiIdHeader.empty()) return apiIdHeader;
    return apiIdParameter;
}

}  // namespace svc
