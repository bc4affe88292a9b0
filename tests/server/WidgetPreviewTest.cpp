// The console's widget preview, server side (docs/adr/0049): what can be previewed for a tenant
// (some products, one per article and available first; its custom sets; the product count,
// 0 without a catalog) and the preview page with the policy the real SDK needs. Real server,
// real SQLite, a real feed import.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "operator/OperatorAccounts.hpp"
#include "sets/CustomSet.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kEmail = "ops@example.com";
constexpr const char* kPassword = "correct horse battery";

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> row(const std::string& sku, const std::string& mainSku, const std::string& stock) {
    return {sku, mainSku, "M-" + mainSku, stock, "Item " + sku, "5000", "5000", "https://shop.example/" + sku,
            "https://shop.example/" + sku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

ServerOptions fastPasswords() {
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    return options;
}

struct PreviewFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;
    httplib::Headers session;

    PreviewFixture() : server(dir.path(), &clock, fastPasswords()) {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator(kEmail, kPassword));
        auto signedIn = server.client().Post("/operator/api/session", json{{"email", kEmail}, {"password", kPassword}}.dump(), "application/json");
        REQUIRE(signedIn->status == 200);
        std::string cookie = signedIn->get_header_value("Set-Cookie");
        session = {{"Cookie", cookie.substr(0, cookie.find(';'))}};
    }
    std::string createTenant(const std::string& name) {
        httplib::Headers headers = session;
        auto me = server.client().Get("/operator/api/me", session);
        headers.emplace("X-CSRF-Token", json::parse(me->body)["csrfToken"].get<std::string>());
        auto created = server.client().Post("/operator/api/tenants", headers, json{{"name", name}}.dump(), "application/json");
        REQUIRE(created->status == 201);
        return json::parse(created->body)["tenant"]["apiId"];
    }
    json subjects(const std::string& apiId) {
        auto response = server.client().Get("/operator/api/tenants/" + apiId + "/widgets/preview", session);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
};

}  // namespace

TEST_CASE("Widget preview: a tenant without a catalog has nothing to preview with; then its products and custom sets") {
    PreviewFixture fixture;
    std::string apiId = fixture.createTenant("Preview Shop");
    CHECK(fixture.server.client().Get("/operator/api/tenants/" + apiId + "/widgets/preview")->status == 401);
    CHECK(fixture.server.client().Get("/operator/api/tenants/nope/widgets/preview", fixture.session)->status == 404);
    json empty = fixture.subjects(apiId);
    CHECK(empty["productCount"] == 0);
    CHECK(empty["products"].empty());
    CHECK(empty["sets"].empty());

    // Article A has two variants (one listed), B is sold out (listed after the available ones).
    Tenant tenant = **fixture.server.storage->tenants().findByApiId(apiId);
    auto feed = test::feedCsv({kHeader, row("B-1", "B", "0"), row("A-1", "A", "3"), row("A-2", "A", "3"), row("C-1", "C", "1")});
    REQUIRE(test::importFeedFile(*fixture.server.storage, tenant, fixture.dir.path(), fixture.dir.file("feed.csv", feed)));
    CustomSet look{"look-1", "Summer look", "", {}, {"https://shop.example/look.jpg"}, {"A-1", "C-1"}};
    REQUIRE(fixture.server.storage->content().putCustomSet(tenant.id, look));

    json subjects = fixture.subjects(apiId);
    CHECK(subjects["productCount"] == 4);
    std::vector<std::string> skus;
    for (const auto& product : subjects["products"]) skus.push_back(product["sku"]);
    REQUIRE(skus.size() == 3);  // one per article
    CHECK(skus.back() == "B-1");  // the sold-out one last
    CHECK(subjects["products"][0]["name"].get<std::string>().rfind("Item ", 0) == 0);
    REQUIRE(subjects["sets"].size() == 1);
    CHECK(subjects["sets"][0] == json{{"id", "look-1"}, {"title", "Summer look"}, {"sku", "A-1"}});
}

TEST_CASE("Widget preview: the page and its script carry a strict policy that admits the SDK's WebAssembly") {
    PreviewFixture fixture;
    for (const char* path : {"/operator/preview/widget.html", "/operator/preview/widget-preview.js"}) {
        CAPTURE(path);
        auto response = fixture.server.client().Get(path);
        REQUIRE(response->status == 200);
        std::string policy = response->get_header_value("Content-Security-Policy");
        CHECK(policy.find("script-src 'self' 'wasm-unsafe-eval'") != std::string::npos);
        CHECK(policy.find("style-src 'self';") != std::string::npos);  // no inline style
        CHECK(policy.find("frame-ancestors 'self'") != std::string::npos);
        CHECK(policy.find("unsafe-inline") == std::string::npos);
    }
    auto page = fixture.server.client().Get("/operator/preview/widget.html");
    CHECK(page->body.find("widget-preview.js") != std::string::npos);
    // The console keeps its own policy: no WebAssembly there.
    auto console = fixture.server.client().Get("/console/widgets.html");
    REQUIRE(console->status == 200);
    CHECK(console->get_header_value("Content-Security-Policy").find("wasm-unsafe-eval") == std::string::npos);
    CHECK(fixture.server.client().Get("/operator/preview/other.html")->status == 404);
}
