#pragma once
// POST /events and POST /events/validate (spec endpoint 5, "Events"): purchases and
// widget events from shop pages, sent by fetch, XHR or navigator.sendBeacon (docs/adr/0014).
#include <httplib.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/Clock.hpp"
#include "store/EventStore.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/ClientRateLimiter.hpp"
#include "tracking/EventParser.hpp"
#include "tracking/EventWriter.hpp"

namespace svc {

struct EventRoutesOptions {
    size_t maxBodyBytes = 64 * 1024;
    RateLimit rateLimit;  // per client address
    EventLimits limits;
    EventWriterOptions writer;
};

class EventRoutes {
public:
    EventRoutes(TenantService& tenants, EventStore& store, const Clock& clock, EventRoutesOptions options)
        : tenants_(tenants), options_(options), limiter_(options.rateLimit), writer_(store, clock, options.writer) {}

    void registerOn(httplib::Server& server);

private:
    void receive(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader, bool store);
    // The tenant of x-api-id, else of ?apiId= (sendBeacon cannot set headers).
    Result<int64_t> tenantOf(const httplib::Request& request);

    TenantService& tenants_;
    EventRoutesOptions options_;
    ClientRateLimiter limiter_;
    EventWriter writer_;
};

}  // namespace svc
