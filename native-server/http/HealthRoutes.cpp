#include "http/HealthRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"

namespace svc {

void HealthRoutes::registerOn(httplib::Server& server) {
    server.Get("/healthz", [this](const httplib::Request&, httplib::Response& response) {
        auto probe = tenants_.findByApiId("");
        if (!probe) return sendError(response, probe.error());
        response.set_header("Cache-Control", "no-store");
        response.set_content(R"({"status":"ok"})", "application/json");
    });
    // Ready: storage answers and every enabled tenant's content is loaded; 503 while starting and draining.
    server.Get("/readyz", [this](const httplib::Request&, httplib::Response& response) {
        response.set_header("Cache-Control", "no-store");
        std::string notReady = notReady_();
        auto probe = tenants_.findByApiId("");
        if (notReady.empty() && probe) return response.set_content(R"({"status":"ready"})", "application/json");
        response.status = 503;
        response.set_header("Retry-After", "1");
        std::string status = !probe ? "storage unavailable" : notReady;
        response.set_content(nlohmann::json{{"status", status}}.dump(), "application/json");
    });
    // With a listener of its own, /metrics is not on the public port at all (404 there).
    if (metricsHere_) {
        server.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
            response.set_content(renderMetrics_(), "text/plain; version=0.0.4");
        });
    }
}

}  // namespace svc
