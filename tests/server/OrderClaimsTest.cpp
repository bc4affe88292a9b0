// Issue 18, finding 2 through a real server (docs/adr/0056): anyone with the public API ID can
// claim an order id first. A later claim that differs is kept as a conflict (never dropped),
// the order is disputed and earns nothing until the shop's backend settles it with its secret
// (PUT /orders/{orderid}: its lines, one claim, or a rejection); an exact repeat stays a silent
// duplicate; purchases are rate-limited per visitor and per address.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "http/EventRoutes.hpp"

using namespace svc;
using nlohmann::json;

namespace {

using Lines = std::vector<std::tuple<std::string, int, int>>;
const Lines kReal{{"SHOE", 1, 8999}, {"SOCK", 2, 499}};
const Lines kFake{{"FAKE", 1, 100000}};

json products(const Lines& lines) {
    json list = json::array();
    for (const auto& [sku, amount, price] : lines) list.push_back({{"sku", sku}, {"amount", amount}, {"price", price}});
    return list;
}

struct ShopFixture {
    test::TempDir dir;
    test::ManualClock clock;
    std::unique_ptr<test::RunningServer> server;
    Tenant tenant;
    std::string secret;

    explicit ShopFixture(ServerOptions options = {}) {
        server = std::make_unique<test::RunningServer>(dir.path(), &clock, options);
        auto created = TenantService(server->storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
        REQUIRE(server->storage->tenants().setCommission(tenant.id, 30, "500"));  // 5 %
    }
    httplib::Headers credentials() const { return {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; }
    httplib::Result post(const json& body) {
        return server->client().Post("/events", {{"x-api-id", tenant.apiId}}, body.dump(), "application/json");
    }
    void click(const std::string& cid, const std::string& sku) {
        auto response = post({{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", sku}});
        REQUIRE(response);
        REQUIRE(response->status == 200);
    }
    json purchaseBody(const std::string& orderId, const std::string& cid, const Lines& lines) {
        return {{"customerid", "anonymous"}, {"orderid", orderId}, {"cid", cid}, {"products", products(lines)}};
    }
    json purchase(const std::string& orderId, const std::string& cid, const Lines& lines) {
        auto response = post(purchaseBody(orderId, cid, lines));
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    httplib::Result putOrder(const std::string& orderId, const json& word) {
        return server->client().Put("/orders/" + orderId, credentials(), word.dump(), "application/json");
    }
    json settle(const std::string& orderId, const json& word) {
        auto response = putOrder(orderId, word);
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    json order(const std::string& orderId) {
        auto response = server->client().Get("/orders/" + orderId, credentials());
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    json summary() {
        auto response = server->client().Get("/reports/summary", credentials());
        REQUIRE(response);
        REQUIRE_MESSAGE(response->status == 200, response->body);
        return json::parse(response->body);
    }
    // The ledger's rows as "kind order line sku commission claim_status", in booking order.
    std::vector<std::string> ledger() {
        auto response = server->client().Get("/reports/ledger", credentials());
        REQUIRE(response);
        REQUIRE(response->status == 200);
        std::istringstream text(response->body);
        std::string line;
        std::getline(text, line);
        std::vector<std::string> header = split(line);
        std::map<std::string, size_t> column;
        for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
        std::vector<std::string> rows;
        while (std::getline(text, line)) {
            auto fields = split(line);
            rows.push_back(fields[column["kind"]] + " " + fields[column["order_id"]] + " " + fields[column["line"]] + " " +
                           fields[column["sku"]] + " " + fields[column["commission_cents"]] + " " + fields[column["claim_status"]]);
        }
        return rows;
    }
    static std::vector<std::string> split(std::string line) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> fields(1);
        for (char c : line) {
            if (c == ',') fields.emplace_back();
            else fields.back() += c;
        }
        return fields;
    }
};

std::vector<std::string> statuses(const json& order) {
    std::vector<std::string> out;
    for (const auto& claim : order["claims"]) out.push_back(claim["status"]);
    return out;
}

}  // namespace

TEST_CASE("a pre-claimed order id: the real order is kept as a conflict, nothing earns until the shop confirms its lines") {
    ShopFixture shop;
    // Someone with the public API ID claims the shop's next order number, with a click of their own.
    shop.click("attacker", "FAKE");
    CHECK(shop.purchase("100046", "attacker", kFake) == json{{"accepted", 1}, {"duplicates", 0}, {"duplicate", false}});
    CHECK(shop.summary()["total"]["commission"] == 5000);  // a lone browser claim earns, provisionally

    // The real order 100046 arrives from the shopper's thank-you page.
    shop.click("shopper", "SHOE");
    json answer = shop.purchase("100046", "shopper", kReal);
    CHECK(answer["duplicate"] == false);
    CHECK(answer["conflict"] == true);
    json summary = shop.summary();
    CHECK(summary["total"]["commission"] == 0);  // disputed: the pre-claim's commission is taken back
    CHECK(summary["revenue"] == 0);
    CHECK(summary["conflicts"] == 1);
    json disputed = shop.order("100046");
    CHECK(disputed["state"] == "disputed");
    CHECK(disputed["earningClaim"] == nullptr);
    CHECK(statuses(disputed) == std::vector<std::string>{"disputed", "disputed"});
    // A return cannot come off a disputed order.
    auto early = shop.server->client().Post("/orders/100046/returns", shop.credentials(),
                                           json{{"returnId", "R-0"}, {"cancel", true}}.dump(), "application/json");
    CHECK(early->status == 400);

    // Only the shop's backend, with its secret, settles it.
    CHECK(shop.server->client().Put("/orders/100046", {{"x-api-id", shop.tenant.apiId}}, "{}", "application/json")->status == 401);
    CHECK(shop.server->client()
              .Put("/orders/100046", {{"x-api-id", shop.tenant.apiId}, {"x-api-secret", "guess"}},
                   json{{"status", "confirmed"}, {"products", products(kFake)}}.dump(), "application/json")
              ->status == 401);
    json confirmed = shop.settle("100046", {{"status", "confirmed"}, {"products", products(kReal)}});
    CHECK(confirmed["changed"] == true);
    CHECK(confirmed["state"] == "confirmed");
    CHECK(statuses(confirmed) == std::vector<std::string>{"conflict", "agrees", "confirmed"});
    CHECK(confirmed["earningClaim"] == confirmed["claims"][2]["claim"]);
    summary = shop.summary();
    CHECK(summary["total"]["commission"] == 450);  // the shopper clicked SHOE: 89.99 x 5 % = 4.4995 -> 4.50
    CHECK(summary["revenue"] == 9997);
    CHECK(summary["orders"] == 1);
    CHECK(shop.settle("100046", {{"status", "confirmed"}, {"products", products({kReal[1], kReal[0]})}})["changed"] == false);

    // Claiming again earns nothing either: the confirmed order stands.
    CHECK(shop.purchase("100046", "attacker", {{"FAKE", 2, 100000}})["conflict"] == true);
    CHECK(shop.summary()["total"]["commission"] == 450);
    // The ledger shows every claim, what it earned and why it stopped.
    CHECK(shop.ledger() == std::vector<std::string>{
                               "sale 100046 0 FAKE 5000 claimed",
                               "sale 100046 0 SHOE 0 disputed",
                               "sale 100046 1 SOCK 0 disputed",
                               "reversal 100046 0 FAKE -5000 disputed",
                               "sale 100046 0 SHOE 450 confirmed",
                               "sale 100046 1 SOCK 0 confirmed",
                               "sale 100046 0 FAKE 0 conflict",
                           });
    // Returns come off the confirmed lines.
    auto returned = shop.server->client().Post("/orders/100046/returns", shop.credentials(),
                                              json{{"returnId", "R-1"}, {"lines", {{{"sku", "SHOE"}, {"amount", 1}}}}}.dump(),
                                              "application/json");
    REQUIRE(returned);
    CHECK(returned->status == 201);
    CHECK(json::parse(returned->body)["commission"] == -450);
}

TEST_CASE("the shop rejects a fabricated order: what it earned is taken back; an exact repeat stays a silent duplicate") {
    ShopFixture shop;
    shop.click("fabricated", "FAKE");
    shop.purchase("FAKE-1", "fabricated", kFake);
    CHECK(shop.purchase("FAKE-1", "fabricated", kFake)["duplicate"] == true);  // the SDK resends: nothing new
    CHECK(shop.summary()["total"]["commission"] == 5000);
    json rejected = shop.settle("FAKE-1", {{"status", "rejected"}});
    CHECK(rejected["state"] == "rejected");
    CHECK(statuses(rejected) == std::vector<std::string>{"rejected", "rejected"});
    CHECK(rejected["claims"].size() == 2);
    json summary = shop.summary();
    CHECK(summary["total"]["commission"] == 0);
    CHECK(summary["revenue"] == 0);
    CHECK(shop.ledger().back() == "reversal FAKE-1 0 FAKE -5000 rejected");
    CHECK(shop.purchase("FAKE-1", "fabricated", {{"FAKE", 3, 100000}})["conflict"] == true);  // a rejected order earns no claim
    CHECK(shop.summary()["total"]["commission"] == 0);
}

TEST_CASE("the backend confirms first without a visitor; the thank-you page's claim brings it and earns") {
    ShopFixture shop;
    json confirmed = shop.settle("200001", {{"status", "confirmed"}, {"products", products(kReal)}});
    CHECK(confirmed["state"] == "confirmed");
    CHECK(shop.summary()["total"]["commission"] == 0);  // nobody to attribute to yet
    shop.click("shopper", "SHOE");
    json answer = shop.purchase("200001", "shopper", {kReal[1], kReal[0]});
    CHECK_FALSE(answer.contains("conflict"));
    json order = shop.order("200001");
    CHECK(statuses(order) == std::vector<std::string>{"agrees", "confirmed"});
    CHECK(order["earningClaim"] == order["claims"][1]["claim"]);
    json summary = shop.summary();
    CHECK(summary["total"]["commission"] == 450);
    CHECK(summary["revenue"] == 9997);  // counted once
    CHECK(summary["orders"] == 1);
}

TEST_CASE("the shop settles a dispute by naming the true claim; an unknown claim or order is 404") {
    ShopFixture shop;
    shop.click("attacker", "SHOE");
    shop.click("shopper", "SHOE");
    shop.purchase("300001", "attacker", kReal);  // the same lines, another visitor: still a dispute
    shop.purchase("300001", "shopper", kReal);
    json disputed = shop.order("300001");
    CHECK(disputed["state"] == "disputed");
    int64_t real = disputed["claims"][1]["claim"];
    auto unknown = shop.putOrder("300001", {{"status", "confirmed"}, {"claim", real + 1000}});
    CHECK(unknown->status == 404);
    json settled = shop.settle("300001", {{"status", "confirmed"}, {"claim", real}});
    CHECK(statuses(settled) == std::vector<std::string>{"conflict", "agrees", "confirmed"});
    CHECK(settled["claims"][2]["cid"] == "shopper");
    CHECK(settled["claims"][2]["confirmsClaim"] == real);
    CHECK(shop.summary()["total"]["commission"] == 450);
    CHECK(shop.server->client().Get("/orders/none", shop.credentials())->status == 404);
    auto bad = shop.putOrder("300001", {{"status", "confirmed"}, {"products", products({{"ANY", 1'000'000, 1'000'000'000}})}});
    CHECK(bad->status == 400);
    CHECK(json::parse(bad->body)["error"]["problems"][0]["path"] == "products[0]");
}

TEST_CASE("an order id with 20 differing claims refuses more, the whole request, with 409") {
    ShopFixture shop;
    for (int i = 0; i < 20; ++i) shop.purchase("400001", "visitor-" + std::to_string(i), {{"A", 1, 100 + i}});
    auto refused = shop.post(shop.purchaseBody("400001", "visitor-x", {{"A", 1, 999}}));
    REQUIRE(refused);
    CHECK(refused->status == 409);
    CHECK(json::parse(refused->body)["error"]["message"].get<std::string>().rfind("orderid: order '400001' already has 20 differing claims", 0) == 0);
    json batch{{"events", {{{"type", "view"}, {"cid", "v"}, {"widget", "SET"}, {"touchpoint", "product"}, {"sku", "A"}},
                           shop.purchaseBody("400001", "visitor-y", {{"A", 1, 998}})}}};
    auto refusedBatch = shop.post(batch);
    CHECK(refusedBatch->status == 409);
    CHECK(json::parse(refusedBatch->body)["error"]["message"].get<std::string>().rfind("events[1].orderid:", 0) == 0);
    CHECK(shop.summary()["total"]["impressions"] == 0);  // the batch's view was not stored either
    CHECK(shop.order("400001")["claims"].size() == 20);
    CHECK(shop.purchase("400001", "visitor-3", {{"A", 1, 103}})["duplicate"] == true);  // repeats still answer as before
}

TEST_CASE("purchases are limited per visitor and per address, with 429 and Retry-After; widget events are not") {
    ServerOptions options;
    options.events.purchasesPerAddress = {0.001, 5};  // no refill during the test
    options.events.purchasesPerVisitor = {0.001, 2};
    ShopFixture shop(options);
    std::vector<int> statuses;
    for (const char* cid : {"v", "v", "v", "w", "x", "y"}) {
        statuses.push_back(shop.post(shop.purchaseBody(std::string("O-") + cid + std::to_string(statuses.size()), cid, kReal))->status);
    }
    CHECK(statuses == std::vector<int>{200, 200, 429, 200, 200, 429});
    auto limited = shop.post(shop.purchaseBody("O-z", "z", kReal));
    CHECK(limited->status == 429);
    CHECK(limited->get_header_value("Retry-After") == "1000");
    CHECK(limited->get_header_value("Access-Control-Allow-Origin") == "*");
    CHECK(json::parse(limited->body)["error"]["message"] == "[svc.limit.302] too many purchases from this address; retry after 1000 s");
    shop.click("v", "SHOE");  // widget events go on
    // IPv6 clients are limited per /64: rotating addresses in one network gains nothing.
    CHECK(purchaseClientKey("2001:db8:1:2::1") == "2001:db8:1:2::/64");
    CHECK(purchaseClientKey("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64");
    CHECK(purchaseClientKey("::ffff:192.0.2.7") == "192.0.2.7");
    CHECK(purchaseClientKey("192.0.2.7") == "192.0.2.7");
}
