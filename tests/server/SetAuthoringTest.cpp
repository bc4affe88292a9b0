// Authoring of custom sets, photo sets and content-pool templates over HTTP (SetRoutes)
// and what widgets and GraphQL then show: a real server, real SQLite.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                          "marke", "farbe", "abteilung"};

std::vector<std::string> item(const std::string& mainSku, const std::string& category, const std::string& colour,
                              const std::string& stock = "3") {
    return {mainSku + "-M", mainSku, stock, "Item " + mainSku, "4000", "https://shop.example/" + mainSku,
            "https://shop.example/" + mainSku + ".jpg", category, "Brand", colour, "Women"};
}

struct AuthoringFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant tenant, other;
    std::string secret, otherSecret;
    const std::string operatorKey = "operator-key-for-tests-0123456789";

    AuthoringFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
        auto second = TenantService(server.storage->tenants()).create("Other shop");
        REQUIRE(second);
        other = second->tenant;
        otherSecret = second->apiSecret;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(operatorKey)}));
        auto feed = test::feedCsv({kHeader, item("TEE", "Women > Topwear > T-Shirts", "White"),
                                   item("TEE2", "Women > Topwear > T-Shirts", "Black"),
                                   item("JEANS", "Women > Bottomwear > Jeans", "Blue"),
                                   item("JEANS2", "Women > Bottomwear > Jeans", "Blue"),
                                   item("SNEAKER", "Women > Footwear > Sneakers", "White")});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
    }
    httplib::Headers credentials(bool otherTenant = false) const {
        return otherTenant ? httplib::Headers{{"x-api-id", other.apiId}, {"x-api-secret", otherSecret}}
                           : httplib::Headers{{"x-api-id", tenant.apiId}, {"x-api-secret", secret}};
    }
    httplib::Headers operatorHeaders(const std::string& key) const { return {{"Authorization", "Bearer " + key}}; }
    json graphql(const std::string& query) {
        auto response = server.client().Post("/graphql", {{"x-api-id", tenant.apiId}}, json{{"query", query}}.dump(), "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
};

const char* kLook = R"({"title": "Summer look", "description": "Light", "tags": ["summer", "women"],
                        "images": ["https://cdn.example/look.jpg"], "skus": ["TEE-M", "JEANS"]})";

}  // namespace

TEST_CASE("custom sets over HTTP: create, replace, read, list, delete, each answered with its status") {
    AuthoringFixture fixture;
    auto client = fixture.server.client();
    auto created = client.Put("/sets/custom/look-1", fixture.credentials(), kLook, "application/json");
    REQUIRE(created);
    CHECK(created->status == 201);
    CHECK(json::parse(created->body)["id"] == "look-1");
    auto replaced = client.Put("/sets/custom/look-1", fixture.credentials(), kLook, "application/json");
    CHECK(replaced->status == 200);
    auto one = client.Get("/sets/custom/look-1", fixture.credentials());
    CHECK(one->status == 200);
    CHECK(json::parse(one->body)["skus"] == json::array({"TEE-M", "JEANS"}));
    auto list = client.Get("/sets/custom", fixture.credentials());
    CHECK(json::parse(list->body)["sets"].size() == 1);
    CHECK(client.Delete("/sets/custom/look-1", fixture.credentials())->status == 204);
    auto again = client.Delete("/sets/custom/look-1", fixture.credentials());
    CHECK(again->status == 404);
    CHECK(json::parse(again->body)["error"]["message"] == "id: no set look-1");
    CHECK(client.Get("/sets/custom/look-1", fixture.credentials())->status == 404);
}

TEST_CASE("custom sets over HTTP: bad input is refused naming the field, and nothing is stored") {
    AuthoringFixture fixture;
    struct Case {
        const char* name;
        std::string body;
        std::string contentType;
        int status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"no title", R"({"skus": ["A"]})", "application/json", 400, "title: required"},
        {"empty skus", R"({"title": "T", "skus": []})", "application/json", 400, "skus: must not be empty"},
        {"sku not a string", R"({"title": "T", "skus": ["A", 7]})", "application/json", 400, "skus[1]: must be a non-empty string"},
        {"sku twice", R"({"title": "T", "skus": ["A", "A"]})", "application/json", 400, "skus[1]: \"A\" is listed twice"},
        {"image not a URL", R"x({"title": "T", "skus": ["A"], "images": ["javascript:alert(1)"]})x", "application/json", 400,
         "images[0]: must be an http(s) URL or a path starting with /"},
        {"unknown field", R"({"title": "T", "skus": ["A"], "colour": "red"})", "application/json", 400, "colour: unknown field"},
        {"id differs from the path", R"({"id": "other", "title": "T", "skus": ["A"]})", "application/json", 400,
         "id: must equal the id in the path (look-1)"},
        {"not JSON", R"({"title": "T",)", "application/json", 400, "body: line 1, column 15: not valid JSON (syntax error while parsing object key - unexpected end of input; expected string literal)"},
        {"not an object", R"(["T"])", "application/json", 400, "body: must be a JSON object"},
        {"wrong media type", R"({"title": "T", "skus": ["A"]})", "text/csv", 400, "[svc.http.103] Content-Type: must be application/json"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            auto response = fixture.server.client().Put("/sets/custom/look-1", fixture.credentials(), c.body, c.contentType.c_str());
            REQUIRE(response);
            CHECK(response->status == c.status);
            CHECK(json::parse(response->body)["error"]["message"] == c.message);
            auto list = fixture.server.client().Get("/sets/custom", fixture.credentials());
            CHECK(json::parse(list->body)["sets"].empty());
        }
    }
}

TEST_CASE("sets over HTTP: credentials are required and tenants never see each other's sets") {
    AuthoringFixture fixture;
    auto client = fixture.server.client();
    CHECK(client.Put("/sets/custom/look-1", {}, kLook, "application/json")->status == 401);
    REQUIRE(client.Put("/sets/custom/look-1", fixture.credentials(), kLook, "application/json")->status == 201);
    CHECK(json::parse(client.Get("/sets/custom", fixture.credentials(true))->body)["sets"].empty());
    CHECK(client.Get("/sets/custom/look-1", fixture.credentials(true))->status == 404);
    CHECK(client.Delete("/sets/custom/look-1", fixture.credentials(true))->status == 404);
    CHECK(client.Get("/sets/custom/look-1", fixture.credentials())->status == 200);  // still there
    // A wrong secret is refused like a missing one.
    httplib::Headers wrong{{"x-api-id", fixture.tenant.apiId}, {"x-api-secret", fixture.otherSecret}};
    CHECK(client.Get("/sets/custom", wrong)->status == 401);
}

TEST_CASE("set import: all or nothing; a tenant cannot import templates") {
    AuthoringFixture fixture;
    auto client = fixture.server.client();
    std::string mixed = R"({"customSets": [{"id": "ok", "title": "Fine", "skus": ["TEE"]}, {"id": "bad", "skus": ["TEE"]}]})";
    auto refused = client.Post("/sets/import", fixture.credentials(), mixed, "application/json");
    CHECK(refused->status == 400);
    CHECK(json::parse(refused->body)["error"]["message"] == "customSets[1].title: required");
    CHECK(json::parse(client.Get("/sets/custom", fixture.credentials())->body)["sets"].empty());
    std::string withTemplate = R"({"templates": [{"id": "t", "slots": [{"name": "a", "categories": ["X"]}, {"name": "b", "categories": ["Y"]}]}]})";
    auto forbidden = client.Post("/sets/import", fixture.credentials(), withTemplate, "application/json");
    CHECK(forbidden->status == 403);
    std::string good = R"({"customSets": [{"id": "ok", "title": "Fine", "skus": ["TEE"]}],
                           "photoSets": [{"id": "p1", "title": "Beach", "tags": ["summer"], "images": ["https://cdn.example/p1.jpg"]}]})";
    auto imported = client.Post("/sets/import", fixture.credentials(), good, "application/json");
    CHECK(imported->status == 200);
    CHECK(json::parse(imported->body) == json{{"customSets", 1}, {"photoSets", 1}});
    CHECK(json::parse(client.Get("/sets/photo", fixture.credentials())->body)["sets"][0]["id"] == "p1");
}

TEST_CASE("content-pool templates over HTTP need an operator key") {
    AuthoringFixture fixture;
    auto client = fixture.server.client();
    const std::string body = R"({"title": "Casual", "slots": [{"name": "top", "categories": ["Topwear"]},
                                 {"name": "bottom", "categories": ["Bottomwear"]}, {"name": "shoes", "categories": ["Footwear"]}]})";
    CHECK(client.Put("/content-pool/templates/casual", {}, body, "application/json")->status == 401);
    CHECK(client.Put("/content-pool/templates/casual", fixture.operatorHeaders("not-the-key"), body, "application/json")->status == 401);
    CHECK(client.Put("/content-pool/templates/casual", fixture.credentials(), body, "application/json")->status == 401);  // a tenant is no operator
    auto bad = client.Put("/content-pool/templates/casual", fixture.operatorHeaders(fixture.operatorKey),
                          R"({"slots": [{"name": "top", "categories": ["Topwear"], "colorFamilies": ["tartan"]}, {"name": "b", "categories": ["B"]}]})",
                          "application/json");
    CHECK(bad->status == 400);
    CHECK(json::parse(bad->body)["error"]["message"] == "slots[0].colorFamilies[0]: not a colour family (black, white, grey, beige, brown, blue, ...)");
    auto created = client.Put("/content-pool/templates/casual", fixture.operatorHeaders(fixture.operatorKey), body, "application/json");
    CHECK(created->status == 201);
    auto listed = client.Get("/content-pool/templates", fixture.operatorHeaders(fixture.operatorKey));
    CHECK(json::parse(listed->body)["templates"][0]["id"] == "casual");
    CHECK(client.Delete("/content-pool/templates/casual", fixture.operatorHeaders(fixture.operatorKey))->status == 204);
    CHECK(client.Delete("/content-pool/templates/casual", fixture.operatorHeaders(fixture.operatorKey))->status == 404);
}

TEST_CASE("authored content reaches GraphQL and the widgets: custom sets, photo sets, templates") {
    AuthoringFixture fixture;
    auto client = fixture.server.client();
    CHECK(fixture.graphql(R"({ customSet(id: "look-1") { id } })")["data"]["customSet"].is_null());
    REQUIRE(client.Put("/sets/custom/look-1", fixture.credentials(), kLook, "application/json")->status == 201);
    REQUIRE(client.Put("/sets/photo/beach", fixture.credentials(),
                       R"({"title": "Beach", "tags": ["summer"], "images": ["https://cdn.example/beach.jpg"]})", "application/json")->status == 201);
    auto set = fixture.graphql(R"({ customSet(id: "look-1") { id title tags images { edges { node { url } } } products { id } } })");
    CHECK(set["data"]["customSet"] == json::parse(R"({"id": "look-1", "title": "Summer look", "tags": ["summer", "women"],
        "images": {"edges": [{"node": {"url": "https://cdn.example/look.jpg"}}]}, "products": [{"id": "TEE"}, {"id": "JEANS"}]})"));
    auto viaProduct = fixture.graphql(R"({ product(id: "JEANS-M") { customSets { edges { node { id } } } } })");
    CHECK(viaProduct["data"]["product"]["customSets"]["edges"][0]["node"]["id"] == "look-1");
    auto photos = fixture.graphql(R"({ setPhoto(input: {queryType: TAGS, value: {include: ["SUMMER"], exclude: ["winter"]}}) { edges { node { id title } } } })");
    CHECK(photos["data"]["setPhoto"]["edges"] == json::parse(R"([{"node": {"id": "beach", "title": "Beach"}}])"));
    auto excluded = fixture.graphql(R"({ setPhoto(input: {queryType: TAGS, value: {include: [], exclude: ["summer"]}}) { edges { node { id } } } })");
    CHECK(excluded["data"]["setPhoto"]["edges"].empty());

    // The SET-Custom widget by set id.
    auto content = client.Get("/" + fixture.tenant.apiId + "/content?w=SET-Custom&t=content&s=&i=look-1");
    REQUIRE(content);
    REQUIRE(content->status == 200);
    auto widget = json::parse(content->body)["widgets"][0];
    CHECK(widget["setId"] == "look-1");
    CHECK(widget["items"].size() == 2);

    // No template yet: no generated sets; with one, productSets holds them after the custom set.
    auto before = fixture.graphql(R"({ productSets(input: {queryType: SKU, value: "JEANS"}) { edges { node { id } } } })");
    CHECK(before["data"]["productSets"]["edges"] == json::parse(R"([{"node": {"id": "look-1"}}])"));
    const std::string templateBody = R"({"title": "Casual", "tags": ["casual"], "slots": [{"name": "top", "categories": ["Topwear"]},
        {"name": "bottom", "categories": ["Bottomwear"]}, {"name": "shoes", "categories": ["Footwear"]}]})";
    REQUIRE(client.Put("/content-pool/templates/casual", fixture.operatorHeaders(fixture.operatorKey), templateBody, "application/json")->status == 201);
    auto after = fixture.graphql(R"({ productSets(input: {queryType: SKU, value: "JEANS"}) { edges { node { id tags products { id } } } } })");
    const auto& edges = after["data"]["productSets"]["edges"];
    REQUIRE(edges.size() == 3);  // the custom set, then two generated sets (two T-shirts)
    CHECK(edges[1]["node"]["id"] == "JEANS#generated#1");
    CHECK(edges[1]["node"]["tags"] == json::array({"casual"}));
    CHECK(edges[1]["node"]["products"].size() == 3);  // the jeans, a T-shirt, the sneaker
    auto unknown = fixture.graphql(R"({ productSets(input: {queryType: SKU, value: "NOPE"}) { edges { node { id } } } })");
    CHECK(unknown["data"]["productSets"]["edges"] == json::array());  // v1.0.1: an empty list, never null

    // Deleted: gone from GraphQL at once.
    REQUIRE(client.Delete("/sets/custom/look-1", fixture.credentials())->status == 204);
    CHECK(fixture.graphql(R"({ customSet(id: "look-1") { id } })")["data"]["customSet"].is_null());
}
