#pragma once
// What a shop's page loads from svc: /<apiId>/loader.js (the stable URL in the shop's snippet),
// the SDK under /sdk/ (versioned, docs/adr/0077), /<apiId>/widgets.css and /<apiId>/content.
#include <httplib.h>

#include <functional>
#include <optional>
#include <string>

#include "http/StaticFiles.hpp"
#include "http/WidgetPresentation.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

class ContentRoutes {
public:
    using BaseUrl = std::function<std::string(const httplib::Request&)>;
    // `content` answers /<apiId>/content (the content answer, docs/adr/0080); `presentation` gives
    // the stylesheet and the loader's consent default.
    ContentRoutes(TenantService& tenants, const std::string& assetsDir, WidgetPresentation& presentation, httplib::Server::Handler content,
                  BaseUrl baseUrl);
    void registerOn(httplib::Server& server);

private:
    void serveLoader(const httplib::Request& request, httplib::Response& response);
    void serveStylesheet(const httplib::Request& request, httplib::Response& response);
    void serveSdkAsset(const httplib::Request& request, httplib::Response& response, const std::string& name,
                       const std::optional<std::string>& version);

    TenantService& tenants_;
    std::string assetsDir_;
    StaticFiles sdkFiles_;
    StaticFiles loaderFiles_;
    std::string sdkFingerprint_;  // the SDK files' version in their long-cached URLs
    WidgetPresentation& presentation_;
    httplib::Server::Handler content_;
    BaseUrl baseUrl_;
};

}  // namespace svc
