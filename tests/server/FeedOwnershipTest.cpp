// Several feeds of one shop through the real push endpoints (issue 20, points 1-3; ADR 0070):
// a feed changes exactly the columns it carries, two names of one field are accepted with one
// warning per feed, and feeds own their products (a full feed deletes only what it owned; a
// feed without product descriptions creates nothing and records unknown SKUs).
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

using Rows = std::vector<std::vector<std::string>>;

// The full feed: base data plus content-pool and free columns (material, heel height, kategorie2, tags).
const std::vector<std::string> kFullHeader = {"sku", "main-sku", "stock", "name", "retail-price", "discount-price", "deeplink",
                                              "image", "kategorie1", "marke", "farbe", "material", "absatzhöhe", "kategorie2", "tags"};

std::vector<std::string> fullRow(const std::string& sku, const std::string& material = "Leather") {
    return {sku, sku, "4", "Pump " + sku, "8000", "6000", "https://shop.example/" + sku, "https://shop.example/" + sku + ".jpg",
            "Women > Shoes > Pumps", "Brand", "Black", material, "8 cm", "Pumps", "evening, classic"};
}

std::string fullFeed(const std::vector<std::string>& skus) {
    Rows rows{kFullHeader};
    for (const auto& sku : skus) rows.push_back(fullRow(sku));
    return test::feedCsv(rows);
}

struct ShopFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};
    Tenant tenant;
    std::string secret;

    ShopFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shoe shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
    }

    httplib::Headers credentials() const { return {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; }

    // Spec endpoints 1 and 2, then the import's history entry once it finished.
    json push(const std::string& csv, const std::string& feed, bool delta = false) {
        std::string request = json{{"identifier", "sku"}, {"format", {{"type", "csv"}, {"options", {{"delimiter", ";"}}}}},
                                   {"delta", delta}, {"feed", feed}}
                                  .dump();
        auto upload = server.client().Post("/feeds/uploads", credentials(), request, "application/json");
        REQUIRE(upload);
        REQUIRE(upload->status == 200);
        json answer = json::parse(upload->body);
        std::string url = answer["url"];
        httplib::Headers headers;
        std::string contentType;
        for (const auto& [name, value] : answer["headers"].items()) {
            if (name == "content-type") contentType = value;
            else headers.emplace(name, value.get<std::string>());
        }
        auto put = server.client().Put(url.substr(url.find("/feeds/")), headers, csv, contentType.c_str());
        REQUIRE(put);
        INFO(put->body);
        REQUIRE(put->status == 200);
        int64_t importId = json::parse(put->body)["importId"];
        for (int attempt = 0; attempt < 400; ++attempt) {
            auto record = server.client().Get("/feeds/imports/" + std::to_string(importId), credentials());
            REQUIRE(record);
            REQUIRE(record->status == 200);
            json entry = json::parse(record->body);
            if (entry["status"] != "queued" && entry["status"] != "running") return entry;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        FAIL("import " << importId << " did not finish");
        return {};
    }

    // The live product as the catalog keeps it; nullopt when it is unknown or deleted.
    std::optional<Product> product(const std::string& sku) {
        auto variants = server.storage->catalog().articleVariants(tenant.id, sku);
        REQUIRE(variants);
        for (auto& variant : *variants) {
            if (variant.sku == sku && !variant.deleted) return variant;
        }
        return std::nullopt;
    }

    json graphqlTags(const std::string& sku) {
        std::string query = json{{"query", "{ product(id: \"" + sku + "\") { id tags } }"}}.dump();
        auto response = server.client().Post("/graphql", {{"x-api-id", tenant.apiId}}, query, "application/json");
        REQUIRE(response);
        return json::parse(response->body)["data"]["product"]["tags"];
    }
};

const std::map<std::string, std::string> kFullProperties = {
    {"absatzhöhe", "8 cm"}, {"kategorie2", "Pumps"}, {"material", "Leather"}, {"tags", "evening, classic"}};

}  // namespace

TEST_CASE("feeds: a partial feed changes exactly its columns, whichever feed came first") {
    // The stock feed carries a free column of its own (ean), as a shop's stock export does.
    const std::string stockFeed = test::feedCsv({{"sku", "stock", "ean"}, {"P-1", "0", "4001"}, {"P-2", "7", "4002"}});
    struct OrderCase {
        const char* name;
        std::vector<std::string> feeds;  // pushed in this order, each a full feed
    };
    const std::vector<OrderCase> orders{{"full, then stock", {"default", "stock"}},
                                        {"stock, then full, then stock", {"stock", "default", "stock"}},
                                        {"full, stock, full again", {"default", "stock", "default"}}};
    for (const auto& order : orders) {
        CAPTURE(order.name);
        ShopFixture shop;
        bool stockSeenAfterFull = false;
        bool fullSeen = false;
        for (const auto& feed : order.feeds) {
            json record = shop.push(feed == "default" ? fullFeed({"P-1", "P-2"}) : stockFeed, feed);
            CHECK(record["status"] == "applied");
            CHECK(record["markedDeleted"] == 0);
            fullSeen = fullSeen || feed == "default";
            stockSeenAfterFull = stockSeenAfterFull || (feed == "stock" && fullSeen);
        }
        auto p1 = shop.product("P-1");
        REQUIRE(p1);
        // The full feed's columns, untouched by the stock feed whichever came last.
        CHECK(p1->name == "Pump P-1");
        CHECK(p1->brand == "Brand");
        CHECK(p1->categoryPaths == std::vector<std::string>{"Women > Shoes > Pumps"});
        auto expected = kFullProperties;
        if (stockSeenAfterFull) expected["ean"] = "4001";  // the stock feed's own column, kept by the full feed that lacks it
        CHECK(p1->properties == expected);
        CHECK(p1->stock == (order.feeds.back() == "stock" ? 0 : 4));
        CHECK(shop.graphqlTags("P-2") == json::array({"evening", "classic"}));
    }
}

TEST_CASE("feeds: a delta feed sets its columns, an empty quoted value clears one field, absent columns stay") {
    ShopFixture shop;
    REQUIRE(shop.push(fullFeed({"P-1", "P-2"}), "default")["status"] == "applied");
    // Both rows carry material and tags; P-1's tags are an empty quoted value: cleared. Its material changes.
    json delta = shop.push(test::feedCsv({{"sku", "material", "tags"}, {"P-1", "Suede", ""}, {"P-2", "Leather", "evening, classic"}}),
                           "default", /*delta=*/true);
    CHECK(delta["status"] == "applied");
    CHECK(delta["updated"] == 1);
    CHECK(delta["unchanged"] == 1);
    auto p1 = shop.product("P-1");
    REQUIRE(p1);
    CHECK(p1->properties == std::map<std::string, std::string>{{"absatzhöhe", "8 cm"}, {"kategorie2", "Pumps"}, {"material", "Suede"}});
    CHECK(p1->name == "Pump P-1");
    CHECK(p1->stock == 4);
    CHECK(shop.graphqlTags("P-1") == json::array());
    CHECK(shop.product("P-2")->properties == kFullProperties);
}

TEST_CASE("feeds: two names of one field are accepted, the base-data name sets the field, one warning per feed") {
    ShopFixture shop;
    Rows rows{{"sku", "name", "deeplink", "kategorie1", "category-path", "marke", "brand", "farbe", "color", "beschreibung",
               "description"}};
    for (const char* sku : {"A", "B", "C"}) {
        rows.push_back({sku, std::string("Boot ") + sku, "https://shop.example/" + std::string(sku), "Schuhe > Stiefel",
                        "Women > Shoes > Boots", "Marke DE", "Brand", "Schwarz", "Black", "<p>Stiefel</p>", "Boots"});
    }
    json record = shop.push(test::feedCsv(rows), "default");
    INFO(record.dump());
    CHECK(record["status"] == "applied");
    CHECK(record["inserted"] == 3);
    CHECK(record["rejected"] == 0);
    CHECK(record["warnings"] ==
          json::array({"columns 'kategorie1' and 'category-path' both name the category paths: 'category-path' sets it, 'kategorie1' "
                       "is kept as a property (the content pool reads it)",
                       "columns 'marke' and 'brand' both name the brand: 'brand' sets it, 'marke' is kept as a property (the content "
                       "pool reads it)",
                       "columns 'farbe' and 'color' both name the colour: 'color' sets it, 'farbe' is kept as a property (the content "
                       "pool reads it)",
                       "columns 'beschreibung' and 'description' both name the description: 'description' sets it, 'beschreibung' is "
                       "kept as a property (the content pool reads it)"}));
    auto a = shop.product("A");
    REQUIRE(a);
    CHECK(a->categoryPaths == std::vector<std::string>{"Women > Shoes > Boots"});
    CHECK(a->brand == "Brand");
    CHECK(a->color == "Black");
    CHECK(a->description == "Boots");
    CHECK(a->properties == std::map<std::string, std::string>{
                               {"beschreibung", "<p>Stiefel</p>"}, {"farbe", "Schwarz"}, {"kategorie1", "Schuhe > Stiefel"}, {"marke", "Marke DE"}});
    // The history list carries the warnings too: once per import, not per row.
    auto history = json::parse(shop.server.client().Get("/feeds/imports", shop.credentials())->body);
    CHECK(history["imports"][0]["warnings"].size() == 4);
}

TEST_CASE("feeds: a full feed deletes only the products it owned and no other full feed lists") {
    ShopFixture shop;
    REQUIRE(shop.push(fullFeed({"A", "B", "C", "D"}), "default")["markedDeleted"] == 0);
    // A second full feed with product descriptions, named stock, lists only A and E.
    json stock = shop.push(fullFeed({"A", "E"}), "stock");
    CHECK(stock["status"] == "applied");  // not held: it would delete nothing
    CHECK(stock["inserted"] == 1);
    CHECK(stock["markedDeleted"] == 0);
    for (const char* sku : {"A", "B", "C", "D", "E"}) CHECK_MESSAGE(shop.product(sku), sku);

    // default drops A (stock still lists it) and D (only default listed it).
    json dropped = shop.push(fullFeed({"B", "C"}), "default");
    CHECK(dropped["markedDeleted"] == 1);
    CHECK(shop.product("A"));
    CHECK_FALSE(shop.product("D"));
    // stock drops A, which now no full feed lists; E stays (stock lists it).
    CHECK(shop.push(fullFeed({"E"}), "stock")["markedDeleted"] == 1);
    CHECK_FALSE(shop.product("A"));
    CHECK(shop.product("E"));
    CHECK(shop.product("B"));
}

TEST_CASE("feeds: a stock-and-price feed creates no products and records the unknown SKUs in its history") {
    ShopFixture shop;
    REQUIRE(shop.push(fullFeed({"A", "B"}), "default")["status"] == "applied");
    const std::string stockFeed = test::feedCsv({{"sku", "stock", "discount-price"}, {"A", "0", "5000"}, {"NEW-1", "3", "100"}, {"NEW-2", "1", "100"}});
    for (bool delta : {false, true}) {
        CAPTURE(delta);
        json record = shop.push(stockFeed, "stock", delta);
        CHECK(record["status"] == "applied");
        CHECK(record["inserted"] == 0);
        CHECK(record["unknownSkus"] == 2);
        CHECK(record["describesProducts"] == false);
        CHECK(record["markedDeleted"] == 0);  // owns nothing, so a full one deletes nothing (B stays)
        CHECK(record["rejected"] == 0);
        auto detail = json::parse(shop.server.client().Get("/feeds/imports/" + record["id"].dump(), shop.credentials())->body);
        REQUIRE(detail["rowErrors"].size() == 2);
        CHECK(detail["rowErrors"][0] == json{{"line", 3}, {"column", 1}, {"kind", "unknown_sku"},
                                             {"message", "sku: 'NEW-1' is in no feed with product descriptions (a name column); not created"}});
        CHECK(detail["rowErrors"][1]["line"] == 4);
        CHECK_FALSE(shop.product("NEW-1"));
        CHECK(shop.product("A")->stock == 0);
        CHECK(shop.product("A")->discountPrice == 5000);
        CHECK(shop.product("B"));
    }
    // Once a feed with descriptions lists the SKU, the stock feed updates it.
    Rows described{kFullHeader, fullRow("A"), fullRow("B"), fullRow("NEW-1")};
    REQUIRE(shop.push(test::feedCsv(described), "default")["inserted"] == 1);
    json again = shop.push(stockFeed, "stock");
    CHECK(again["unknownSkus"] == 1);
    CHECK(shop.product("NEW-1")->stock == 3);
    // A product its full feed deleted is not brought back by the stock feed either.
    REQUIRE(shop.push(fullFeed({"A", "B"}), "default")["markedDeleted"] == 1);
    CHECK(shop.push(stockFeed, "stock")["unknownSkus"] == 2);
    CHECK_FALSE(shop.product("NEW-1"));
}
