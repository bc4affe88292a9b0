#include "http/OperatorLearningRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"

namespace svc {

void OperatorLearningRoutes::registerOn(httplib::Server& server) {
    const std::string path = "/operator/api/tenants/([A-Za-z0-9-]{1,64})/content/learning";
    server.Get(path, [this](const httplib::Request& q, httplib::Response& r) { answer(q, r, false); });
    server.Post(path, [this](const httplib::Request& q, httplib::Response& r) { answer(q, r, true); });
}

void OperatorLearningRoutes::answer(const httplib::Request& request, httplib::Response& response, bool learnNow) {
    auto tenant = auth_.tenantFor(request, learnNow);
    if (!tenant) return sendError(response, tenant.error());
    ContentIndex::Learned learned;
    if (learnNow) {
        auto done = index_.learnNow(tenant->id);
        if (!done) return sendError(response, done.error());
        learned = *done;
    } else {
        // Content not loaded yet has learned nothing: the first query (or a POST) builds it.
        for (const auto& loaded : index_.learned()) {
            if (loaded.tenantId == tenant->id) learned = loaded;
        }
    }
    nlohmann::json body{{"ordersLearned", learned.orders}, {"lastOrderLearnedAt", nullptr}};
    if (learned.lastOrderReceivedAt > 0) body["lastOrderLearnedAt"] = learned.lastOrderReceivedAt;
    sendJson(response, 200, body, JsonCaching::NoStore);
}

}  // namespace svc
