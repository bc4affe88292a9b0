#pragma once
// Shop plugin registration (spec endpoint 6, docs/adr/0035): PUT /shops/:apiId/:feedId with the
// headers svc-com-tid and svc-com-fid. The API ID and the feed ID (a random UUID) are the only
// credentials the spec gives a plugin, so the route refuses cheaply and in a fixed order:
// rate limit per client address (429), missing header (404), header and path differ (403),
// unknown tenant or feed (404), body too large (413), bad record (400 naming the field),
// feed pulled from a file (409). A stored registration answers 200 with the record and asks
// the pull scheduler for a prompt pull; the response never waits for it.
#include <httplib.h>

#include <functional>
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "store/RateLimitStore.hpp"
#include "store/ShopRegistrationStore.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

struct ShopRoutesOptions {
    size_t maxBodyBytes = 64 * 1024;  // a record is well under 20 KB (plugin.config at most 16 KB)
    // Registrations per client address, over every node (the RateLimitStore; docs/adr/0094): a burst of 10, then one a second.
    TokenBucketLimit rateLimit{1.0, 10.0};
};

class ShopRoutes {
public:
    ShopRoutes(TenantService& tenants, ShopRegistrationStore& registrations, RateLimitStore& sharedLimits, const Clock& clock,
               ShopRoutesOptions options)
        : tenants_(tenants), registrations_(&registrations), sharedLimits_(sharedLimits), clock_(clock), options_(options) {}

    void registerOn(httplib::Server& server);
    // Called after each stored registration (the process's pull scheduler wakes up); set before serving.
    void setPullWaker(std::function<void()> waker) { waker_ = std::move(waker); }
    const ShopRoutesOptions& options() const { return options_; }

private:
    void registerShop(const httplib::Request& request, httplib::Response& response);

    TenantService& tenants_;
    ShopRegistrationStore* registrations_;
    RateLimitStore& sharedLimits_;
    const Clock& clock_;
    ShopRoutesOptions options_;
    std::function<void()> waker_;
};

}  // namespace svc
