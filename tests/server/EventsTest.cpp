// POST /events and /events/validate through a real server: validation, tenant
// identification, deduplication across restarts, limits, CORS, and the read interface the
// recommendation engine learns from.
#include <doctest/doctest.h>

#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "tracking/ClientRateLimiter.hpp"

using namespace svc;
using nlohmann::json;

namespace {

json purchase(const std::string& orderId, std::vector<std::tuple<std::string, int, int>> lines = {{"S1", 2, 1999}}) {
    json products = json::array();
    for (const auto& [sku, amount, price] : lines) products.push_back({{"sku", sku}, {"amount", amount}, {"price", price}});
    return {{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", orderId}, {"products", products}};
}

json widgetEvent(const std::string& type, const std::string& sku) {
    return {{"type", type}, {"cid", "cid-1"}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", sku}, {"testGroup", "A"}};
}

struct EventsFixture {
    explicit EventsFixture(ServerOptions options = {}, const std::string& dataDir = "") : dir(), path(dataDir.empty() ? dir.path() : dataDir) {
        server = std::make_unique<test::RunningServer>(path, &clock, options);
        auto created = TenantService(server->storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
    }
    httplib::Result post(const std::string& target, const std::string& body, const std::string& contentType = "application/json",
                         const std::string& apiId = "<tenant>") {
        httplib::Headers headers;
        if (apiId == "<tenant>") headers.emplace("x-api-id", tenant.apiId);
        else if (!apiId.empty()) headers.emplace("x-api-id", apiId);
        return server->client().Post(target, headers, body, contentType);
    }
    std::vector<PurchaseOrder> stored(int64_t after = 0, size_t limit = 1000) {
        auto orders = server->storage->events().purchasesSince(tenant.id, after, limit);
        REQUIRE(orders);
        return *orders;
    }

    test::TempDir dir;
    std::string path;
    test::ManualClock clock;
    std::unique_ptr<test::RunningServer> server;
    Tenant tenant;
};

std::vector<std::string> orderIds(const std::vector<PurchaseOrder>& orders) {
    std::vector<std::string> out;
    for (const auto& order : orders) out.push_back(order.orderId);
    return out;
}

}  // namespace

TEST_CASE("a purchase is stored with its lines; an exact repeat is a duplicate, other lines under its order id a conflict") {
    EventsFixture fixture;
    auto first = fixture.post("/events", purchase("A-1", {{"S1", 2, 1999}, {"S2", 1, 0}}).dump());
    REQUIRE(first);
    CHECK(first->status == 200);
    CHECK(json::parse(first->body) == json{{"accepted", 1}, {"duplicates", 0}, {"duplicate", false}});
    // An exact repeat (the SDK resends, lines in any order): a duplicate, not stored again.
    auto repeat = fixture.post("/events", purchase("A-1", {{"S2", 1, 0}, {"S1", 2, 1999}}).dump());
    CHECK(repeat->status == 200);
    CHECK(json::parse(repeat->body)["duplicate"] == true);
    // The same order id with other lines is a conflicting claim: kept (docs/adr/0056), but not
    // what the engine learns from; the first version stays the order's.
    auto other = fixture.post("/events", purchase("A-1", {{"S9", 5, 1}}).dump());
    CHECK(other->status == 200);
    CHECK(json::parse(other->body) == json{{"accepted", 1}, {"duplicates", 0}, {"conflicts", 1}, {"duplicate", false}, {"conflict", true}});

    auto orders = fixture.stored();
    REQUIRE(orders.size() == 1);
    CHECK(orders[0].orderId == "A-1");
    CHECK(orders[0].receivedAt == fixture.clock.nowSeconds());
    CHECK(orders[0].lines == std::vector<OrderLine>{{"S1", 2, 1999}, {"S2", 1, 0}});

    // Order ids are per tenant: another shop's A-1 is its own order.
    auto otherShop = TenantService(fixture.server->storage->tenants()).create("Other");
    REQUIRE(otherShop);
    auto otherFirst = fixture.post("/events", purchase("A-1").dump(), "application/json", otherShop->tenant.apiId);
    CHECK(json::parse(otherFirst->body)["duplicate"] == false);
    CHECK(fixture.stored().size() == 1);
}

TEST_CASE("deduplication survives a restart: the order id is unique in the file, not in memory") {
    test::TempDir dir;
    std::string apiId;
    {
        EventsFixture fixture({}, dir.path());
        apiId = fixture.tenant.apiId;
        CHECK(json::parse(fixture.post("/events", purchase("R-1").dump())->body)["duplicate"] == false);
    }
    EventsFixture reopened({}, dir.path());
    auto again = reopened.post("/events", purchase("R-1").dump(), "text/plain", apiId);
    REQUIRE(again);
    CHECK(again->status == 200);
    CHECK(json::parse(again->body)["duplicate"] == true);
    auto tenant = reopened.server->storage->tenants().findByApiId(apiId);
    REQUIRE(tenant);
    REQUIRE(*tenant);
    auto orders = reopened.server->storage->events().purchasesSince((*tenant)->id, 0, 10);
    REQUIRE(orders);
    CHECK(orderIds(*orders) == std::vector<std::string>{"R-1"});
}

TEST_CASE("every bad field is refused with 400 naming its JSON path, and nothing of the request is stored") {
    EventsFixture fixture;
    struct Case {
        std::string name;
        json body;
        std::string path;
        std::string rule;
    };
    auto bad = [](json body, const std::string& pointer, json value) {
        body[json::json_pointer(pointer)] = std::move(value);
        return body;
    };
    json good = purchase("B-1", {{"S1", 1, 100}, {"S2", 1, 100}, {"S3", 1, 100}});
    std::vector<Case> cases = {
        {"customerid", bad(good, "/customerid", "jane@example.com"), "customerid", "equals"},
        {"orderid", bad(good, "/orderid", 17), "orderid", "type"},
        {"sku", bad(good, "/products/2/sku", 123), "products[2].sku", "type"},
        {"amount", bad(good, "/products/2/amount", 0), "products[2].amount", "minimum"},
        {"amount fraction", bad(good, "/products/1/amount", 1.5), "products[1].amount", "type"},
        {"price", bad(good, "/products/0/price", -1), "products[0].price", "minimum"},
        {"price in euros", bad(good, "/products/0/price", 19.99), "products[0].price", "type"},
        {"unknown field", bad(good, "/coupon", "X"), "coupon", "unknown-field"},
        {"unknown type", bad(widgetEvent("click", "S1"), "/type", "hover"), "type", "enum"},
        {"widget", bad(widgetEvent("click", "S1"), "/widget", "SET-Compose"), "widget", "enum"},
        {"touchpoint", bad(widgetEvent("view", "S1"), "/touchpoint", "home"), "touchpoint", "enum"},
        {"time", bad(widgetEvent("view", "S1"), "/time", "now"), "time", "type"},
        {"in a batch", json{{"events", {widgetEvent("view", "S1"), bad(good, "/products/1/sku", nullptr)}}}, "events[1].products[1].sku",
         "required"},
    };
    for (const auto& test : cases) {
        CAPTURE(test.name);
        for (const std::string target : {"/events", "/events/validate"}) {
            CAPTURE(target);
            auto response = fixture.post(target, test.body.dump());
            REQUIRE(response);
            CHECK(response->status == 400);
            CHECK(response->get_header_value("Access-Control-Allow-Origin") == "*");
            auto error = json::parse(response->body)["error"];
            CHECK(error["code"] == "INVALID_ARGUMENT");
            REQUIRE(error["problems"].size() == 1);
            CHECK(error["problems"][0]["path"] == test.path);
            CHECK(error["problems"][0]["rule"] == test.rule);
            CHECK(error["problems"][0]["expected"].is_string());
            CHECK(error["message"].get<std::string>().rfind(test.path + ": ", 0) == 0);
        }
    }
    // A batch with one bad event stores none of its events.
    CHECK(fixture.stored().empty());
    CHECK(json::parse(fixture.post("/events", good.dump())->body)["duplicate"] == false);

    // Several problems in one body are all listed.
    json many = bad(bad(good, "/products/0/amount", 0), "/products/2/price", "1");
    auto response = fixture.post("/events", many.dump());
    auto error = json::parse(response->body)["error"];
    CHECK(error["problemCount"] == 2);
    CHECK(error["problems"][1]["path"] == "products[2].price");
    CHECK(error["message"] == "products[0].amount: is below 1 (and 1 more problem)");
    auto notJson = fixture.post("/events", "{\"orderid\": ");
    CHECK(notJson->status == 400);
    CHECK(json::parse(notJson->body)["error"]["problems"][0]["rule"] == "syntax");
}

TEST_CASE("POST /events/validate answers like /events and stores nothing") {
    EventsFixture fixture;
    json batch{{"events", {purchase("V-1"), widgetEvent("add-to-cart", "S1")}}};
    auto validated = fixture.post("/events/validate", batch.dump());
    REQUIRE(validated);
    CHECK(validated->status == 200);
    CHECK(json::parse(validated->body) == json{{"valid", true}, {"events", 2}});
    CHECK(fixture.stored().empty());
    // Nothing was stored: the order is new to /events.
    auto stored = fixture.post("/events", batch.dump());
    CHECK(json::parse(stored->body)["results"] == json::array({{{"duplicate", false}}, {{"duplicate", false}}}));
    // Validation needs a known tenant too, so an integrator tests with the real API ID.
    CHECK(fixture.post("/events/validate", batch.dump(), "application/json", "nope")->status == 401);
}

TEST_CASE("the tenant comes from x-api-id or, for sendBeacon, ?apiId=; the header wins; unknown ids get 401") {
    EventsFixture fixture;
    std::string body = purchase("T-1").dump();
    // navigator.sendBeacon(url + "?apiId=...", JSON.stringify(event)): text/plain, no custom header.
    auto beacon = fixture.post("/events?apiId=" + fixture.tenant.apiId, body, "text/plain;charset=UTF-8", "");
    REQUIRE(beacon);
    CHECK(beacon->status == 200);
    CHECK(orderIds(fixture.stored()) == std::vector<std::string>{"T-1"});
    auto untyped = fixture.post("/events?apiId=" + fixture.tenant.apiId, purchase("T-2").dump(), "", "");
    CHECK(untyped->status == 200);

    struct Case {
        std::string name;
        std::string target;
        std::string header;
    };
    std::vector<Case> refused = {
        {"no API ID", "/events", ""},
        {"unknown header", "/events", "00000000-0000-0000-0000-000000000000"},
        {"unknown query", "/events?apiId=unknown", ""},
        {"the header wins over a valid query", "/events?apiId=" + fixture.tenant.apiId, "unknown"},
    };
    for (const auto& test : refused) {
        CAPTURE(test.name);
        auto response = fixture.post(test.target, purchase("T-3").dump(), "application/json", test.header);
        REQUIRE(response);
        CHECK(response->status == 401);
        CHECK(json::parse(response->body)["error"]["code"] == "UNAUTHENTICATED");
    }
    CHECK(orderIds(fixture.stored()) == std::vector<std::string>{"T-1", "T-2"});
    auto form = fixture.post("/events", body, "application/x-www-form-urlencoded");
    CHECK(form->status == 415);
}

TEST_CASE("CORS: the preflight is answered, every answer allows any origin, no credentials") {
    EventsFixture fixture;
    for (const std::string target : {"/events", "/events/validate"}) {
        CAPTURE(target);
        httplib::Headers headers{{"Origin", "https://shop.example"}, {"Access-Control-Request-Method", "POST"},
                                 {"Access-Control-Request-Headers", "content-type, x-api-id"}};
        auto preflight = fixture.server->client().Options(target.c_str(), headers);
        REQUIRE(preflight);
        CHECK(preflight->status == 204);
        CHECK(preflight->get_header_value("Access-Control-Allow-Origin") == "*");
        CHECK(preflight->get_header_value("Access-Control-Allow-Methods").find("POST") != std::string::npos);
        std::string allowed = preflight->get_header_value("Access-Control-Allow-Headers");
        CHECK(allowed.find("content-type") != std::string::npos);
        CHECK(allowed.find("x-api-id") != std::string::npos);
        CHECK_FALSE(preflight->has_header("Access-Control-Allow-Credentials"));
    }
    auto answer = fixture.post("/events", purchase("C-1").dump());
    CHECK(answer->get_header_value("Access-Control-Allow-Origin") == "*");
    CHECK_FALSE(answer->has_header("Access-Control-Allow-Credentials"));
    auto refused = fixture.post("/events", purchase("C-2").dump(), "application/json", "unknown");
    CHECK(refused->get_header_value("Access-Control-Allow-Origin") == "*");
}

TEST_CASE("a body above the limit gets 413 and the connection stays usable") {
    EventsFixture fixture;
    json big = purchase("L-1");
    big["products"][0]["sku"] = std::string(70 * 1024, 'x');
    auto client = fixture.server->client();
    client.set_keep_alive(true);
    httplib::Headers headers{{"x-api-id", fixture.tenant.apiId}};
    auto tooLarge = client.Post("/events", headers, big.dump(), "application/json");
    REQUIRE(tooLarge);
    CHECK(tooLarge->status == 413);
    CHECK(json::parse(tooLarge->body)["error"]["code"] == "RESOURCE_EXHAUSTED");
    // Refused bodies must not be read as the next request of a keep-alive connection.
    auto unknownTenant = client.Post("/events", {{"x-api-id", "unknown"}}, purchase("L-2").dump(), "application/json");
    CHECK(unknownTenant->status == 401);
    auto next = client.Post("/events", headers, purchase("L-3").dump(), "application/json");
    REQUIRE(next);
    CHECK(next->status == 200);
    CHECK(orderIds(fixture.stored()) == std::vector<std::string>{"L-3"});
}

TEST_CASE("a flood from one address gets 429 with Retry-After before anything is read or stored") {
    ServerOptions options;
    options.events.rateLimit.burst = 3;
    options.events.rateLimit.perSecond = 0.01;  // one token per 100 s: no refill during the test
    EventsFixture fixture(options);
    std::vector<int> statuses;
    for (int i = 0; i < 5; ++i) statuses.push_back(fixture.post("/events", purchase("F-" + std::to_string(i)).dump())->status);
    CHECK(statuses == std::vector<int>{200, 200, 200, 429, 429});
    auto limited = fixture.post("/events/validate", purchase("F-9").dump());
    CHECK(limited->status == 429);
    CHECK(limited->get_header_value("Retry-After") == "100");
    CHECK(limited->get_header_value("Access-Control-Allow-Origin") == "*");
    CHECK(json::parse(limited->body)["error"]["code"] == "RESOURCE_EXHAUSTED");
    CHECK(orderIds(fixture.stored()) == std::vector<std::string>{"F-0", "F-1", "F-2"});
}

TEST_CASE("a batch stores its events in order with one result each; more than 100 events are refused") {
    EventsFixture fixture;
    json batch{{"events", {widgetEvent("view", "S1"), widgetEvent("click", "S1"), purchase("P-1"), purchase("P-1"), purchase("P-2")}}};
    auto response = fixture.post("/events", batch.dump());
    REQUIRE(response);
    CHECK(response->status == 200);
    auto body = json::parse(response->body);
    CHECK(body["accepted"] == 5);
    CHECK(body["duplicates"] == 1);
    std::vector<bool> duplicates;
    for (const auto& result : body["results"]) duplicates.push_back(result["duplicate"]);
    CHECK(duplicates == std::vector<bool>{false, false, false, true, false});
    CHECK(orderIds(fixture.stored()) == std::vector<std::string>{"P-1", "P-2"});

    json tooMany{{"events", json::array()}};
    for (int i = 0; i < 101; ++i) tooMany["events"].push_back(widgetEvent("view", "S" + std::to_string(i)));
    auto refused = fixture.post("/events", tooMany.dump());
    CHECK(refused->status == 400);
    CHECK(json::parse(refused->body)["error"]["problems"][0]["path"] == "events");
    CHECK(json::parse(refused->body)["error"]["problems"][0]["rule"] == "maxItems");
    tooMany["events"].erase(100);
    CHECK(fixture.post("/events", tooMany.dump())->status == 200);
}

TEST_CASE("concurrent requests are committed together; each is acknowledged once, nothing lost or doubled") {
    ServerOptions options;
    options.events.purchasesPerAddress.perSecond = 0;  // 200 purchases from one address: the group commit's test, not the limit's
    EventsFixture fixture(options);
    constexpr int kThreads = 8;
    constexpr int kPerThread = 25;
    std::vector<std::thread> threads;
    std::atomic<int> acknowledged{0};
    std::atomic<int> duplicates{0};
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto client = fixture.server->client();
            for (int i = 0; i < kPerThread; ++i) {
                // Every thread also sends the shared order "SAME": exactly one of them stores it.
                std::string orderId = i == 0 ? "SAME" : "O-" + std::to_string(t) + "-" + std::to_string(i);
                auto response = client.Post("/events", {{"x-api-id", fixture.tenant.apiId}}, purchase(orderId).dump(), "application/json");
                if (!response || response->status != 200) continue;
                ++acknowledged;
                if (json::parse(response->body)["duplicate"] == true) ++duplicates;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    CHECK(acknowledged == kThreads * kPerThread);
    CHECK(duplicates == kThreads - 1);
    auto orders = fixture.stored();
    std::set<std::string> unique;
    for (const auto& order : orders) unique.insert(order.orderId);
    CHECK(orders.size() == size_t{kThreads * (kPerThread - 1) + 1});
    CHECK(unique.size() == orders.size());
}

TEST_CASE("purchasesSince: one tenant's orders in arrival order, after the cursor, at most limit") {
    EventsFixture fixture;
    auto other = TenantService(fixture.server->storage->tenants()).create("Other");
    REQUIRE(other);
    for (const std::string orderId : {"Q-1", "Q-2", "Q-3", "Q-4"}) {
        REQUIRE(fixture.post("/events", purchase(orderId, {{orderId + "-a", 1, 10}, {orderId + "-b", 3, 20}}).dump())->status == 200);
        // Widget events and other tenants' orders interleave; they are not purchases of this tenant.
        REQUIRE(fixture.post("/events", widgetEvent("click", "S1").dump())->status == 200);
        REQUIRE(fixture.post("/events", purchase(orderId).dump(), "application/json", other->tenant.apiId)->status == 200);
        fixture.clock.advance(60);
    }
    auto all = fixture.stored();
    CHECK(orderIds(all) == std::vector<std::string>{"Q-1", "Q-2", "Q-3", "Q-4"});
    for (size_t i = 1; i < all.size(); ++i) {
        CHECK(all[i].sequence > all[i - 1].sequence);
        CHECK(all[i].receivedAt == all[i - 1].receivedAt + 60);
    }
    CHECK(all[2].lines == std::vector<OrderLine>{{"Q-3-a", 1, 10}, {"Q-3-b", 3, 20}});
    // Paging with the last sequence as the cursor sees every order once.
    auto page1 = fixture.stored(0, 3);
    CHECK(orderIds(page1) == std::vector<std::string>{"Q-1", "Q-2", "Q-3"});
    CHECK(page1[2].lines.size() == 2);  // the limit counts orders, not lines
    auto page2 = fixture.stored(page1.back().sequence, 3);
    CHECK(orderIds(page2) == std::vector<std::string>{"Q-4"});
    CHECK(fixture.stored(page2.back().sequence, 3).empty());
}

TEST_CASE("the rate limiter refills over time, names the wait, and forgets idle clients when its table is full") {
    RateLimit limit;
    limit.perSecond = 2;
    limit.burst = 2;
    limit.maxClients = 2;
    ClientRateLimiter limiter(limit);
    auto start = ClientRateLimiter::Clock::now();
    auto at = [&](double seconds) { return start + std::chrono::duration_cast<ClientRateLimiter::Clock::duration>(std::chrono::duration<double>(seconds)); };
    CHECK_FALSE(limiter.take("a", at(0)));
    CHECK_FALSE(limiter.take("a", at(0)));
    CHECK(limiter.take("a", at(0)) == std::optional<int>(1));  // half a second to the next token, rounded up
    CHECK_FALSE(limiter.take("a", at(0.5)));                      // refilled at 2 per second
    CHECK(limiter.take("a", at(0.5)).has_value());
    CHECK_FALSE(limiter.take("b", at(0.5)));                      // another client has its own bucket
    // The table is full (a, b); a third client gets a bucket once an idle one was forgotten.
    CHECK_FALSE(limiter.take("c", at(2)));
    CHECK_FALSE(limiter.take("c", at(2)));
    CHECK(limiter.take("c", at(2)).has_value());

    limit.perSecond = 0;  // off
    ClientRateLimiter off(limit);
    for (int i = 0; i < 100; ++i) CHECK_FALSE(off.take("a", at(0)));
}
