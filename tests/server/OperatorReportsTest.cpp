// The console's Performance API (docs/adr/0047) through a real server: events arrive at
// POST /events on different days (the server's clock is moved by hand), purchases are booked
// by the real attributor, and the operator reads per-day series, totals and the ledger CSV.
// Each case fails when its part is taken out: the days kept apart, the dimension, the totals
// equal to the shop's own summary, the named range errors, tenant isolation, the CSV guard.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "core/CivilDate.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> product(const std::string& sku) {
    return {sku, sku, "M-" + sku, "5", "Item " + sku, "5000", "5000", "https://shop.example/" + sku,
            "https://shop.example/" + sku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

constexpr int64_t kDay = 86400;
// Noon of 2026-03-10 UTC: far from midnight, so "a day later" is the next report day.
constexpr int64_t kMarch10 = daysFromCivil(2026, 3, 10) * kDay + 12 * 3600;
const httplib::Headers kOperator{{"Authorization", "Bearer performance-test-key"}};

struct Shop {
    Tenant tenant;
    std::string secret;
};

struct ReportsFixture {
    test::TempDir dir;
    test::ManualClock clock;
    // The clock is set before the server starts (the comma), so every event has a known day.
    test::RunningServer server{dir.path(), (clock.now = kMarch10, &clock)};

    ReportsFixture() { REQUIRE(server.storage->operatorKeys().addOperatorKey({"perf", SecretHasher::hash("performance-test-key")})); }

    Shop shop(const std::string& name) {
        auto created = TenantService(server.storage->tenants()).create(name);
        REQUIRE(created);
        // 5% on everything, 10% on SET widgets.
        REQUIRE(server.storage->tenants().setCommission(created->tenant.id, 30, "500,SET=1000"));
        auto feed = test::feedCsv({kHeader, product("A-S"), product("B-S"), product("C-S")});
        REQUIRE(test::importFeedFile(*server.storage, created->tenant, dir.path(), dir.file(name + ".csv", feed)));
        return {created->tenant, created->apiSecret};
    }
    void event(const Shop& shop, const json& body) {
        auto response = server.client().Post("/events", {{"x-api-id", shop.tenant.apiId}}, body.dump(), "application/json");
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
    }
    void interaction(const Shop& shop, const std::string& type, const std::string& cid, const std::string& sku, const std::string& widget,
                     const std::string& touchpoint, const std::string& testGroup) {
        event(shop, {{"type", type}, {"cid", cid}, {"sku", sku}, {"widget", widget}, {"touchpoint", touchpoint},
                     {"testGroup", testGroup}, {"variant", "v1"}});
    }
    void purchase(const Shop& shop, const std::string& orderId, const std::string& cid, const std::string& sku, int amount, int price) {
        event(shop, {{"customerid", "anonymous"}, {"orderid", orderId}, {"cid", cid},
                     {"products", json::array({{{"sku", sku}, {"amount", amount}, {"price", price}}})}});
    }
    // Under consent pending or denied the SDK sends the purchase without a cid (docs/adr/0083).
    void purchaseWithoutConsent(const Shop& shop, const std::string& orderId, const std::string& sku, int amount, int price) {
        event(shop, {{"customerid", "anonymous"}, {"orderid", orderId},
                     {"products", json::array({{{"sku", sku}, {"amount", amount}, {"price", price}}})}});
    }
    // The shop's backend confirms the order with its lines (PUT /orders/{orderid}), naming a visitor or not.
    void confirm(const Shop& shop, const std::string& orderId, const std::string& sku, int amount, int price, const std::string& cid = "") {
        json word{{"status", "confirmed"}, {"products", json::array({{{"sku", sku}, {"amount", amount}, {"price", price}}})}};
        if (!cid.empty()) word["cid"] = cid;
        auto response = server.client().Put("/orders/" + orderId, {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}},
                                            word.dump(), "application/json");
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
    }
    void returnOne(const Shop& shop, const std::string& orderId, const std::string& sku) {
        auto response = server.client().Post("/orders/" + orderId + "/returns", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}},
                                             json{{"returnId", "R-" + orderId}, {"lines", {{{"sku", sku}, {"amount", 1}}}}}.dump(),
                                             "application/json");
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 201, response->body);
    }
    httplib::Result get(const std::string& path, const httplib::Headers& headers = kOperator) { return server.client().Get(path, headers); }
    json performance(const Shop& shop, const std::string& query) {
        auto response = get("/operator/api/tenants/" + shop.tenant.apiId + "/performance?" + query);
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    json summary(const Shop& shop, const std::string& query) {
        auto response = get("/reports/summary?" + query, {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}});
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }

    // Day 1: three SIMILAR views on product pages and a click (group A), a SET view in the cart
    // (group B). Day 2: the SET click and add-to-cart, then two orders, one through each widget.
    // Day 3: nothing.
    void threeDaysOfTraffic(const Shop& shop) {
        for (const char* cid : {"cid-1", "cid-2", "cid-3"}) interaction(shop, "view", cid, "A-S", "SIMILAR", "product", "A");
        interaction(shop, "click", "cid-1", "A-S", "SIMILAR", "product", "A");
        interaction(shop, "view", "cid-4", "C-S", "SET", "cart", "B");
        clock.advance(kDay);
        interaction(shop, "click", "cid-4", "C-S", "SET", "cart", "B");
        interaction(shop, "add-to-cart", "cid-4", "C-S", "SET", "cart", "B");
        purchase(shop, "O-1", "cid-4", "C-S", 1, 2000);   // SET: 10% of 20.00
        purchase(shop, "O-2", "cid-1", "A-S", 2, 5000);   // SIMILAR: 5% of 100.00
        clock.advance(kDay);
    }
};

const json kNull = nullptr;

struct SeriesCase {
    std::string by;
    std::vector<std::string> keys;  // sorted, the SET traffic's first
};

}  // namespace

TEST_CASE("Operator performance: per-day series by widget, touchpoint and test group; totals equal the shop's summary") {
    ReportsFixture fixture;
    Shop shop = fixture.shop("Shop");
    fixture.threeDaysOfTraffic(shop);
    const std::string range = "from=2026-03-10&to=2026-03-12";

    for (const auto& [by, keys] : std::vector<SeriesCase>{{"widget", {"SET", "SIMILAR"}},
                                                         {"touchpoint", {"cart", "product"}},
                                                         {"testGroup", {"B / v1", "A / v1"}}}) {
        CAPTURE(by);
        json report = fixture.performance(shop, range + "&by=" + by);
        CHECK(report["by"] == by);
        CHECK(report["currency"] == "EUR");
        CHECK(report["days"] == json::array({"2026-03-10", "2026-03-11", "2026-03-12"}));
        CHECK(report["total"] == json{{"impressions", 4}, {"clicks", 2}, {"clickRate", 0.5}, {"addToCarts", 1}, {"orders", 2},
                                      {"attributedRevenue", 12000}, {"commission", 700}});
        REQUIRE(report["series"].size() == 2);
        // Keys come sorted; the SET traffic (cart, group B) is found by its key.
        const json& set = report["series"][keys[0] < keys[1] ? 0 : 1];
        const json& similar = report["series"][keys[0] < keys[1] ? 1 : 0];
        CHECK(set["key"] == keys[0]);
        CHECK(set["impressions"] == json::array({1, 0, 0}));
        CHECK(set["clicks"] == json::array({0, 1, 0}));
        CHECK(set["clickRate"] == json::array({0.0, kNull, kNull}));
        CHECK(set["addToCarts"] == json::array({0, 1, 0}));
        CHECK(set["orders"] == json::array({0, 1, 0}));
        CHECK(set["attributedRevenue"] == json::array({0, 2000, 0}));
        CHECK(set["commission"] == json::array({0, 200, 0}));
        CHECK(similar["key"] == keys[1]);
        CHECK(similar["impressions"] == json::array({3, 0, 0}));
        CHECK(similar["clicks"] == json::array({1, 0, 0}));
        CHECK(similar["clickRate"][0].get<double>() == doctest::Approx(1.0 / 3));
        CHECK(similar["orders"] == json::array({0, 1, 0}));
        CHECK(similar["attributedRevenue"] == json::array({0, 10000, 0}));
        CHECK(similar["commission"] == json::array({0, 500, 0}));

        // The shop's own report of the same days says the same, group by group.
        json summary = fixture.summary(shop, range);
        const char* list = by == "widget" ? "byWidget" : by == "touchpoint" ? "byTouchpoint" : "byTestGroup";
        REQUIRE(summary[list].size() == 2);
        for (const auto& line : report["series"]) {
            json row;
            for (const auto& candidate : summary[list]) {
                if (candidate["key"] == line["key"]) row = candidate;
            }
            REQUIRE_MESSAGE(row.is_object(), line["key"]);
            for (const char* figure : {"impressions", "clicks", "addToCarts", "orders", "attributedRevenue", "commission"}) {
                CHECK(line["total"][figure] == row[figure]);
            }
        }
        CHECK(report["total"]["commission"] == summary["total"]["commission"]);
        CHECK(report["allOrders"] == summary["orders"]);
    }

    // The default period is the 30 days up to today; a one-day range holds one day.
    json recent = fixture.performance(shop, "");
    CHECK(recent["days"].size() == 30);
    CHECK(recent["to"] == "2026-03-12");
    CHECK(recent["total"]["orders"] == 2);
    json dayTwo = fixture.performance(shop, "from=2026-03-11&to=2026-03-11");
    CHECK(dayTwo["days"] == json::array({"2026-03-11"}));
    CHECK(dayTwo["total"]["impressions"] == 0);
    CHECK(dayTwo["total"]["clickRate"] == kNull);
    CHECK(dayTwo["total"]["orders"] == 2);
}

TEST_CASE("Operator performance: another tenant's events and orders are never counted") {
    ReportsFixture fixture;
    Shop shop = fixture.shop("Shop");
    Shop other = fixture.shop("Other");
    fixture.threeDaysOfTraffic(shop);
    fixture.clock.advance(-kDay);
    // The other shop's traffic on the same day, with the same cids, widgets and order ids.
    for (int i = 0; i < 5; ++i) fixture.interaction(other, "view", "cid-1", "B-S", "SIMILAR", "product", "A");
    fixture.interaction(other, "click", "cid-1", "B-S", "SIMILAR", "product", "A");
    fixture.purchase(other, "O-2", "cid-1", "B-S", 1, 5000);

    json mine = fixture.performance(shop, "from=2026-03-10&to=2026-03-12");
    CHECK(mine["total"]["impressions"] == 4);
    CHECK(mine["total"]["orders"] == 2);
    CHECK(mine["total"]["commission"] == 700);
    json theirs = fixture.performance(other, "from=2026-03-10&to=2026-03-12");
    CHECK(theirs["total"] == json{{"impressions", 5}, {"clicks", 1}, {"clickRate", 0.2}, {"addToCarts", 0}, {"orders", 1},
                                  {"attributedRevenue", 5000}, {"commission", 250}});
    REQUIRE(theirs["series"].size() == 1);
    CHECK(theirs["series"][0]["impressions"] == json::array({0, 5, 0}));
    // A tenant that does not exist is not found; the API needs an operator.
    auto unknown = fixture.get("/operator/api/tenants/no-such-tenant/performance");
    CHECK(unknown->status == 404);
    auto anonymous = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance", {});
    CHECK(anonymous->status == 401);
    auto withTenantSecret = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance",
                                        {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}});
    CHECK(withTenantSecret->status == 401);
}

TEST_CASE("Operator performance: every bad range or dimension is named, each by its field") {
    ReportsFixture fixture;
    Shop shop = fixture.shop("Shop");
    struct Case {
        std::string query;
        std::vector<std::pair<std::string, std::string>> errors;  // field, message after "field: "
    };
    const std::vector<Case> cases{
        {"from=2026-02-30&to=yesterday",
         {{"to", "'yesterday' is not a date YYYY-MM-DD"}, {"from", "'2026-02-30' is not a date YYYY-MM-DD"}}},
        {"from=2026-03-12&to=2026-03-10", {{"from", "must not be after to"}}},
        {"from=2025-03-09&to=2026-03-10",
         {{"from", "the range may span at most 366 days; choose a later from or an earlier to"}}},
        {"by=sku", {{"by", "'sku' is not one of widget, touchpoint, testGroup"}}},
        {"from=13-03-2026&by=day",
         {{"from", "'13-03-2026' is not a date YYYY-MM-DD"}, {"by", "'day' is not one of widget, touchpoint, testGroup"}}},
    };
    for (const auto& [query, errors] : cases) {
        CAPTURE(query);
        auto response = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance?" + query);
        REQUIRE(response);
        CHECK(response->status == 400);
        json error = json::parse(response->body)["error"];
        std::vector<std::pair<std::string, std::string>> named;
        for (const auto& item : error["fields"]) named.emplace_back(item["field"], item["message"]);
        CHECK(named == errors);
    }
    // 366 days, both ends included, is the longest range.
    json year = fixture.performance(shop, "from=2025-03-11&to=2026-03-11");
    CHECK(year["days"].size() == 366);
    auto csv = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance/ledger.csv?from=2026-03-12&to=2026-03-10");
    CHECK(csv->status == 400);
    CHECK(json::parse(csv->body)["error"]["field"] == "from");
}

TEST_CASE("Operator ledger CSV: the shop's ledger for the range, row for row, formulas defused") {
    ReportsFixture fixture;
    Shop shop = fixture.shop("Shop");
    Shop other = fixture.shop("Other");
    fixture.threeDaysOfTraffic(shop);
    fixture.purchase(shop, "=HYPERLINK(\"x\")", "cid-9", "=1+1", 1, 100);  // day 3, not through a widget
    fixture.purchase(other, "O-OTHER", "cid-1", "A-S", 1, 5000);

    auto csv = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance/ledger.csv?from=2026-03-10&to=2026-03-12");
    REQUIRE(csv);
    REQUIRE(csv->status == 200);
    CHECK(csv->get_header_value("Content-Type") == "text/csv; charset=utf-8");
    CHECK(csv->get_header_value("Content-Disposition") == "attachment; filename=\"ledger-2026-03-10-to-2026-03-12.csv\"");
    CHECK(csv->get_header_value("Cache-Control") == "no-store");
    auto shops = fixture.get("/reports/ledger?from=2026-03-10&to=2026-03-12", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}});
    REQUIRE(shops->status == 200);
    CHECK(csv->body == shops->body);
    CHECK(csv->body.rfind("kind,order_id,line,sku,", 0) == 0);
    CHECK(csv->body.find("sale,O-1,0,C-S,") != std::string::npos);
    CHECK(csv->body.find("sale,O-2,0,A-S,") != std::string::npos);
    CHECK(csv->body.find("sale,\"'=HYPERLINK(\"\"x\"\")\",0,'=1+1,") != std::string::npos);
    CHECK(csv->body.find("O-OTHER") == std::string::npos);
    // Day 2 alone has the two widget orders and not day 3's.
    auto dayTwo = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance/ledger.csv?from=2026-03-11&to=2026-03-11");
    CHECK(dayTwo->body.find("O-2") != std::string::npos);
    CHECK(dayTwo->body.find("HYPERLINK") == std::string::npos);
    auto anonymous = fixture.get("/operator/api/tenants/" + shop.tenant.apiId + "/performance/ledger.csv", {});
    CHECK(anonymous->status == 401);
}

TEST_CASE("Reports count the orders that came without consent apart, in the summary and the operator's performance") {
    ReportsFixture fixture;
    Shop shop = fixture.shop("Shop");
    // With consent: a click and the visitor's order (attributed); an order of a visitor who clicked nothing.
    fixture.interaction(shop, "click", "cid-1", "A-S", "SIMILAR", "product", "A");
    fixture.purchase(shop, "O-1", "cid-1", "A-S", 1, 5000);
    fixture.purchase(shop, "O-5", "cid-5", "A-S", 1, 5000);
    fixture.confirm(shop, "O-5", "A-S", 1, 5000);  // the shop confirms what the browser with a cid sent: with consent
    // Without consent: a browser purchase without cid, one the shop then confirms, and one only the shop reports.
    fixture.purchaseWithoutConsent(shop, "O-2", "B-S", 2, 3000);
    fixture.purchaseWithoutConsent(shop, "O-3", "C-S", 1, 2000);
    fixture.confirm(shop, "O-3", "C-S", 1, 2000);
    fixture.confirm(shop, "O-4", "A-S", 1, 1000);
    // The browser sent no cid but the shop's backend read the visitor's cookie: the order has its visitor.
    fixture.purchaseWithoutConsent(shop, "O-6", "B-S", 1, 1000);
    fixture.confirm(shop, "O-6", "B-S", 1, 1000, "cid-6");
    const std::string range = "from=2026-03-10&to=2026-03-10";
    json before = fixture.summary(shop, range);  // books the orders, so that a return can come off one
    CHECK(before["orders"] == 6);
    CHECK(before["revenue"] == 5000 + 5000 + 6000 + 2000 + 1000 + 1000);
    CHECK(before["ordersWithoutConsent"] == 3);
    CHECK(before["revenueWithoutConsent"] == 6000 + 2000 + 1000);
    fixture.returnOne(shop, "O-2", "B-S");

    json summary = fixture.summary(shop, range);
    CHECK(summary["orders"] == 6);
    CHECK(summary["revenue"] == 17000);
    CHECK(summary["ordersWithoutConsent"] == 3);
    CHECK(summary["revenueWithoutConsent"] == 6000);  // the return of one unit of O-2 comes off it
    CHECK(summary["total"]["orders"] == 1);
    CHECK(summary["total"]["attributedRevenue"] == 5000);
    json performance = fixture.performance(shop, range + "&by=widget");
    CHECK(performance["allOrders"] == 6);
    CHECK(performance["allRevenue"] == 17000);
    CHECK(performance["ordersWithoutConsent"] == 3);
    CHECK(performance["revenueWithoutConsent"] == 6000);

    // Another tenant's orders without consent under the same order ids are never counted here, nor ours there.
    Shop other = fixture.shop("Other");
    fixture.purchaseWithoutConsent(other, "O-1", "A-S", 1, 7000);
    fixture.purchase(other, "O-2", "cid-2", "B-S", 1, 7000);
    CHECK(fixture.summary(shop, range)["ordersWithoutConsent"] == 3);
    json theirs = fixture.summary(other, range);
    CHECK(theirs["orders"] == 2);
    CHECK(theirs["ordersWithoutConsent"] == 1);
    CHECK(theirs["revenueWithoutConsent"] == 7000);
}
