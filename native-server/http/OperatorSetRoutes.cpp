#include "http/OperatorSetRoutes.hpp"

#include <sodium.h>

#include <set>

#include <nlohmann/json.hpp>

#include "catalog/Article.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "recommend/WidgetContentService.hpp"
#include "sets/SetJson.hpp"
#include "text/BoundedJson.hpp"
#include "text/StringUtil.hpp"
#include "widget/ContentRequest.hpp"

namespace svc {
namespace {

using nlohmann::json;

constexpr const char* kApiId = "([A-Za-z0-9-]{1,64})";
constexpr const char* kSetId = "([A-Za-z0-9._:-]{1,128})";
constexpr const char* kToken = "([0-9a-f]{32})";

std::string randomToken() {
    unsigned char bytes[16];
    randombytes_buf(bytes, sizeof bytes);
    static const char* hex = "0123456789abcdef";
    std::string token;
    for (unsigned char byte : bytes) {
        token.push_back(hex[byte >> 4]);
        token.push_back(hex[byte & 15]);
    }
    return token;
}

// Drafts are stored by the hash of their token: storage alone does not open a preview.
std::string previewTokenHash(const std::string& token) {
    unsigned char hash[32];
    crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
    static const char* hex = "0123456789abcdef";
    std::string text;
    for (unsigned char byte : hash) {
        text.push_back(hex[byte >> 4]);
        text.push_back(hex[byte & 15]);
    }
    return text;
}

// Words of a search: lower-case, split on spaces.
std::vector<std::string> wordsOf(const std::string& text) {
    std::vector<std::string> words;
    for (const auto& word : splitList(toLower(text), ' ')) words.push_back(word);
    return words;
}

// svc's recorded lowest 30-day price of a SKU: a fact of the content snapshot (ADR 0080).
std::optional<int64_t> recordedLowestPrice(const ContentSnapshot& snapshot, const std::string& sku) {
    auto index = snapshot.find(sku);
    if (!index) return std::nullopt;
    for (const auto& variant : snapshot.entry(*index).article->variants) {
        if (variant.sku == sku) return variant.recordedLowestPrice30d;
    }
    return std::nullopt;
}

}  // namespace

OperatorSetRoutes::OperatorSetRoutes(OperatorAuth& auth, TenantStore& tenants, ContentStore& content, CatalogStore& catalog,
                                     ContentIndex& index, OperatorStore& previews, const Clock& clock, SetPhotoStore photos,
                                     std::function<Status(const Tenant&, ContentResponse&)> decorate,
                                     std::function<std::string(const httplib::Request&)> baseUrl)
    : auth_(auth),
      tenants_(tenants),
      catalog_(catalog),
      index_(index),
      authoring_(content, index, [this](int64_t tenantId, const std::vector<std::string>& skus) { return unknownSkus(tenantId, skus); }),
      photos_(std::move(photos)),
      decorate_(std::move(decorate)),
      baseUrl_(std::move(baseUrl)),
      previews_(previews),
      clock_(clock) {}

void OperatorSetRoutes::registerOn(httplib::Server& server) {
    const std::string tenant = std::string("/operator/api/tenants/") + kApiId;
    for (SetKind kind : {SetKind::Custom, SetKind::Photo}) {
        std::string base = tenant + (kind == SetKind::Custom ? "/sets/custom" : "/sets/photo");
        server.Get(base, [this, kind](const httplib::Request& q, httplib::Response& r) { listSets(q, r, kind); });
        server.Get(base + "/" + kSetId, [this, kind](const httplib::Request& q, httplib::Response& r) { getSet(q, r, kind); });
        server.Put(base + "/" + kSetId, [this, kind](const httplib::Request& q, httplib::Response& r) { putSet(q, r, kind); });
        server.Delete(base + "/" + kSetId, [this, kind](const httplib::Request& q, httplib::Response& r) { deleteSet(q, r, kind); });
    }
    server.Post(tenant + "/sets/photos", [this](const httplib::Request& q, httplib::Response& r) { uploadPhoto(q, r); });
    server.Post(tenant + "/sets/previews", [this](const httplib::Request& q, httplib::Response& r) { createPreview(q, r); });
    server.Get(tenant + "/catalog/search", [this](const httplib::Request& q, httplib::Response& r) { searchCatalog(q, r); });
    server.Get("/operator/api/templates", [this](const httplib::Request& q, httplib::Response& r) { listTemplates(q, r); });
    server.Get(std::string("/operator/api/templates/") + kSetId, [this](const httplib::Request& q, httplib::Response& r) { getTemplate(q, r); });
    server.Put(std::string("/operator/api/templates/") + kSetId, [this](const httplib::Request& q, httplib::Response& r) { putTemplate(q, r); });
    server.Delete(std::string("/operator/api/templates/") + kSetId,
                  [this](const httplib::Request& q, httplib::Response& r) { deleteTemplate(q, r); });
    server.Get(std::string("/") + kApiId + "/photos/([^/]+)\\.jpg", [this](const httplib::Request& q, httplib::Response& r) { servePhoto(q, r); });
    const std::string preview = std::string("/set-preview/") + kToken;
    server.Get(preview + "/", [this](const httplib::Request& q, httplib::Response& r) { previewPage(q, r); });
    server.Get(preview + "/config\\.js", [this](const httplib::Request& q, httplib::Response& r) { previewConfig(q, r); });
    server.Get(preview + "/" + kApiId + "/content", [this](const httplib::Request& q, httplib::Response& r) { previewContent(q, r); });
    // The SDK asks its base for its Wasm module: the real one, the same as on shop pages.
    server.Get(preview + "/sdk/(.+)", [](const httplib::Request& q, httplib::Response& r) {
        r.set_redirect("/sdk/" + std::string(q.matches[2]), 302);
    });
    // A preview is not a shopper: its widget events are taken and dropped, never counted.
    server.Post(preview + "/events", [](const httplib::Request&, httplib::Response& r) { r.status = 204; });
}

std::vector<Error> OperatorSetRoutes::unknownSkus(int64_t tenantId, const std::vector<std::string>& skus) {
    std::vector<Error> errors;
    for (size_t i = 0; i < skus.size(); ++i) {
        auto variants = catalog_.articleVariants(tenantId, skus[i]);
        if (!variants) {
            errors.push_back(variants.error());
            continue;
        }
        bool live = false;
        for (const auto& variant : *variants) live = live || !variant.deleted;
        if (!live) errors.push_back(Error::invalidArgument("skus[" + std::to_string(i) + "]: " + skus[i] + " is not in the catalog"));
    }
    return errors;
}

void OperatorSetRoutes::listSets(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto items = authoring_.list(tenant->id, kind);
    if (!items) return sendError(response, items.error());
    sendJson(response, 200, {{"sets", *items}}, JsonCaching::NoStore);
}

void OperatorSetRoutes::getSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[2];
    auto found = authoring_.find(tenant->id, kind, id);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("id: no set " + id));
    sendJson(response, 200, **found, JsonCaching::NoStore);
}

void OperatorSetRoutes::putSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    // The shape first (the tenant authoring's own rules, SetJson), then every SKU against the
    // catalog (unknownSkus): each unknown one is named, and nothing is written unless all are right.
    auto write = authoring_.put(tenant->id, kind, std::move(*body), request.matches[2]);
    if (!write) return sendError(response, write.error());
    if (!write->refused.empty()) return sendFieldErrors(response, write->refused);
    sendJson(response, write->created ? 201 : 200, write->stored, JsonCaching::NoStore);
}

void OperatorSetRoutes::deleteSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[2];
    auto removed = authoring_.remove(tenant->id, kind, id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no set " + id));
    response.status = 204;
}

void OperatorSetRoutes::uploadPhoto(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    // The body is the file itself; its type is what decoding finds, not what the header claims.
    auto key = photos_.store(tenant->id, request.body);
    if (!key) return sendFieldErrors(response, {key.error()});
    std::string path = "/" + tenant->apiId + "/photos/" + *key + ".jpg";
    sendJson(response, 201, {{"key", *key}, {"path", path}, {"url", baseUrl_(request) + path}}, JsonCaching::NoStore);
}

void OperatorSetRoutes::servePhoto(const httplib::Request& request, httplib::Response& response) {
    std::string key = request.matches[2];
    auto tenant = tenants_.findByApiId(request.matches[1]);
    if (!tenant) return sendError(response, tenant.error());
    // A disabled tenant is unknown to every public endpoint, its photos included (issue 18).
    if (!*tenant || (*tenant)->disabled) return sendError(response, Error::notFound("unknown API ID"));
    auto photo = photos_.read((*tenant)->id, key);
    if (!photo) return sendError(response, photo.error());
    if (!*photo) return sendError(response, Error::notFound("no photo " + key));
    // The key is the photo's hash: an answer never changes, so shops' pages cache it for a year.
    std::string etag(1, '"');
    etag.append(key, 0, 32).push_back('"');
    response.set_header("Cache-Control", "public, max-age=31536000, immutable");
    response.set_header("ETag", etag);
    response.set_header("Access-Control-Allow-Origin", "*");
    response.set_header("X-Content-Type-Options", "nosniff");
    if (request.get_header_value("If-None-Match") == etag) {
        response.status = 304;
        return;
    }
    response.set_content(**photo, "image/jpeg");
}

void OperatorSetRoutes::searchCatalog(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    std::string query = std::string(trim(request.get_param_value("q")));
    if (query.empty()) return sendFieldErrors(response, {Error::invalidArgument("q: type a SKU or words of a product's title")});
    if (query.size() > 200) return sendFieldErrors(response, {Error::invalidArgument("q: longer than 200 characters")});
    std::string lowered = toLower(query);
    auto words = wordsOf(query);
    // One pass over the live products (the catalog store's consistent read): a SKU or main SKU
    // that starts with the query ranks first, then titles holding every word. One result per
    // article (main SKU): the set shows articles, the shopper picks the size.
    std::vector<Product> bySku, byTitle;
    std::set<std::string> seen;
    auto visited = catalog_.forEachLiveProduct(tenant->id, [&](Product&& product) {
        if (bySku.size() >= kSearchResults) return;
        if (seen.count(product.mainSku)) return;
        if (toLower(product.sku).rfind(lowered, 0) == 0 || toLower(product.mainSku).rfind(lowered, 0) == 0) {
            seen.insert(product.mainSku);
            bySku.push_back(std::move(product));
            return;
        }
        if (byTitle.size() >= kSearchResults) return;
        std::string name = toLower(product.name + " " + product.brand);
        bool all = true;
        for (const auto& word : words) all = all && name.find(word) != std::string::npos;
        if (all) {
            seen.insert(product.mainSku);
            byTitle.push_back(std::move(product));
        }
    });
    if (!visited) return sendError(response, visited.error());
    json results = json::array();
    for (auto* list : {&bySku, &byTitle}) {
        for (const auto& product : *list) {
            if (results.size() >= kSearchResults) break;
            auto price = product.sellingPrice();
            results.push_back({{"sku", product.sku},
                               {"mainSku", product.mainSku},
                               {"name", product.name},
                               {"brand", product.brand},
                               {"image", product.thumbnail.empty() ? product.image : product.thumbnail},
                               {"price", price ? json(*price) : json()},
                               {"available", product.available()}});
        }
    }
    sendJson(response, 200, {{"currency", tenant->currency}, {"locale", tenant->locale}, {"products", results}}, JsonCaching::NoStore);
}

void OperatorSetRoutes::createPreview(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    if (!body->contains("id")) (*body)["id"] = "preview";
    // The same checks as saving: what the preview shows could be saved.
    auto draft = customSetFromJson(*body);
    if (!draft) return sendFieldErrors(response, {draft.error()});
    if (auto errors = unknownSkus(tenant->id, draft->skus); !errors.empty()) return sendFieldErrors(response, errors);
    std::string token = randomToken();
    int64_t now = clock_.nowSeconds();
    SetPreviewDraft stored{tenant->id, toJson(*draft).dump(), now + std::chrono::duration_cast<std::chrono::seconds>(kPreviewLifetime).count()};
    // Bounded: a flood of drafts evicts the oldest, never grows.
    if (auto put = previews_.putSetPreview(previewTokenHash(token), stored, now, kMaxLivePreviews); !put) return sendError(response, put.error());
    sendJson(response, 201, {{"token", token}, {"url", "/set-preview/" + token + "/"}}, JsonCaching::NoStore);
}

std::optional<OperatorSetRoutes::Preview> OperatorSetRoutes::previewOf(const std::string& token) {
    auto found = previews_.findSetPreview(previewTokenHash(token), clock_.nowSeconds());
    if (!found || !*found) return std::nullopt;  // a storage failure shows as an expired preview: the operator makes another
    auto tenant = tenants_.findById((*found)->tenantId);
    if (!tenant || !*tenant) return std::nullopt;
    // Written by createPreview, but read as any stored text is: through the bounded reader.
    auto stored = BoundedJson::parse((*found)->draftJson, "set preview");
    if (!stored) return std::nullopt;
    auto draft = customSetFromJson(*stored);
    if (!draft) return std::nullopt;
    return Preview{(*found)->tenantId, (**tenant).apiId, *draft};
}

void OperatorSetRoutes::previewPage(const httplib::Request& request, httplib::Response& response) {
    auto preview = previewOf(request.matches[1]);
    if (!preview) return sendError(response, Error::notFound("no such preview (they last " + std::to_string(kPreviewLifetime.count()) + " minutes)"));
    // A plain shop-like page: the tenant's widget stylesheet, the real SDK, one SET-Custom widget.
    // Only the console (same origin) may frame it.
    response.set_header("Cache-Control", "no-store");
    response.set_header("Content-Security-Policy", "frame-ancestors 'self'");
    std::string apiId = preview->apiId;
    response.set_content("<!doctype html>\n<html lang=\"" + std::string("en") +
                             "\"><head><meta charset=\"utf-8\"><title>Set preview</title>\n"
                             "<link rel=\"icon\" href=\"data:,\">\n"
                             "<link rel=\"stylesheet\" href=\"/" + apiId + "/widgets.css\">\n"
                             "<script src=\"config.js\"></script>\n<script async src=\"/sdk/sdk.js\"></script>\n"
                             "</head><body>\n<main><section class=\"-svc-widget-container\" id=\"preview-container\">\n"
                             "<div id=\"preview-widget\" data-svc-widget-id=\"SET-Custom\" data-touchpoint=\"content\" data-set-id=\"" +
                             preview->draft.id + "\"></div>\n</section></main>\n</body></html>\n",
                         "text/html; charset=utf-8");
}

void OperatorSetRoutes::previewConfig(const httplib::Request& request, httplib::Response& response) {
    std::string token = request.matches[1];
    auto preview = previewOf(token);
    if (!preview) return sendError(response, Error::notFound("no such preview"));
    // What the loader would set, with the preview's own base: the content request and the
    // widget events come back here, not to the tenant's live content and statistics.
    std::string base = baseUrl_(request) + "/set-preview/" + token;
    json config{{"apiId", preview->apiId}, {"base", base}, {"tracking", base}};
    response.set_header("Cache-Control", "no-store");
    response.set_content("window._svc = {config: " + config.dump() + ", q: []};\n", "text/javascript; charset=utf-8");
}

void OperatorSetRoutes::previewContent(const httplib::Request& request, httplib::Response& response) {
    auto preview = previewOf(request.matches[1]);
    if (!preview || preview->apiId != std::string(request.matches[2])) return sendError(response, Error::notFound("no such preview"));
    auto tenant = tenants_.findByApiId(preview->apiId);
    if (!tenant) return sendError(response, tenant.error());
    if (!*tenant) return sendError(response, Error::notFound("unknown API ID"));
    size_t queryStart = request.target.find('?');
    std::string_view query = queryStart == std::string::npos ? std::string_view() : std::string_view(request.target).substr(queryStart + 1);
    auto widgets = ContentRequest::fromQueryString(query);
    if (!widgets) return sendError(response, widgets.error());
    // The draft as the SET-Custom widget would get it once saved: its title, photo and products
    // in the operator's order (products without a price are left out, as on shop pages).
    WidgetContent draft;
    draft.setId = preview->draft.id;
    draft.title = preview->draft.title;
    if (!preview->draft.images.empty()) draft.image = preview->draft.images.front();
    auto snapshot = index_.snapshot((*tenant)->id);
    for (const auto& sku : preview->draft.skus) {
        auto variants = catalog_.articleVariants((*tenant)->id, sku);
        if (!variants) return sendError(response, variants.error());
        std::vector<Product> live;
        for (auto& variant : *variants) {
            if (variant.deleted) continue;
            if (snapshot) variant.recordedLowestPrice30d = recordedLowestPrice(**snapshot, variant.sku);
            live.push_back(std::move(variant));
        }
        auto articles = groupIntoArticles(std::move(live));
        if (articles.empty()) continue;
        if (auto item = contentItemOf(articles.front())) draft.items.push_back(std::move(*item));
    }
    ContentResponse content;
    content.currency = (*tenant)->currency;
    content.locale = (*tenant)->locale;
    for (const auto& widget : *widgets) content.widgets.push_back(widget.type == WidgetType::SetCustom ? draft : WidgetContent{});
    if (auto decorated = decorate_(**tenant, content); !decorated) return sendError(response, decorated.error());
    response.set_header("Cache-Control", "no-store");
    response.set_content(content.toJson(), "application/json");
}

void OperatorSetRoutes::listTemplates(const httplib::Request& request, httplib::Response& response) {
    if (auto caller = auth_.authenticate(request, false); !caller) return sendError(response, caller.error());
    auto items = authoring_.listTemplates();
    if (!items) return sendError(response, items.error());
    sendJson(response, 200, {{"templates", *items}}, JsonCaching::NoStore);
}

void OperatorSetRoutes::getTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto caller = auth_.authenticate(request, false); !caller) return sendError(response, caller.error());
    const std::string id = request.matches[1];
    auto found = authoring_.findTemplate(id);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("id: no template " + id));
    sendJson(response, 200, **found, JsonCaching::NoStore);
}

void OperatorSetRoutes::putTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto caller = auth_.authenticate(request, true); !caller) return sendError(response, caller.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    auto write = authoring_.putTemplate(std::move(*body), request.matches[1]);
    if (!write) return sendError(response, write.error());
    if (!write->refused.empty()) return sendFieldErrors(response, write->refused);
    sendJson(response, write->created ? 201 : 200, write->stored, JsonCaching::NoStore);
}

void OperatorSetRoutes::deleteTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto caller = auth_.authenticate(request, true); !caller) return sendError(response, caller.error());
    const std::string id = request.matches[1];
    auto removed = authoring_.removeTemplate(id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no template " + id));
    response.status = 204;
}

}  // namespace svc
