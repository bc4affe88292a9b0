#pragma once
// The console's widget preview (docs/adr/0049): a page of svc's own, /operator/preview/widget.html,
// framed by widgets.html, that shows one widget type at one touchpoint with the real SDK and
// the tenant's catalog, with the operator's DRAFT texts and CSS applied in the operator's
// browser only (they arrive by postMessage from the console page; nothing is stored, so no
// shop ever sees a draft). The API part names what can be previewed: some products and the
// custom sets of the tenant.
#include <httplib.h>

#include <string>

#include "http/OperatorAuth.hpp"
#include "http/StaticFiles.hpp"
#include "store/CatalogStore.hpp"
#include "store/ContentStore.hpp"

namespace svc {

class WidgetPreviewRoutes {
public:
    static constexpr size_t kMaxProducts = 20;
    static constexpr size_t kMaxSets = 50;

    WidgetPreviewRoutes(OperatorAuth& auth, CatalogStore& catalog, ContentStore& content, std::string consoleDir)
        : auth_(auth), catalog_(catalog), content_(content), files_(std::move(consoleDir)) {}
    void registerOn(httplib::Server& server);

private:
    void subjects(const httplib::Request& request, httplib::Response& response);
    void servePage(const httplib::Request& request, httplib::Response& response);

    OperatorAuth& auth_;
    CatalogStore& catalog_;
    ContentStore& content_;
    StaticFiles files_;
};

}  // namespace svc
