#include "http/WidgetPreviewRoutes.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"

namespace svc {
namespace {

using nlohmann::json;

// The console's policy plus what the real SDK needs: 'wasm-unsafe-eval' for its WebAssembly
// and product images from wherever the tenant's feed has them. Still no inline script or style
// and no other origin for scripts, styles or requests; only the console may frame the page.
constexpr const char* kPreviewPolicy =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: https:; "
    "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

}  // namespace

void WidgetPreviewRoutes::registerOn(httplib::Server& server) {
    server.Get("/operator/api/tenants/([A-Za-z0-9-]{1,64})/widgets/preview",
               [this](const httplib::Request& q, httplib::Response& r) { subjects(q, r); });
    server.Get("/operator/preview/(widget\\.html|widget-preview\\.js)",
               [this](const httplib::Request& q, httplib::Response& r) { servePage(q, r); });
}

void WidgetPreviewRoutes::subjects(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto stats = catalog_.stats(tenant->id);
    if (!stats) return sendError(response, stats.error());
    // One product per article (main SKU), in stock first: those are the ones with recommendations.
    json inStock = json::array();
    json others = json::array();
    std::set<std::string> articles;
    auto visited = catalog_.forEachLiveProduct(tenant->id, [&](Product&& product) {
        if (inStock.size() >= kMaxProducts) return;
        std::string article = product.mainSku.empty() ? product.sku : product.mainSku;
        if (!articles.insert(article).second) return;
        json entry{{"sku", product.sku}, {"name", product.name}};
        if (product.available()) inStock.push_back(std::move(entry));
        else if (others.size() < kMaxProducts) others.push_back(std::move(entry));
    });
    if (!visited) return sendError(response, visited.error());
    json products = inStock;
    for (auto& entry : others) {
        if (products.size() >= kMaxProducts) break;
        products.push_back(entry);
    }
    auto customSets = content_.customSets(tenant->id);
    if (!customSets) return sendError(response, customSets.error());
    json sets = json::array();
    for (const auto& set : *customSets) {
        if (sets.size() >= kMaxSets) break;
        sets.push_back({{"id", set.id}, {"title", set.title}, {"sku", set.skus.empty() ? "" : set.skus.front()}});
    }
    sendJson(response, 200, {{"productCount", stats->products}, {"products", products}, {"sets", sets}}, JsonCaching::NoStore);
}

void WidgetPreviewRoutes::servePage(const httplib::Request& request, httplib::Response& response) {
    std::string name = request.matches[1];
    auto file = files_.read(name == "widget.html" ? "widget-preview.html" : name);
    if (!file) return sendError(response, Error::notFound("no such preview file"));
    response.set_header("Content-Security-Policy", kPreviewPolicy);
    response.set_header("X-Content-Type-Options", "nosniff");
    response.set_header("Referrer-Policy", "same-origin");
    response.set_header("Cache-Control", "no-cache");
    response.set_content(file->content, file->contentType);
}

}  // namespace svc
