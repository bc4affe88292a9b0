#pragma once
// The console's Feeds page through the operator API (docs/api/operator.openapi.yaml, issue 9):
// a tenant's pull sources (list, add, change, remove, pull now), a feed file uploaded by hand
// (imported by the same worker and importer as a push), how the shop pushes, each feed's
// freshness (docs/adr/0043) and the catalog's size after each import (docs/adr/0044).
// Import history, row errors and held imports stay in OperatorRoutes.
#include <httplib.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "feed/ImportWorker.hpp"
#include "http/OperatorAuth.hpp"
#include "net/CredentialCipher.hpp"
#include "store/BlobStore.hpp"
#include "store/FeedImportStore.hpp"
#include "store/PullSourceStore.hpp"

namespace svc {

class OperatorFeedRoutes {
public:
    OperatorFeedRoutes(OperatorAuth& auth, FeedImportStore& history, BlobStore& files, ImportWorker& worker,
                       PullSourceStore& sources, CredentialCipher cipher, const Clock& clock,
                       size_t maxUploadBytes, std::function<std::string(const httplib::Request&)> baseUrl);
    void registerOn(httplib::Server& server);
    // Wakes the pull scheduler after "pull now"; without it the pull runs at the scheduler's next tick.
    void setPullWaker(std::function<void()> waker) { pullWaker_ = std::move(waker); }
    // POST /operator/api/tenants/<apiId>/imports takes a streamed body (ApiServer's pre-routing asks).
    static bool isUploadPath(const std::string& method, const std::string& path);

private:
    void feeds(const httplib::Request& request, httplib::Response& response);
    // Every tenant's feeds in one word (the tenants list's column).
    void overview(const httplib::Request& request, httplib::Response& response);
    // Each of the tenant's feeds with its freshness (docs/adr/0043).
    Result<nlohmann::json> feedStates(const Tenant& tenant, int64_t now);
    void listSources(const httplib::Request& request, httplib::Response& response);
    void addSource(const httplib::Request& request, httplib::Response& response);
    void changeSource(const httplib::Request& request, httplib::Response& response);
    void removeSource(const httplib::Request& request, httplib::Response& response);
    void pullNow(const httplib::Request& request, httplib::Response& response);
    void upload(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader);
    void catalogSize(const httplib::Request& request, httplib::Response& response);
    // What an answer shows of a source: never its credentials, only which of them are set.
    nlohmann::json sourceJson(const PullSource& source) const;

    OperatorAuth& auth_;
    FeedImportStore& history_;
    BlobStore& files_;
    ImportWorker& worker_;
    PullSourceStore* sources_;
    CredentialCipher cipher_;
    const Clock& clock_;
    size_t maxUploadBytes_;
    std::function<std::string(const httplib::Request&)> baseUrl_;
    std::function<void()> pullWaker_;
};

}  // namespace svc
