// Issue 18, finding 1 through a real server: one purchase whose price x amount x rate left 64
// bits stopped commission booking and every tenant's reports for good. Now the events endpoint
// refuses it, naming the line and the limit; a line stored before the limit existed is set
// aside (quarantined) with its reason, visible to the shop and the operator; booking runs per
// tenant, so no tenant's data or contract holds up another's; and report sums never wrap
// (docs/adr/0055).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const json kPoisoned = {{"customerid", "anonymous"},
                        {"orderid", "EVIL-1"},
                        {"cid", "evil"},
                        {"products", {{{"sku", "ANY"}, {"amount", 1'000'000}, {"price", 1'000'000'000'000}}}}};
const httplib::Headers kOperator{{"Authorization", "Bearer money-test-key"}};

struct Shop {
    Tenant tenant;
    std::string secret;
};

struct TwoShops {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};
    Shop a = shop("A"), b = shop("B");

    TwoShops() { REQUIRE(server.storage->operatorKeys().addOperatorKey({"money", SecretHasher::hash("money-test-key")})); }

    Shop shop(const std::string& name) {
        auto created = TenantService(server.storage->tenants()).create(name);
        REQUIRE(created);
        REQUIRE(server.storage->tenants().setCommission(created->tenant.id, 30, "500"));  // 5 %
        return {created->tenant, created->apiSecret};
    }
    httplib::Result post(const Shop& shop, const json& body) {
        return server.client().Post("/events", {{"x-api-id", shop.tenant.apiId}}, body.dump(), "application/json");
    }
    void click(const Shop& shop, const std::string& cid, const std::string& sku) {
        auto response = post(shop, {{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", sku}});
        REQUIRE(response);
        REQUIRE(response->status == 200);
    }
    json order(const std::string& orderId, const std::string& cid, const std::string& sku, int amount, int64_t price) {
        return {{"customerid", "anonymous"}, {"orderid", orderId}, {"cid", cid}, {"products", {{{"sku", sku}, {"amount", amount}, {"price", price}}}}};
    }
    httplib::Result summary(const Shop& shop) {
        return server.client().Get("/reports/summary", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}});
    }
    httplib::Result ledger(const Shop& shop) {
        return server.client().Get("/reports/ledger", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", shop.secret}});
    }
    httplib::Result performance(const Shop& shop) {
        return server.client().Get("/operator/api/tenants/" + shop.tenant.apiId + "/performance", kOperator);
    }
    // A purchase as it was stored before the money limits existed (the events file of an older svc).
    void storeUnchecked(const Shop& shop, const PurchaseEvent& purchase) {
        std::vector<TrackingEvent> events{purchase};
        std::vector<EventAppend> requests{{shop.tenant.id, events}};
        REQUIRE(server.storage->events().append(requests, clock.nowSeconds()));
    }
};

json body(const httplib::Result& response) {
    REQUIRE(response);
    return json::parse(response->body);
}

}  // namespace

TEST_CASE("the poisoned purchase is refused at POST /events naming the line and the limit; every tenant's reports answer") {
    TwoShops shops;
    shops.click(shops.b, "evil", "ANY");
    auto poisoned = shops.post(shops.b, kPoisoned);
    REQUIRE(poisoned);
    CHECK(poisoned->status == 400);
    CHECK(body(poisoned)["error"]["message"] == "products[0]: price x amount is 1000000000000000000 cents, above the limit of 1000000000000 cents");
    auto problems = body(poisoned)["error"]["problems"];
    REQUIRE(problems.size() == 1);
    CHECK(problems[0]["path"] == "products[0]");
    CHECK(problems[0]["rule"] == "maximum");
    CHECK(problems[0]["expected"] == "price x amount of at most 1000000000000 cents");

    shops.click(shops.a, "good", "S1");
    REQUIRE(shops.post(shops.a, shops.order("A-1", "good", "S1", 2, 1999))->status == 200);
    for (const Shop* shop : {&shops.a, &shops.b}) {
        auto summary = shops.summary(*shop);
        REQUIRE(summary);
        CHECK_MESSAGE(summary->status == 200, summary->body);
        CHECK(shops.performance(*shop)->status == 200);
        CHECK(shops.ledger(*shop)->status == 200);
    }
    CHECK(body(shops.summary(shops.a))["total"]["commission"] == 200);  // 2 x 19.99 x 5 % = 1.999 -> 2.00
    CHECK(body(shops.summary(shops.b))["orders"] == 0);
}

TEST_CASE("a poisoned line stored before the limits is quarantined with its reason; its order's other lines, other orders and tenants are booked") {
    TwoShops shops;
    shops.click(shops.b, "evil", "ANY");
    shops.click(shops.b, "evil", "OK");
    PurchaseEvent poisoned{"EVIL-1", "evil", {{"ANY", 1'000'000, 1'000'000'000'000}, {"OK", 1, 5000}}};
    shops.storeUnchecked(shops.b, poisoned);
    REQUIRE(shops.post(shops.b, shops.order("B-2", "evil", "OK", 2, 5000))->status == 200);
    shops.click(shops.a, "good", "S1");
    REQUIRE(shops.post(shops.a, shops.order("A-1", "good", "S1", 2, 1999))->status == 200);

    CHECK(shops.server.services->attributor().catchUp());
    auto a = shops.summary(shops.a);
    REQUIRE(a);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(body(a)["total"]["commission"] == 200);
    auto b = shops.summary(shops.b);
    REQUIRE(b);
    REQUIRE_MESSAGE(b->status == 200, b->body);
    json report = body(b);
    // EVIL-1's second line and B-2: 5 % of 50.00 and of 100.00.
    CHECK(report["total"]["commission"] == 750);
    CHECK(report["revenue"] == 15000);
    CHECK(report["notBooked"]["count"] == 1);
    REQUIRE(report["notBooked"]["lines"].size() == 1);
    json line = report["notBooked"]["lines"][0];
    CHECK(line["orderid"] == "EVIL-1");
    CHECK(line["line"] == 0);
    CHECK(line["sku"] == "ANY");
    CHECK(line["amount"] == 1'000'000);
    CHECK(line["price"] == 1'000'000'000'000);
    CHECK(line["reason"] ==
          "price x amount (1000000000000 x 1000000 = 1000000000000000000 cents) exceeds the largest order line svc books "
          "(1000000000000 cents)");
    // The operator sees the same on the console's Performance page.
    auto performance = shops.performance(shops.b);
    REQUIRE(performance);
    REQUIRE(performance->status == 200);
    CHECK(body(performance)["notBooked"] == report["notBooked"]);
    CHECK(body(shops.performance(shops.a))["notBooked"]["count"] == 0);
    // The ledger holds the order's good line, not the quarantined one.
    std::string csv = shops.ledger(shops.b)->body;
    CHECK(csv.find("\r\nsale,EVIL-1,1,OK,") != std::string::npos);
    CHECK(csv.find("\r\nsale,EVIL-1,0,") == std::string::npos);
    CHECK(shops.server.storage->ledger().pendingPurchases().value() == 0);
}

TEST_CASE("booking is per tenant: a tenant whose contract cannot be read holds up no other tenant's booking or reports") {
    TwoShops shops;
    shops.click(shops.b, "b-visitor", "S1");
    REQUIRE(shops.post(shops.b, shops.order("B-1", "b-visitor", "S1", 1, 1000))->status == 200);
    // A contract no svc writes (the CLI and the operator API validate rates): B cannot be booked.
    REQUIRE(shops.server.storage->tenants().setCommission(shops.b.tenant.id, 30, "garbage"));
    shops.click(shops.a, "a-visitor", "S1");
    REQUIRE(shops.post(shops.a, shops.order("A-1", "a-visitor", "S1", 1, 1000))->status == 200);

    CHECK_FALSE(shops.server.services->attributor().catchUp());  // B's failure is reported...
    auto a = shops.summary(shops.a);
    REQUIRE(a);
    REQUIRE_MESSAGE(a->status == 200, a->body);  // ...and A is booked regardless
    CHECK(body(a)["total"]["commission"] == 50);
    auto b = shops.summary(shops.b);
    REQUIRE(b);
    CHECK_MESSAGE(b->status == 200, b->body);  // what is booked, B's trouble in the log
    CHECK(body(b)["orders"] == 0);
    CHECK(shops.server.storage->ledger().pendingPurchases(shops.b.tenant.id).value() == 1);
    CHECK(shops.server.storage->ledger().pendingPurchases(shops.a.tenant.id).value() == 0);
    // Repaired, B's order is booked on the next pass.
    REQUIRE(shops.server.storage->tenants().setCommission(shops.b.tenant.id, 30, "500"));
    CHECK(body(shops.summary(shops.b))["total"]["commission"] == 50);
}

TEST_CASE("report revenue never wraps: orders of 10^18 cents are refused, what was accepted adds up exactly") {
    TwoShops shops;
    REQUIRE(shops.server.storage->tenants().setCommission(shops.b.tenant.id, 30, "0"));
    // Not attributed at 0 %: before issue 18 these were booked and ten of them wrapped the revenue negative.
    for (int i = 0; i < 10; ++i) {
        json order = kPoisoned;
        order["orderid"] = "BIG-" + std::to_string(i);
        order.erase("cid");
        CHECK(shops.post(shops.b, order)->status == 400);
    }
    REQUIRE(shops.post(shops.b, shops.order("B-1", "x", "S1", 1, 5000))->status == 200);
    auto summary = shops.summary(shops.b);
    REQUIRE(summary);
    REQUIRE(summary->status == 200);
    CHECK(body(summary)["revenue"] == 5000);
}
