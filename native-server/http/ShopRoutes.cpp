#include "http/ShopRoutes.hpp"

#include <sodium.h>

#include "http/RequestContext.hpp"
#include "http/HttpErrors.hpp"
#include "shop/ShopRegistration.hpp"

namespace svc {
namespace {

// The feed ID is the plugin's credential: compared in constant time.
bool sameSecret(const std::string& a, const std::string& b) {
    return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

void ShopRoutes::registerOn(httplib::Server& server) {
    server.Put("/shops/([^/]{1,100})/([^/]{1,100})", [this](const httplib::Request& request, httplib::Response& response) {
        registerShop(request, response);
    });
}

void ShopRoutes::registerShop(const httplib::Request& request, httplib::Response& response) {
    auto taken = sharedLimits_.take("shops/address/" + clientAddress(request), 1, options_.rateLimit, clock_.nowMillis());
    if (!taken) return sendError(response, taken.error());
    if (!taken->taken) {
        int retryAfter = taken->retryAfterSeconds;
        return sendError(response, Error::rateLimited("too many registrations from this address; retry after " + std::to_string(retryAfter) + " s",
                                                      retryAfter)
                                       .withId("svc.limit.304"));
    }
    const std::string& apiId = request.matches[1];
    const std::string& feedId = request.matches[2];
    if (!request.has_header("svc-com-tid")) return sendError(response, Error::notFound("svc-com-tid: header required (the API ID)"));
    if (!request.has_header("svc-com-fid")) return sendError(response, Error::notFound("svc-com-fid: header required (the feed ID)"));
    if (request.get_header_value("svc-com-tid") != apiId) {
        return sendError(response, Error::permissionDenied("svc-com-tid: does not match the API ID in the path"));
    }
    if (!sameSecret(request.get_header_value("svc-com-fid"), feedId)) {
        return sendError(response, Error::permissionDenied("svc-com-fid: does not match the feed ID in the path"));
    }
    // One answer for an unknown tenant and a wrong feed ID: the API ID is public, the feed ID is not.
    Error unknown = Error::notFound("no tenant has this API ID and feed ID");
    auto tenant = tenants_.findByApiId(apiId);
    if (!tenant) return sendError(response, tenant.error());
    if (!*tenant || !sameSecret((*tenant)->feedId, feedId)) return sendError(response, unknown);
    // A tenant the operator disabled takes no registrations, like every other tenant-facing endpoint.
    if ((*tenant)->disabled) return sendError(response, Error::permissionDenied("the tenant is disabled: ask the service operator"));

    if (request.body.size() > options_.maxBodyBytes) {
        return sendError(response, Error::resourceExhausted("the body is larger than " + std::to_string(options_.maxBodyBytes) + " bytes").withId("svc.http.102"));
    }
    auto record = parseShopRegistration(request.body);
    if (!record) return sendError(response, record.error());
    // The feed ID names the tenant's default feed (Tenant::feedId): its pulls import into "default".
    auto stored = registrations_->save((*tenant)->id, "default", feedId, *record, clock_.nowSeconds());
    if (!stored) return sendError(response, stored.error());
    if (waker_) waker_();
    response.set_content(toJson(stored->record).dump(), "application/json");
}

}  // namespace svc
