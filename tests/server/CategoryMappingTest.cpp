// A tenant's categories mapped onto the content pool's slots through the operator API
// (OperatorCategoryMappingRoutes, ADR 0075), end to end: a real server on port 0, real SQLite,
// real feed imports, the fashion pool as shipped. The mapping changes the SET answer the SDK
// gets; the preview shows it before it is saved; tenants never see each other's categories or
// mappings; every state-changing call by session needs the CSRF token.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "operator/OperatorAccounts.hpp"
#include "sets/SetJson.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                          "marke", "farbe", "abteilung"};

std::vector<std::string> item(const std::string& mainSku, const std::string& category) {
    return {mainSku + "-M", mainSku, "3", "Item " + mainSku, "4000", "https://shop.example/" + mainSku, "https://shop.example/" + mainSku + ".jpg",
            category, "Brand", "Blue", "Women"};
}

struct MappingFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;
    Tenant tenant, other;
    const std::string key = "operator-key-for-tests-0123456789";

    static ServerOptions fastPasswords() {
        ServerOptions options;
        options.console.passwordCost = PasswordCost::minimal();
        return options;
    }

    MappingFixture() : server(dir.path(), &clock, fastPasswords()) {
        std::ifstream in(std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json");
        std::stringstream text;
        text << in.rdbuf();
        auto pool = setFileFromJson(text.str());
        REQUIRE(pool);
        REQUIRE(server.storage->content().importFile(std::nullopt, *pool));
        tenant = TenantService(server.storage->tenants()).create("Shop")->tenant;
        other = TenantService(server.storage->tenants()).create("Other shop")->tenant;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(key)}));
        auto feed = test::feedCsv({kHeader, item("DENIM", "Women > Skinny Jeans"), item("DENIM2", "Women > Skinny Jeans"),
                                   item("TEE", "Women > Topwear > T-Shirts"), item("SNEAKER", "Women > Footwear > Sneakers")});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
        auto otherFeed = test::feedCsv({kHeader, item("KILT", "Women > Kilts"), item("SHOE", "Women > Footwear > Sneakers")});
        REQUIRE(test::importFeedFile(*server.storage, other, dir.path(), dir.file("other.csv", otherFeed)));
    }
    httplib::Headers auth() const { return {{"Authorization", "Bearer " + key}}; }
    std::string path(const Tenant& of, const std::string& rest = "") const { return "/operator/api/tenants/" + of.apiId + "/category-mapping" + rest; }
    httplib::Result put(const Tenant& of, const json& body) { return server.client().Put(path(of), auth(), body.dump(), "application/json"); }
    json overview(const Tenant& of) {
        auto response = server.client().Get(path(of), auth());
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
    // The SKUs the SET widget shows for the anchor, as the SDK gets them.
    std::vector<std::string> setSkus(const httplib::Result& response) {
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        std::vector<std::string> skus;
        json body = json::parse(response->body);
        for (const auto& product : body["widgets"][0]["items"]) skus.push_back(product["sku"]);
        std::sort(skus.begin(), skus.end());
        return skus;
    }
};

const std::string kSetQuery = "?w=SET&t=product&s=DENIM-M&i=";

}  // namespace

TEST_CASE("category mapping: mapping an unlisted category to a slot gives SET the template's other slots (fails without the mapping)") {
    MappingFixture fixture;
    const std::string content = "/" + fixture.tenant.apiId + "/content" + kSetQuery;
    CHECK(fixture.setSkus(fixture.server.client().Get(content)).empty());  // no template lists "Skinny Jeans"

    json overview = fixture.overview(fixture.tenant);
    json skinny;
    for (const auto& category : overview["categories"]) {
        if (category["category"] == "Skinny Jeans") skinny = category;
    }
    REQUIRE(skinny.is_object());
    CHECK(skinny["products"] == 2);
    CHECK(skinny["matchedToday"].empty());
    CHECK(skinny["slot"].is_null());
    CHECK(skinny["proposal"]["slot"] == "bottom");  // proposed, never applied on its own
    CHECK(fixture.setSkus(fixture.server.client().Get(content)).empty());
    for (const auto& category : overview["categories"]) {
        if (category["category"] == "Sneakers") CHECK(category["matchedToday"] == json{"shoes"});
    }
    CHECK(std::find(overview["slots"].begin(), overview["slots"].end(),
                    json{{"name", "bottom"}, {"templates", {"casual-men", "casual-women", "ethnic-men", "ethnic-women", "formal-women", "kids", "sports"}}}) !=
          overview["slots"].end());

    // The preview answers as if mapped; nothing is stored, the shop's answer is unchanged.
    json draft{{"entries", {{{"category", "Skinny Jeans"}, {"slot", "bottom"}}}}};
    auto preview = fixture.server.client().Post(fixture.path(fixture.tenant, "/preview") + kSetQuery, fixture.auth(), draft.dump(), "application/json");
    CHECK(fixture.setSkus(preview) == std::vector<std::string>{"SNEAKER-M", "TEE-M"});
    CHECK(fixture.setSkus(fixture.server.client().Get(content)).empty());

    auto generationOf = [&] { auto all = *fixture.server.storage->content().generations(); return all.count(fixture.tenant.id) ? all.at(fixture.tenant.id) : 0; };
    auto generationBefore = generationOf();
    auto saved = fixture.put(fixture.tenant, draft);
    REQUIRE(saved->status == 200);
    CHECK(json::parse(saved->body)["entries"] == draft["entries"]);
    CHECK(generationOf() == generationBefore + 1);  // every process rebuilds
    CHECK(fixture.setSkus(fixture.server.client().Get(content)) == std::vector<std::string>{"SNEAKER-M", "TEE-M"});

    // Cleared: today's matching again.
    REQUIRE(fixture.put(fixture.tenant, json{{"entries", json::array()}})->status == 200);
    CHECK(fixture.setSkus(fixture.server.client().Get(content)).empty());
}

TEST_CASE("category mapping: refused with the field named; tenants see only their own categories and mappings") {
    MappingFixture fixture;
    struct Case {
        json body;
        std::string message;
    };
    const std::vector<Case> cases = {
        {json{{"entries", {{{"category", "Skinny Jeans"}, {"slot", "trousers-and-more"}}}}}, "entries[0].slot: no template has a slot named \"trousers-and-more\""},
        // The other tenant's category is unknown here.
        {json{{"entries", {{{"category", "Kilts"}, {"slot", "bottom"}}}}}, "entries[0].category: the tenant's catalog has no category \"Kilts\""},
        {json{{"entries", {{{"category", "Skinny Jeans"}, {"slot", "bottom"}}, {{"category", "skinny jeans"}, {"slot", "top"}}}}},
         "entries[1].category: \"skinny jeans\" is mapped twice"},
        {json{{"mapping", json::object()}}, "mapping: unknown field (expected entries)"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body.dump());
        for (const std::string& where : {std::string(""), std::string("/preview")}) {
            auto response = where.empty() ? fixture.put(fixture.tenant, c.body)
                                          : fixture.server.client().Post(fixture.path(fixture.tenant, where) + kSetQuery, fixture.auth(), c.body.dump(),
                                                                         "application/json");
            REQUIRE(response);
            CHECK(response->status == 400);
            CHECK(json::parse(response->body)["error"]["message"] == c.message);
        }
    }
    CHECK(fixture.overview(fixture.tenant)["entries"].empty());  // nothing half-written

    REQUIRE(fixture.put(fixture.other, json{{"entries", {{{"category", "Kilts"}, {"slot", "bottom"}}}}})->status == 200);
    REQUIRE(fixture.put(fixture.tenant, json{{"entries", {{{"category", "Skinny Jeans"}, {"slot", "bottom"}}}}})->status == 200);
    json mine = fixture.overview(fixture.tenant);
    json theirs = fixture.overview(fixture.other);
    CHECK(mine["entries"] == json{{{"category", "Skinny Jeans"}, {"slot", "bottom"}}});
    CHECK(theirs["entries"] == json{{{"category", "Kilts"}, {"slot", "bottom"}}});
    for (const auto& category : mine["categories"]) CHECK(category["category"] != "Kilts");
    for (const auto& category : theirs["categories"]) CHECK(category["category"] != "Skinny Jeans");
    CHECK(mine["categoryCount"] == 3);

    // Credentials first, then the tenant: a stranger learns nothing.
    CHECK(fixture.server.client().Get(fixture.path(fixture.tenant))->status == 401);
    CHECK(fixture.server.client().Put(fixture.path(fixture.tenant), "{}", "application/json")->status == 401);
    CHECK(fixture.server.client().Get("/operator/api/tenants/nope/category-mapping", fixture.auth())->status == 404);

    // Stored as saved, across a restart of the storage (the contract of CategoryMappingStore).
    auto reopened = svc::test::TestStorage::open(fixture.dir.path(), fixture.clock);
    REQUIRE(reopened);
    CHECK(*(*reopened)->categoryMappings().categoryMapping(fixture.tenant.id) == std::vector<CategorySlotEntry>{{"Skinny Jeans", "bottom"}});
    CHECK((*reopened)->categoryMappings().categoryMapping(999)->empty());
}

TEST_CASE("category mapping: by console session, saving and previewing need the CSRF token; reading does not") {
    MappingFixture fixture;
    {
        OperatorAccounts accounts(fixture.server.storage->operators(), fixture.server.storage->rateLimits(), fixture.clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator("ops@example.com", "correct horse battery"));
    }
    auto client = fixture.server.client();
    auto signedIn = client.Post("/operator/api/session", json{{"email", "ops@example.com"}, {"password", "correct horse battery"}}.dump(), "application/json");
    REQUIRE(signedIn->status == 200);
    std::string setCookie = signedIn->get_header_value("Set-Cookie");
    httplib::Headers cookieOnly{{"Cookie", setCookie.substr(0, setCookie.find(';'))}};
    std::string body = json{{"entries", {{{"category", "Skinny Jeans"}, {"slot", "bottom"}}}}}.dump();
    CHECK(client.Put(fixture.path(fixture.tenant), cookieOnly, body, "application/json")->status == 403);
    CHECK(client.Post(fixture.path(fixture.tenant, "/preview") + kSetQuery, cookieOnly, body, "application/json")->status == 403);
    CHECK(fixture.overview(fixture.tenant)["entries"].empty());
    CHECK(client.Get(fixture.path(fixture.tenant), cookieOnly)->status == 200);

    httplib::Headers withToken = cookieOnly;
    withToken.emplace("X-CSRF-Token", json::parse(client.Get("/operator/api/me", cookieOnly)->body)["csrfToken"].get<std::string>());
    CHECK(client.Post(fixture.path(fixture.tenant, "/preview") + kSetQuery, withToken, body, "application/json")->status == 200);
    CHECK(client.Put(fixture.path(fixture.tenant), withToken, body, "application/json")->status == 200);
}
