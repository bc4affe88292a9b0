// Attribution, commission, returns and reports through a real server (docs/adr/0021):
// events arrive at POST /events, the server books every order line, and the shop reads the
// summary and the ledger with its credentials.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "sets/CustomSet.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> variant(const std::string& mainSku, const std::string& size) {
    return {mainSku + "-" + size, mainSku, "M-" + mainSku, "5", "Item " + mainSku, "5000", "5000", "https://shop.example/" + mainSku,
            "https://shop.example/" + mainSku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

struct AttributionFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};
    Tenant tenant;
    std::string secret;

    AttributionFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
        // 5% on everything, 10% on SET widgets; the default 30-day window.
        REQUIRE(server.storage->tenants().setCommission(tenant.id, 30, "500,SET=1000"));
        auto feed = test::feedCsv({kHeader, variant("A", "S"), variant("A", "M"), variant("B", "S"), variant("C", "S"), variant("D", "S")});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
        CustomSet look;
        look.id = "look-1";
        look.title = "Look";
        look.images = {"https://shop.example/look.jpg"};
        look.skus = {"C", "D-S"};
        REQUIRE(server.storage->content().putCustomSet(tenant.id, look));
    }
    void event(const json& body) {
        auto response = server.client().Post("/events", {{"x-api-id", tenant.apiId}}, body.dump(), "application/json");
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
    }
    void interaction(const std::string& type, const std::string& cid, const std::string& sku, const std::string& widget = "SIMILAR",
                     const std::string& setId = "", const std::string& testGroup = "A") {
        json body{{"type", type}, {"cid", cid}, {"widget", widget}, {"touchpoint", "product"}, {"testGroup", testGroup}, {"variant", "v1"}};
        if (!sku.empty()) body["sku"] = sku;
        if (!setId.empty()) body["setId"] = setId;
        event(body);
    }
    void purchase(const std::string& orderId, const std::string& cid, const std::vector<std::tuple<std::string, int, int>>& lines) {
        json products = json::array();
        for (const auto& [sku, amount, price] : lines) products.push_back({{"sku", sku}, {"amount", amount}, {"price", price}});
        event({{"customerid", "anonymous"}, {"orderid", orderId}, {"cid", cid}, {"products", products}});
    }
    httplib::Headers credentials() const { return {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; }
    json summary() {
        auto response = server.client().Get("/reports/summary", credentials());
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    // The ledger's sale and return rows as "kind order line sku attributed reason widget commission".
    std::vector<std::string> ledger() {
        auto response = server.client().Get("/reports/ledger", credentials());
        REQUIRE(response);
        REQUIRE(response->status == 200);
        CHECK(response->get_header_value("Content-Type") == "text/csv; charset=utf-8");
        std::vector<std::string> rows;
        std::istringstream lines(response->body);
        std::string line;
        std::getline(lines, line);  // header
        while (std::getline(lines, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            std::vector<std::string> fields(1);
            for (char c : line) {
                if (c == ',') fields.emplace_back();
                else fields.back() += c;
            }
            rows.push_back(fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3] + " " + fields[10] + " " + fields[11] + " " +
                           fields[13] + " " + fields[9]);
        }
        return rows;
    }
    httplib::Result returns(const std::string& orderId, const json& body) {
        return server.client().Post("/orders/" + orderId + "/returns", credentials(), body.dump(), "application/json");
    }
};

}  // namespace

TEST_CASE("attribution: by SKU, by main SKU, via a set; not after the window, not for another cid, not for a view") {
    AttributionFixture shop;
    shop.interaction("click", "cid-1", "A-S");                       // the same SKU
    shop.interaction("add-to-cart", "cid-1", "B", "SET", "B#generated#1");  // the widget reported the main SKU
    shop.interaction("click", "cid-1", "Q-S", "SET-Custom", "look-1");  // in a custom set holding C and D
    shop.interaction("view", "cid-1", "E-S");                       // a view earns nothing
    shop.interaction("click", "cid-2", "F-S");                      // another shopper
    shop.purchase("O-1", "cid-1", {{"A-S", 2, 1999}, {"B-S", 1, 5000}, {"C-S", 1, 3333}, {"D-S", 1, 100}, {"E-S", 1, 700}, {"F-S", 1, 800}});

    CHECK(shop.ledger() == std::vector<std::string>{
                               "sale O-1 0 A-S yes sku SIMILAR 200",       // 2 x 19.99 x 5% = 1.999 -> 2.00
                               "sale O-1 1 B-S yes main-sku SET 500",      // 50.00 x 10% (the SET rate)
                               "sale O-1 2 C-S yes set SET-Custom 167",    // 33.33 x 5% = 1.6665 -> 1.67
                               "sale O-1 3 D-S yes set SET-Custom 5",      // 1.00 x 5%
                               "sale O-1 4 E-S no   0",
                               "sale O-1 5 F-S no   0",
                           });

    // Outside the window: an interaction 31 days before the order earns nothing.
    shop.interaction("click", "cid-3", "A-M");
    shop.clock.advance(31 * 86400);
    shop.purchase("O-2", "cid-3", {{"A-M", 1, 5000}});
    // Inside it: 29 days.
    shop.interaction("click", "cid-4", "A-M");
    shop.clock.advance(29 * 86400);
    shop.purchase("O-3", "cid-4", {{"A-M", 1, 5000}});
    // An interaction after the order does not count for it.
    shop.purchase("O-4", "cid-5", {{"A-S", 1, 5000}});
    shop.interaction("click", "cid-5", "A-S");
    // The ledger's default period is the last 30 days: O-1 is older by now.
    CHECK(shop.ledger() == std::vector<std::string>{
                               "sale O-2 0 A-M no   0",
                               "sale O-3 0 A-M yes sku SIMILAR 250",
                               "sale O-4 0 A-S no   0",
                           });
}

TEST_CASE("returns reverse the commission to the cent, are idempotent by returnId, and refuse what was not kept") {
    AttributionFixture shop;
    shop.interaction("click", "cid-1", "A-S");
    shop.purchase("O-1", "cid-1", {{"A-S", 3, 3333}, {"B-S", 1, 1000}});  // 3 x 33.33 x 5% = 4.9995 -> 5.00
    auto partial = shop.returns("O-1", {{"returnId", "R-1"}, {"lines", {{{"sku", "A-S"}, {"amount", 1}}}}});
    REQUIRE(partial);
    CHECK(partial->status == 201);
    // Kept 2 of 3: 2 x 33.33 x 5% = 3.333 -> 3.33, so this return takes back 1.67.
    CHECK(json::parse(partial->body)["commission"] == -167);
    auto again = shop.returns("O-1", {{"returnId", "R-1"}, {"lines", {{{"sku", "A-S"}, {"amount", 1}}}}});
    CHECK(again->status == 200);
    CHECK(json::parse(again->body)["duplicate"] == true);

    auto tooMany = shop.returns("O-1", {{"returnId", "R-2"}, {"lines", {{{"sku", "A-S"}, {"amount", 3}}}}});
    CHECK(tooMany->status == 400);
    CHECK(json::parse(tooMany->body)["error"]["message"] == "lines[0].amount: 3 returned, but only 2 of 'A-S' are still kept");
    auto unknownSku = shop.returns("O-1", {{"returnId", "R-2"}, {"lines", {{{"sku", "Z-S"}, {"amount", 1}}}}});
    CHECK(json::parse(unknownSku->body)["error"]["message"] == "lines[0].sku: 'Z-S' is not in order 'O-1'");
    auto unknownOrder = shop.returns("O-9", {{"returnId", "R-2"}, {"cancel", true}});
    CHECK(unknownOrder->status == 404);
    auto noId = shop.returns("O-1", {{"cancel", true}});
    CHECK(noId->status == 400);
    CHECK(json::parse(noId->body)["error"]["message"].get<std::string>().rfind("returnId:", 0) == 0);
    auto wrongKey = shop.server.client().Post("/orders/O-1/returns", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", "wrong"}},
                                              json{{"returnId", "R-3"}, {"cancel", true}}.dump(), "application/json");
    CHECK(wrongKey->status == 401);

    // Cancelling the rest: the sale plus every reversal is the commission on what was kept (nothing).
    auto cancel = shop.returns("O-1", {{"returnId", "R-4"}, {"cancel", true}});
    REQUIRE(cancel->status == 201);
    CHECK(json::parse(cancel->body)["commission"] == -333);
    auto summary = shop.summary();
    CHECK(summary["total"]["commission"] == 0);
    CHECK(summary["total"]["attributedRevenue"] == 0);
    auto nothingLeft = shop.returns("O-1", {{"returnId", "R-5"}, {"cancel", true}});
    CHECK(nothingLeft->status == 400);
}

TEST_CASE("the summary counts by widget, touchpoint and test group, with conversion intervals; reports need the secret") {
    AttributionFixture shop;
    for (int i = 0; i < 4; ++i) shop.interaction("view", "cid-" + std::to_string(i), "A-S", "SIMILAR", "", i % 2 ? "B" : "A");
    shop.interaction("click", "cid-0", "A-S", "SIMILAR", "", "A");
    shop.interaction("click", "cid-1", "B-S", "SIMILAR", "", "B");
    shop.interaction("add-to-cart", "cid-1", "B-S", "SIMILAR", "", "B");
    shop.purchase("O-1", "cid-1", {{"B-S", 1, 10000}});
    shop.purchase("O-2", "cid-9", {{"C-S", 1, 2000}});  // not through a widget

    auto summary = shop.summary();
    CHECK(summary["orders"] == 2);
    CHECK(summary["revenue"] == 12000);
    CHECK(summary["total"]["impressions"] == 4);
    CHECK(summary["total"]["clicks"] == 2);
    CHECK(summary["total"]["addToCarts"] == 1);
    CHECK(summary["total"]["orders"] == 1);
    CHECK(summary["total"]["attributedRevenue"] == 10000);
    CHECK(summary["total"]["commission"] == 500);
    REQUIRE(summary["byTestGroup"].size() == 2);
    CHECK(summary["byTestGroup"][0]["key"] == "A / v1");
    CHECK(summary["byTestGroup"][0]["orders"] == 0);
    CHECK(summary["byTestGroup"][1]["key"] == "B / v1");
    CHECK(summary["byTestGroup"][1]["orders"] == 1);
    CHECK(summary["byTestGroup"][1]["conversion"]["rate"] == 1.0);
    CHECK(summary["byTestGroup"][1]["conversion"]["low"].get<double>() == doctest::Approx(0.2065).epsilon(0.001));
    CHECK(summary["byWidget"][0]["key"] == "SIMILAR");
    CHECK(summary["byTouchpoint"][0]["key"] == "product");

    auto anonymous = shop.server.client().Get("/reports/summary", {{"x-api-id", shop.tenant.apiId}});
    CHECK(anonymous->status == 401);
    auto badDate = shop.server.client().Get("/reports/summary?from=2026-02-30", shop.credentials());
    CHECK(badDate->status == 400);
    CHECK(json::parse(badDate->body)["error"]["message"] == "from: '2026-02-30' is not a date YYYY-MM-DD");
    // Another tenant's credentials see none of this shop's orders.
    auto other = TenantService(shop.server.storage->tenants()).create("Other");
    REQUIRE(other);
    auto foreign = shop.server.client().Get("/reports/summary", {{"x-api-id", other->tenant.apiId}, {"x-api-secret", other->apiSecret}});
    REQUIRE(foreign->status == 200);
    CHECK(json::parse(foreign->body)["orders"] == 0);
}

TEST_CASE("booking survives a restart: nothing is booked twice") {
    test::TempDir dir;
    test::ManualClock clock;
    Tenant tenant;
    {
        test::RunningServer server(dir.path(), &clock);
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        json order{{"customerid", "anonymous"}, {"orderid", "O-1"}, {"cid", "c"}, {"products", {{{"sku", "X"}, {"amount", 1}, {"price", 100}}}}};
        auto response = server.client().Post("/events", {{"x-api-id", tenant.apiId}}, order.dump(), "application/json");
        REQUIRE(response->status == 200);
        REQUIRE(server.services->attributor().catchUp());
    }
    test::RunningServer restarted(dir.path(), &clock);
    REQUIRE(restarted.services->attributor().catchUp());
    auto entries = restarted.storage->ledger().entries(tenant.id, 0, clock.nowSeconds() + 1);
    REQUIRE(entries);
    CHECK(entries->size() == 1);
    CHECK(restarted.storage->ledger().pendingPurchases().value() == 0);
}
