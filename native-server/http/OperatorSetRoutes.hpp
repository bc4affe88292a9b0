#pragma once
// The console's custom sets, photo sets and content-pool templates (issue 9; docs/adr/0045,
// docs/adr/0046; docs/api/operator.openapi.yaml):
//   per tenant, under /operator/api/tenants/<apiId>/:
//     GET sets/custom|photo, GET|PUT|DELETE sets/custom|photo/<id>  (SKUs checked against the catalog)
//     POST sets/photos      a JPEG or PNG body: stored as the tenant's photo, answers its URL
//     GET catalog/search?q= a handful of products by SKU prefix or words of the title
//     POST sets/previews    a draft custom set: answers the URL of a page where the real SDK shows it
//   operator-wide: GET /operator/api/templates, GET|PUT|DELETE /operator/api/templates/<id>
//   public: GET /<apiId>/photos/<key>.jpg (the photos, immutable), /set-preview/<token>/... (drafts)
// Every operator call goes through OperatorAuth; every change is all or nothing and schedules
// the content's rebuild, like the tenant authoring routes (SetRoutes).
#include <httplib.h>

#include <chrono>
#include <functional>
#include <string>

#include "http/OperatorAuth.hpp"
#include "recommend/ContentIndex.hpp"
#include "sets/CustomSet.hpp"
#include "sets/SetAuthoring.hpp"
#include "sets/SetPhotoStore.hpp"
#include "store/CatalogStore.hpp"
#include "store/ContentStore.hpp"
#include "store/OperatorStore.hpp"
#include "tenant/TenantService.hpp"
#include "widget/WidgetContent.hpp"

namespace svc {

class OperatorSetRoutes {
public:
    // `decorate` adds the tenant's texts and price rules to preview content (WidgetPresentation);
    // `baseUrl` is svc's own origin as the request reached it (photo URLs must work on shop pages).
    // `previews`: where drafts are kept, by their token's hash, for any node to open (ADR 0091).
    OperatorSetRoutes(OperatorAuth& auth, TenantStore& tenants, ContentStore& content, CatalogStore& catalog, ContentIndex& index,
                      OperatorStore& previews, const Clock& clock, SetPhotoStore photos,
                      std::function<Status(const Tenant&, ContentResponse&)> decorate,
                      std::function<std::string(const httplib::Request&)> baseUrl);
    void registerOn(httplib::Server& server);

    static constexpr size_t kSearchResults = 8;
    static constexpr std::chrono::minutes kPreviewLifetime{30};
    static constexpr int64_t kMaxLivePreviews = 1000;

private:
    void listSets(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void getSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void putSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void deleteSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void uploadPhoto(const httplib::Request& request, httplib::Response& response);
    void servePhoto(const httplib::Request& request, httplib::Response& response);
    void searchCatalog(const httplib::Request& request, httplib::Response& response);
    void createPreview(const httplib::Request& request, httplib::Response& response);
    void previewPage(const httplib::Request& request, httplib::Response& response);
    void previewConfig(const httplib::Request& request, httplib::Response& response);
    void previewContent(const httplib::Request& request, httplib::Response& response);
    void listTemplates(const httplib::Request& request, httplib::Response& response);
    void getTemplate(const httplib::Request& request, httplib::Response& response);
    void putTemplate(const httplib::Request& request, httplib::Response& response);
    void deleteTemplate(const httplib::Request& request, httplib::Response& response);

    // Every SKU the catalog does not know, one error each ("skus[2]: not in the catalog").
    std::vector<Error> unknownSkus(int64_t tenantId, const std::vector<std::string>& skus);

    struct Preview {
        int64_t tenantId = 0;
        std::string apiId;
        CustomSet draft;
    };
    std::optional<Preview> previewOf(const std::string& token);

    OperatorAuth& auth_;
    TenantService tenants_;
    CatalogStore& catalog_;
    ContentIndex& index_;  // the previews' recorded lowest 30-day prices (ADR 0080)
    SetAuthoring authoring_;  // lists, checks and writes sets and templates; schedules the rebuild
    SetPhotoStore photos_;
    std::function<Status(const Tenant&, ContentResponse&)> decorate_;
    std::function<std::string(const httplib::Request&)> baseUrl_;
    OperatorStore& previews_;
    const Clock& clock_;
};

}  // namespace svc
