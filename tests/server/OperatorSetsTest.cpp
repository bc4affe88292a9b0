// The console's sets API (OperatorSetRoutes, docs/adr/0045-0046) end to end: a real server on
// port 0, real SQLite, real JPEG bytes made by the codec, a real HTTP client with an operator key.
// Each case fails when its feature is taken out: CRUD, SKU checks naming each bad SKU with nothing
// written, photo upload and serving (type by decoding, tenant isolation, caching), SKU search,
// templates, the draft preview's content, and CSRF on every state-changing call by session.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "image/ImageCodec.hpp"
#include "operator/OperatorAccounts.hpp"
#include "sets/SetPhotoStore.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                          "marke", "farbe", "abteilung"};

std::vector<std::string> item(const std::string& mainSku, const std::string& name, const std::string& category) {
    return {mainSku + "-M", mainSku, "3", name, "4000", "https://shop.example/" + mainSku, "https://shop.example/" + mainSku + ".jpg",
            category, "Brand", "Blue", "Women"};
}

struct SetsFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant tenant, other;
    const std::string key = "operator-key-for-tests-0123456789";

    SetsFixture() {
        tenant = TenantService(server.storage->tenants()).create("Shop")->tenant;
        other = TenantService(server.storage->tenants()).create("Other shop")->tenant;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(key)}));
        auto feed = test::feedCsv({kHeader, item("TEE", "Linen tee white", "Women > Topwear > T-Shirts"),
                                   item("JEANS", "Slim jeans blue", "Women > Bottomwear > Jeans"),
                                   item("SNEAKER", "Canvas sneaker", "Women > Footwear > Sneakers"),
                                   item("TEX-1", "Linen shirt", "Women > Topwear > Shirts")});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
    }
    httplib::Headers auth() const { return {{"Authorization", "Bearer " + key}}; }
    std::string tenantPath(const std::string& rest, bool otherTenant = false) const {
        return "/operator/api/tenants/" + (otherTenant ? other.apiId : tenant.apiId) + rest;
    }
    httplib::Result put(const std::string& path, const json& body) { return server.client().Put(path, auth(), body.dump(), "application/json"); }
    json getJson(const std::string& path) {
        auto response = server.client().Get(path, auth());
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
};

std::vector<std::string> fieldsOf(const httplib::Result& response) {
    std::vector<std::string> fields;
    json error = json::parse(response->body)["error"];
    for (const auto& field : error["fields"]) fields.push_back(field["field"]);
    return fields;
}

std::string jpegBytes(int width, int height) {
    RgbImage image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<size_t>(width) * height * 3, 0);
    for (size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<uint8_t>(i * 7 % 251);
    return ImageCodec::encodeJpeg(image, 90);
}

}  // namespace

TEST_CASE("operator sets: custom and photo sets are created, replaced, read, listed and deleted through the operator API") {
    SetsFixture fixture;
    json look{{"title", "Summer look"}, {"tags", {"summer", "women"}}, {"skus", {"JEANS", "TEE-M"}}};
    auto created = fixture.put(fixture.tenantPath("/sets/custom/look-1"), look);
    REQUIRE(created);
    CHECK(created->status == 201);
    CHECK(created->get_header_value("Cache-Control") == "no-store");
    look["tags"] = {"summer"};
    CHECK(fixture.put(fixture.tenantPath("/sets/custom/look-1"), look)->status == 200);
    json one = fixture.getJson(fixture.tenantPath("/sets/custom/look-1"));
    CHECK(one["skus"] == json::array({"JEANS", "TEE-M"}));  // the operator's order
    CHECK(one["tags"] == json::array({"summer"}));
    CHECK(fixture.getJson(fixture.tenantPath("/sets/custom"))["sets"].size() == 1);
    // The tenant's own authoring sees the same set: one store.
    CHECK(fixture.server.storage->content().customSets(fixture.tenant.id)->front().title == "Summer look");

    json photo{{"title", "Beach mood"}, {"tags", {"beach"}}, {"images", {"https://cdn.example/beach.jpg"}}};
    CHECK(fixture.put(fixture.tenantPath("/sets/photo/beach"), photo)->status == 201);
    CHECK(fixture.getJson(fixture.tenantPath("/sets/photo/beach"))["title"] == "Beach mood");

    auto client = fixture.server.client();
    CHECK(client.Delete(fixture.tenantPath("/sets/custom/look-1"), fixture.auth())->status == 204);
    CHECK(client.Delete(fixture.tenantPath("/sets/custom/look-1"), fixture.auth())->status == 404);
    CHECK(client.Delete(fixture.tenantPath("/sets/photo/beach"), fixture.auth())->status == 204);
    CHECK(client.Get(fixture.tenantPath("/sets/custom"))->status == 401);  // no key, no session
    CHECK(fixture.getJson(fixture.tenantPath("/sets/custom", true))["sets"].empty());
}

TEST_CASE("operator sets: a bad set is refused naming each bad field, and nothing is written") {
    SetsFixture fixture;
    struct Case {
        const char* name;
        json body;
        std::vector<std::string> fields;
    };
    const std::vector<Case> cases = {
        {"every unknown SKU is named with its position", {{"title", "Look"}, {"skus", {"TEE-M", "NOPE", "JEANS", "GONE"}}}, {"skus[1]", "skus[3]"}},
        {"title missing", {{"skus", {"TEE-M"}}}, {"title"}},
        {"no products", {{"title", "Look"}, {"skus", json::array()}}, {"skus"}},
        {"a SKU twice", {{"title", "Look"}, {"skus", {"TEE-M", "TEE-M"}}}, {"skus[1]"}},
        {"an image that is no URL", {{"title", "Look"}, {"skus", {"TEE-M"}}, {"images", {"javascript:alert(1)"}}}, {"images[0]"}},
        {"an unknown member", {{"title", "Look"}, {"skus", {"TEE-M"}}, {"colour", "red"}}, {"colour"}},
        {"another id in the body", {{"id", "other"}, {"title", "Look"}, {"skus", {"TEE-M"}}}, {"id"}},
    };
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        auto response = fixture.put(fixture.tenantPath("/sets/custom/look-1"), testCase.body);
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(fieldsOf(response) == testCase.fields);
    }
    auto unknown = fixture.put(fixture.tenantPath("/sets/custom/look-1"), {{"title", "Look"}, {"skus", {"NOPE"}}});
    CHECK(json::parse(unknown->body)["error"]["fields"][0]["message"] == "NOPE is not in the catalog");
    // The other tenant's catalog is not this one's.
    CHECK(fixture.put(fixture.tenantPath("/sets/custom/look-1", true), {{"title", "Look"}, {"skus", {"TEE-M"}}})->status == 400);
    CHECK(fixture.getJson(fixture.tenantPath("/sets/custom"))["sets"].empty());
    CHECK(fixture.server.storage->content().customSets(fixture.tenant.id)->empty());
    CHECK(fixture.server.storage->content().customSets(fixture.other.id)->empty());
}

TEST_CASE("operator sets: an uploaded photo is decoded, stored per tenant under its hash and served with a year's cache") {
    SetsFixture fixture;
    auto client = fixture.server.client();
    httplib::Headers headers = fixture.auth();
    auto uploaded = client.Post(fixture.tenantPath("/sets/photos"), headers, jpegBytes(64, 48), "image/jpeg");
    REQUIRE(uploaded);
    REQUIRE(uploaded->status == 201);
    json photo = json::parse(uploaded->body);
    std::string key = photo["key"];
    CHECK(key.size() == 64);
    CHECK(photo["path"] == "/" + fixture.tenant.apiId + "/photos/" + key + ".jpg");
    CHECK(std::string(photo["url"]).rfind("http://127.0.0.1:", 0) == 0);

    auto served = client.Get(photo["path"].get<std::string>());
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->get_header_value("Content-Type") == "image/jpeg");
    CHECK(served->get_header_value("Cache-Control") == "public, max-age=31536000, immutable");
    auto decoded = ImageCodec::decode(served->body, 1'000'000);
    REQUIRE(decoded);
    CHECK(decoded->width == 64);
    auto again = client.Get(photo["path"].get<std::string>(), {{"If-None-Match", served->get_header_value("ETag")}});
    CHECK(again->status == 304);
    // The same photo twice is the same key; a PNG is stored as a JPEG too.
    CHECK(json::parse(client.Post(fixture.tenantPath("/sets/photos"), headers, jpegBytes(64, 48), "image/jpeg")->body)["key"] == key);
    RgbImage png;
    png.width = png.height = 8;
    png.pixels.assign(8 * 8 * 3, 200);
    auto fromPng = client.Post(fixture.tenantPath("/sets/photos"), headers, ImageCodec::encodePng(png), "image/png");
    CHECK(fromPng->status == 201);

    // Another tenant's path to the same key: 404, as for a key that does not exist.
    CHECK(client.Get("/" + fixture.other.apiId + "/photos/" + key + ".jpg")->status == 404);
    CHECK(client.Get("/" + fixture.tenant.apiId + "/photos/" + std::string(64, 'a') + ".jpg")->status == 404);
    CHECK(client.Get("/" + fixture.tenant.apiId + "/photos/..%2F..%2Fsvc.sqlite3.jpg")->status == 404);

    // Not an image: refused by decoding, whatever the Content-Type says, naming the field.
    auto html = client.Post(fixture.tenantPath("/sets/photos"), headers, "<html>not a photo</html>", "image/jpeg");
    CHECK(html->status == 400);
    CHECK(fieldsOf(html) == std::vector<std::string>{"photo"});
    CHECK(json::parse(html->body)["error"]["message"].get<std::string>().find("not a JPEG or PNG") != std::string::npos);
    std::string truncated = jpegBytes(64, 48).substr(0, 200);
    CHECK(client.Post(fixture.tenantPath("/sets/photos"), headers, truncated, "image/jpeg")->status == 400);
    CHECK(client.Post(fixture.tenantPath("/sets/photos"), jpegBytes(8, 8), "image/jpeg")->status == 401);

    // The photo's URL is what a photo set refers to.
    CHECK(fixture.put(fixture.tenantPath("/sets/photo/mood"), {{"title", "Mood"}, {"images", {photo["url"]}}})->status == 201);
}

TEST_CASE("operator sets: a disabled tenant's photos are not served; enabled again, they are") {
    SetsFixture fixture;
    auto client = fixture.server.client();
    auto uploaded = client.Post(fixture.tenantPath("/sets/photos"), fixture.auth(), jpegBytes(32, 32), "image/jpeg");
    REQUIRE(uploaded);
    REQUIRE(uploaded->status == 201);
    std::string path = json::parse(uploaded->body)["path"];
    REQUIRE(client.Get(path)->status == 200);
    // Disabled through the operator API, as the console does: the tenant is unknown to every public endpoint.
    REQUIRE(client.Post(fixture.tenantPath("/disable"), fixture.auth(), "", "application/json")->status == 200);
    auto hidden = client.Get(path);
    REQUIRE(hidden);
    CHECK(hidden->status == 404);
    CHECK(hidden->body.find("unknown API ID") != std::string::npos);
    CHECK(client.Get("/" + fixture.tenant.apiId + "/loader.js")->status == 404);  // as the loader already was
    REQUIRE(client.Post(fixture.tenantPath("/enable"), fixture.auth(), "", "application/json")->status == 200);
    CHECK(client.Get(path)->status == 200);
}

TEST_CASE("operator sets: the catalog is searched by SKU prefix or by words of the title, one result per article") {
    SetsFixture fixture;
    struct Case {
        const char* query;
        std::vector<std::string> mainSkus;
    };
    const std::vector<Case> cases = {
        {"te", {"TEE", "TEX-1"}},          // SKU prefix, case-insensitive
        {"JEANS-M", {"JEANS"}},            // a variant's SKU
        {"linen", {"TEE", "TEX-1"}},       // a title word
        {"linen shirt", {"TEX-1"}},        // every word
        {"sneaker canvas", {"SNEAKER"}},   // in any order
        {"nothing like it", {}},
    };
    for (const auto& testCase : cases) {
        CAPTURE(testCase.query);
        httplib::Params params{{"q", testCase.query}};
        json found = fixture.getJson(fixture.tenantPath("/catalog/search?" + httplib::detail::params_to_query_str(params)));
        std::vector<std::string> mainSkus;
        for (const auto& product : found["products"]) mainSkus.push_back(product["mainSku"]);
        std::sort(mainSkus.begin(), mainSkus.end());
        CHECK(mainSkus == testCase.mainSkus);
    }
    json tee = fixture.getJson(fixture.tenantPath("/catalog/search?q=TEE-M"));
    CHECK(tee["currency"] == fixture.tenant.currency);
    CHECK(tee["products"][0]["name"] == "Linen tee white");
    CHECK(tee["products"][0]["price"] == 4000);
    CHECK(tee["products"][0]["image"] == "https://shop.example/TEE.jpg");
    CHECK(fixture.getJson(fixture.tenantPath("/catalog/search?q=TEE", true))["products"].empty());  // the other tenant's catalog
    auto empty = fixture.server.client().Get(fixture.tenantPath("/catalog/search?q=%20%20"), fixture.auth());
    CHECK(empty->status == 400);
    CHECK(fieldsOf(empty) == std::vector<std::string>{"q"});
}

TEST_CASE("operator sets: content-pool templates are written and read operator-wide, bad ones refused naming the field") {
    SetsFixture fixture;
    json casual{{"title", "Casual"}, {"departments", {"Women"}},
                {"slots", {{{"name", "top"}, {"categories", {"T-Shirts"}}}, {{"name", "bottom"}, {"categories", {"Jeans"}}}}}};
    CHECK(fixture.put("/operator/api/templates/casual", casual)->status == 201);
    CHECK(fixture.getJson("/operator/api/templates/casual")["slots"][1]["name"] == "bottom");
    size_t before = fixture.getJson("/operator/api/templates")["templates"].size();
    json bad = casual;
    bad["slots"][1]["colorFamilies"] = {"plaid"};
    auto refused = fixture.put("/operator/api/templates/bad", bad);
    CHECK(refused->status == 400);
    CHECK(fieldsOf(refused) == std::vector<std::string>{"slots[1].colorFamilies[0]"});
    CHECK(fixture.getJson("/operator/api/templates")["templates"].size() == before);
    auto client = fixture.server.client();
    CHECK(client.Delete("/operator/api/templates/casual", fixture.auth())->status == 204);
    CHECK(client.Get("/operator/api/templates/casual", fixture.auth())->status == 404);
    CHECK(client.Get("/operator/api/templates")->status == 401);
}

TEST_CASE("operator sets: a draft's preview answers the SDK's content request with the draft's products in order, unsaved") {
    SetsFixture fixture;
    auto client = fixture.server.client();
    json draft{{"title", "Draft look"}, {"skus", {"SNEAKER", "TEE-M", "JEANS"}}, {"images", {"https://cdn.example/look.jpg"}}};
    auto created = client.Post(fixture.tenantPath("/sets/previews"), fixture.auth(), draft.dump(), "application/json");
    REQUIRE(created);
    REQUIRE(created->status == 201);
    std::string url = json::parse(created->body)["url"];
    auto page = client.Get(url);
    REQUIRE(page->status == 200);
    CHECK(page->body.find("data-svc-widget-id=\"SET-Custom\"") != std::string::npos);
    CHECK(client.Get(url + "config.js")->body.find(fixture.tenant.apiId) != std::string::npos);
    auto content = client.Get(url + fixture.tenant.apiId + "/content?w=SET-Custom&t=content&s=&i=preview");
    REQUIRE(content->status == 200);
    json widget = json::parse(content->body)["widgets"][0];
    std::vector<std::string> names;
    for (const auto& entry : widget["items"]) names.push_back(entry["name"]);
    CHECK(names == std::vector<std::string>{"Canvas sneaker", "Linen tee white", "Slim jeans blue"});
    CHECK(widget["title"] == "Draft look");
    CHECK(client.Get(url + "sdk/sdk.wasm")->status == 302);
    CHECK(client.Post(url + "events", "{}", "text/plain")->status == 204);  // dropped, never counted
    CHECK(fixture.server.storage->content().customSets(fixture.tenant.id)->empty());
    CHECK(client.Get("/set-preview/" + std::string(32, '0') + "/")->status == 404);
    auto bad = client.Post(fixture.tenantPath("/sets/previews"), fixture.auth(), json{{"title", "X"}, {"skus", {"NOPE"}}}.dump(), "application/json");
    CHECK(bad->status == 400);
    CHECK(fieldsOf(bad) == std::vector<std::string>{"skus[0]"});
}

TEST_CASE("set photos: the store keeps a fresh JPEG within its limits, refusing what is not an image or too large") {
    test::TempDir dir;
    SetPhotoLimits limits;
    limits.maxBytes = 200'000;
    limits.maxPixels = 10'000;  // 100 x 100
    limits.longestSide = 40;
    SetPhotoStore store(dir.path(), limits);
    struct Case {
        const char* name;
        std::string bytes;
        std::optional<ErrorCode> refused;
        int width = 0;  // of the stored JPEG
    };
    RgbImage small;
    small.width = 30;
    small.height = 20;
    small.pixels.assign(30 * 20 * 3, 90);
    const std::vector<Case> cases = {
        {"a small JPEG, kept at its size", jpegBytes(30, 20), std::nullopt, 30},
        {"a PNG, stored as JPEG", ImageCodec::encodePng(small), std::nullopt, 30},
        {"a larger photo, scaled to the longest side", jpegBytes(80, 60), std::nullopt, 40},
        {"more pixels than allowed, refused before decoding", jpegBytes(120, 100), ErrorCode::ResourceExhausted},
        {"more bytes than allowed", std::string(200'001, 'x'), ErrorCode::ResourceExhausted},
        {"HTML named .jpg", "<!doctype html><p>hi", ErrorCode::InvalidArgument},
        {"a GIF", "GIF89a\x01\x00\x01\x00", ErrorCode::InvalidArgument},
        {"nothing", "", ErrorCode::InvalidArgument},
    };
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        auto key = store.store(7, testCase.bytes);
        if (testCase.refused) {
            REQUIRE_FALSE(key);
            CHECK(key.error().code == *testCase.refused);
            CHECK(key.error().message.rfind("photo: ", 0) == 0);  // named for the form
            continue;
        }
        REQUIRE(key);
        CHECK(SetPhotoStore::validKey(*key));
        auto stored = store.read(7, *key);
        REQUIRE(stored);
        REQUIRE(*stored);
        CHECK(ImageCodec::probe(**stored)->format == "jpeg");
        CHECK(ImageCodec::probe(**stored)->width == testCase.width);
        CHECK_FALSE(*store.read(8, *key));  // another tenant
    }
}

TEST_CASE("operator sets: by console session, every state-changing call needs the CSRF token; reads do not") {
    test::TempDir dir;
    test::ManualClock clock;
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    test::RunningServer server(dir.path(), &clock, options);
    {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator("ops@example.com", "correct horse battery"));
    }
    Tenant tenant = TenantService(server.storage->tenants()).create("Shop")->tenant;
    auto signedIn = server.client().Post("/operator/api/session", json{{"email", "ops@example.com"}, {"password", "correct horse battery"}}.dump(),
                                         "application/json");
    REQUIRE(signedIn->status == 200);
    std::string setCookie = signedIn->get_header_value("Set-Cookie");
    httplib::Headers cookieOnly{{"Cookie", setCookie.substr(0, setCookie.find(';'))}};
    const std::string base = "/operator/api/tenants/" + tenant.apiId;
    struct Case {
        std::string method, path;
    };
    const std::vector<Case> changing = {
        {"PUT", base + "/sets/custom/a"},  {"DELETE", base + "/sets/custom/a"}, {"PUT", base + "/sets/photo/a"},
        {"DELETE", base + "/sets/photo/a"}, {"POST", base + "/sets/photos"},    {"POST", base + "/sets/previews"},
        {"PUT", "/operator/api/templates/a"}, {"DELETE", "/operator/api/templates/a"},
    };
    auto client = server.client();
    for (const auto& call : changing) {
        CAPTURE(call.method + " " + call.path);
        httplib::Request request;
        request.method = call.method;
        request.path = call.path;
        request.headers = cookieOnly;
        request.body = "{}";
        request.set_header("Content-Type", "application/json");
        auto response = client.send(request);
        REQUIRE(response);
        CHECK(response->status == 403);
    }
    CHECK(client.Get(base + "/sets/custom", cookieOnly)->status == 200);
    CHECK(client.Get("/operator/api/templates", cookieOnly)->status == 200);
}
