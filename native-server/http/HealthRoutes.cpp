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
    // Ready: every enabled tenant's content is loaded; 503 while starting and draining. Storage
    // that stopped answering after that does not make the node unready: it still answers
    // shoppers from memory (a balancer that took every node out would answer nobody; ADR 0091),
    // and says so in "storage". /healthz is the check that fails then.
    server.Get("/readyz", [this](const httplib::Request&, httplib::Response& response) {
        response.set_header("Cache-Control", "no-store");
        std::string notReady = notReady_();
        bool storage = static_cast<bool>(tenants_.findByApiId(""));
        if (notReady.empty()) {
            return response.set_content(nlohmann::json{{"status", "ready"}, {"storage", storage ? "ok" : "unavailable"}}.dump(), "application/json");
        }
        response.status = 503;
        response.set_header("Retry-After", "1");
        response.set_content(nlohmann::json{{"status", notReady}}.dump(), "application/json");
    });
    // With a listener of its own, /metrics is not on the public port at all (404 there).
    if (metricsHere_) {
        server.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
            response.set_content(renderMetrics_(), "text/plain; version=0.0.4");
        });
    }
}

}  // namespace svc
