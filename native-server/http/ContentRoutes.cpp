#include "http/ContentRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/RequestContext.hpp"
#include "http/ResponseCompression.hpp"

namespace svc {
namespace {

constexpr const char* kApiIdPattern = "([A-Za-z0-9-]{1,64})";

}  // namespace

ContentRoutes::ContentRoutes(TenantService& tenants, const std::string& assetsDir, WidgetPresentation& presentation,
                             httplib::Server::Handler content, BaseUrl baseUrl)
    : tenants_(tenants),
      assetsDir_(assetsDir),
      sdkFiles_(StaticFiles::preloaded(assetsDir + "/sdk")),
      loaderFiles_(StaticFiles::preloaded(assetsDir + "/loader")),
      sdkFingerprint_(sdkFiles_.fingerprint()),
      presentation_(presentation),
      content_(std::move(content)),
      baseUrl_(std::move(baseUrl)) {}

void ContentRoutes::registerOn(httplib::Server& server) {
    server.Get(std::string("/") + kApiIdPattern + "/loader\\.js",
               [this](const httplib::Request& request, httplib::Response& response) { serveLoader(request, response); });
    server.Get(std::string("/") + kApiIdPattern + "/content", content_);
    // The base stylesheet plus the tenant's CSS: a stylesheet, so a strict CSP needs no inline styles.
    server.Get(std::string("/") + kApiIdPattern + "/widgets\\.css",
               [this](const httplib::Request& request, httplib::Response& response) { serveStylesheet(request, response); });
    server.Get("/sdk/([0-9a-f]{16})/([^/]+)", [this](const httplib::Request& request, httplib::Response& response) {
        serveSdkAsset(request, response, request.matches[2], request.matches[1]);
    });
    server.Get("/sdk/(.+)", [this](const httplib::Request& request, httplib::Response& response) {
        serveSdkAsset(request, response, request.matches[1], std::nullopt);
    });
}

void ContentRoutes::serveLoader(const httplib::Request& request, httplib::Response& response) {
    auto tenant = publicTenant(tenants_, request.matches[1]);
    if (!tenant) return sendError(response, Error::notFound("unknown API ID"));
    auto loader = loaderFiles_.read("loader.js");
    if (!loader) return sendError(response, Error::unavailable("loader.js is missing from " + assetsDir_));
    std::string script = loader->content;
    StaticFiles::substitute(script, "__SVC_API_ID__", nlohmann::json(tenant->apiId).dump());
    std::string base = baseUrl_(request);
    StaticFiles::substitute(script, "__SVC_BASE_URL__", nlohmann::json(base).dump());
    StaticFiles::substitute(script, "__SVC_SDK_URL__", nlohmann::json(base + "/sdk/" + sdkFingerprint_).dump());
    // The tenant's default consent (docs/adr/0083); within the loader's 5 minutes a change reaches every page.
    Consent consent = Consent::Granted;
    if (auto settings = presentation_.settingsOf(tenant->id)) consent = (*settings)->consent;
    StaticFiles::substitute(script, "__SVC_CONSENT__", nlohmann::json(consentName(consent)).dump());
    // Short cache: the loader is the stable URL in shops' pages; the SDK behind it may change.
    response.set_header("Cache-Control", "public, max-age=300");
    response.set_content(script, "text/javascript; charset=utf-8");
}

void ContentRoutes::serveStylesheet(const httplib::Request& request, httplib::Response& response) {
    allowAnyOrigin(response);
    auto tenant = publicTenant(tenants_, request.matches[1]);
    if (!tenant) return sendError(response, Error::notFound("unknown API ID"));
    auto base = sdkFiles_.read("svc.css");
    if (!base) return sendError(response, Error::unavailable("svc.css is missing from " + assetsDir_ + "/sdk"));
    auto css = presentation_.stylesheet(*tenant, base->content);
    if (!css) return sendError(response, css.error());
    response.set_header("Cache-Control", fromOwnPage(request, baseUrl_(request)) ? "no-store" : "public, max-age=300");
    ResponseCompression::setBody(request, response, *css, "text/css; charset=utf-8");
}

void ContentRoutes::serveSdkAsset(const httplib::Request& request, httplib::Response& response, const std::string& name,
                                  const std::optional<std::string>& version) {
    auto file = sdkFiles_.read(name);
    if (!file) return sendError(response, Error::notFound("no such SDK file"));
    allowAnyOrigin(response);
    // A URL naming this build's fingerprint never changes its bytes: cached for a year by browsers
    // and shared caches (docs/adr/0077). Another fingerprint is a page whose loader.js came from the
    // build before an upgrade: it gets today's file, cached briefly, so a rollout never breaks it.
    if (version && *version == sdkFingerprint_) {
        response.set_header("Cache-Control", "public, max-age=31536000, immutable");
    } else if (version) {
        response.set_header("Cache-Control", "public, max-age=300");
    } else {
        response.set_header("Cache-Control", "public, max-age=3600");
    }
    ResponseCompression::setBody(request, response, file->content, file->contentType, file->gzipped);
}

}  // namespace svc
