#pragma once
// /healthz (the process answers and storage is reachable), /readyz (and every enabled tenant's
// content is loaded; docs/operations.md, Running) and /metrics on the main listener unless it
// has one of its own (docs/adr/0065).
#include <httplib.h>

#include <functional>
#include <string>

#include "store/TenantStore.hpp"

namespace svc {

class HealthRoutes {
public:
    // `notReady`: empty when the server is ready, else why not ("starting", "draining").
    using ReadinessCheck = std::function<std::string()>;
    HealthRoutes(TenantStore& tenants, ReadinessCheck notReady, std::function<std::string()> renderMetrics, bool metricsOnMainListener)
        : tenants_(tenants), notReady_(std::move(notReady)), renderMetrics_(std::move(renderMetrics)), metricsHere_(metricsOnMainListener) {}
    void registerOn(httplib::Server& server);

private:
    TenantStore& tenants_;
    ReadinessCheck notReady_;
    std::function<std::string()> renderMetrics_;
    bool metricsHere_;
};

}  // namespace svc
