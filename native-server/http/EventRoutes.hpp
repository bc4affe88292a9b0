#pragma once
// POST /events and POST /events/validate (spec endpoint 5, "Events"): purchases and
// widget events from shop pages, sent by fetch, XHR or navigator.sendBeacon (docs/adr/0014).
#include <httplib.h>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <unordered_map>

#include "core/Clock.hpp"
#include "core/Error.hpp"
#include "store/EventStore.hpp"
#include "store/RateLimitStore.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/ClientRateLimiter.hpp"
#include "tracking/EventParser.hpp"
#include "tracking/EventWriter.hpp"

namespace svc {

struct EventRoutesOptions {
    size_t maxBodyBytes = 64 * 1024;
    RateLimit rateLimit;  // requests per client address, counted on this node (a cluster's balancer counts over all)
    // Purchases (each purchase event counts, not the request), besides the requests' limit: every
    // purchase is a claim on an order id that is stored and settled (docs/adr/0056). Counted in the
    // storage's RateLimitStore: over every node of a cluster (docs/adr/0094).
    RateLimit purchasesPerAddress{1.0, 60};        // an address (an IPv6 /64): 60 a minute, bursts of 60
    RateLimit purchasesPerVisitor{20.0 / 3600, 20};  // a visitor (cid) of a tenant: 20 an hour, bursts of 20
    EventLimits limits;
    EventWriterOptions writer;
};

// The events endpoint's answer to a body with problems: the project's error shape with every
// problem listed (also for PUT /orders/{orderid}, whose lines obey the same rules).
nlohmann::json eventProblemsBody(const std::vector<EventProblem>& problems, size_t problemCount);

// The purchase limiter's key for a client address: the address itself, or for IPv6 its /64
// (one subscriber's network: rotating through it buys no fresh buckets).
std::string purchaseClientKey(const std::string& remoteAddress);

class EventRoutes {
public:
    const EventWriter& writer() const { return writer_; }  // its commit lag, for /metrics
    EventRoutes(TenantService& tenants, EventStore& store, RateLimitStore& sharedLimits, const Clock& clock, EventRoutesOptions options)
        : tenants_(tenants),
          sharedLimits_(sharedLimits),
          clock_(clock),
          options_(options),
          limiter_(options.rateLimit),
          writer_(store, clock, options.writer) {}

    void registerOn(httplib::Server& server);

private:
    void receive(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader, bool store);
    // The tenant of x-api-id, else of ?apiId= (sendBeacon cannot set headers).
    Result<int64_t> tenantOf(const httplib::Request& request);
    // Takes the request's purchases from the address's and each visitor's bucket: a RateLimited
    // error saying why and for how long, when one of them is empty; the store's error when it
    // cannot be asked (nothing is stored then either).
    std::optional<Error> limitPurchases(const httplib::Request& request, int64_t tenantId,
                                                              const std::vector<TrackingEvent>& events);

    TenantService& tenants_;
    RateLimitStore& sharedLimits_;
    const Clock& clock_;
    EventRoutesOptions options_;
    ClientRateLimiter limiter_;
    EventWriter writer_;
};

}  // namespace svc
