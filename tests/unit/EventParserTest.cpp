#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "TestSupport.hpp"
#include "tracking/EventParser.hpp"

using namespace svc;
using nlohmann::ordered_json;

namespace {

ordered_json purchase() {
    return {{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", "A-1001"},
            {"products", {{{"sku", "S1"}, {"amount", 2}, {"price", 1999}}, {{"sku", "S2"}, {"amount", 1}, {"price", 0}}}}};
}

ordered_json click() {
    return {{"type", "click"}, {"cid", "c-123"}, {"widget", "SET"}, {"touchpoint", "product"}, {"sku", "S1"}};
}

std::vector<std::string> paths(const ParsedEvents& parsed) {
    std::vector<std::string> out;
    for (const auto& problem : parsed.problems) out.push_back(problem.path);
    return out;
}

}  // namespace

TEST_CASE("a spec purchase parses into its order lines; customerid is checked, not kept") {
    auto parsed = parseEvents(purchase().dump());
    REQUIRE(parsed.ok());
    REQUIRE(parsed.events.events.size() == 1);
    CHECK_FALSE(parsed.events.batch);
    const auto& order = std::get<PurchaseEvent>(parsed.events.events[0]);
    CHECK(order.orderId == "A-1001");
    CHECK_FALSE(order.cid.has_value());
    CHECK(order.lines == std::vector<OrderLine>{{"S1", 2, 1999}, {"S2", 1, 0}});
}

TEST_CASE("svclytics('purchase', payload) sends the spec payload without a type: still a purchase") {
    auto body = purchase();
    body.erase("type");
    body["cid"] = "c-9";
    auto parsed = parseEvents(body.dump());
    REQUIRE(parsed.ok());
    const auto& order = std::get<PurchaseEvent>(parsed.events.events[0]);
    CHECK(order.cid == std::optional<std::string>("c-9"));
    CHECK(order.lines.size() == 2);
}

TEST_CASE("widget events keep every context field for attribution") {
    auto body = ordered_json{{"type", "add-to-cart"}, {"cid", "c-1"}, {"widget", "SET-Custom"}, {"touchpoint", "content"},
                             {"sku", "S7"}, {"setId", "look-3"}, {"testGroup", "B"}, {"variant", "engine-2"}, {"time", 1700000000123}};
    auto parsed = parseEvents(body.dump());
    REQUIRE(parsed.ok());
    const auto& event = std::get<WidgetEvent>(parsed.events.events[0]);
    CHECK(event.type == WidgetEventType::AddToCart);
    CHECK(event.widget == WidgetType::SetCustom);
    CHECK(event.touchpoint == Touchpoint::Content);
    CHECK(event.sku == std::optional<std::string>("S7"));
    CHECK(event.setId == std::optional<std::string>("look-3"));
    CHECK(event.testGroup == std::optional<std::string>("B"));
    CHECK(event.variant == std::optional<std::string>("engine-2"));
    CHECK(event.clientTimeMs == std::optional<int64_t>(1700000000123));

    // A view of a custom set addressed by its id needs no SKU; a click always does.
    auto view = ordered_json{{"type", "view"}, {"cid", "c-1"}, {"widget", "SET-Custom"}, {"touchpoint", "content"}, {"setId", "look-3"}};
    CHECK(parseEvents(view.dump()).ok());
    auto clickWithoutSku = click();
    clickWithoutSku.erase("sku");
    clickWithoutSku["setId"] = "look-3";
    CHECK(paths(parseEvents(clickWithoutSku.dump())) == std::vector<std::string>{"sku"});
    // Optional fields may be null (JavaScript's habit for "not set").
    auto nulls = click();
    nulls["testGroup"] = nullptr;
    nulls["time"] = nullptr;
    CHECK(parseEvents(nulls.dump()).ok());
}

TEST_CASE("a batch parses in order; each problem names its event's index") {
    ordered_json batch{{"events", {click(), purchase()}}};
    auto parsed = parseEvents(batch.dump());
    REQUIRE(parsed.ok());
    CHECK(parsed.events.batch);
    REQUIRE(parsed.events.events.size() == 2);
    CHECK(std::holds_alternative<WidgetEvent>(parsed.events.events[0]));
    CHECK(std::holds_alternative<PurchaseEvent>(parsed.events.events[1]));

    batch["events"][1]["products"][0]["amount"] = 0;
    auto bad = parseEvents(batch.dump());
    CHECK_FALSE(bad.ok());
    CHECK(bad.events.events.empty());  // all or nothing
    CHECK(paths(bad) == std::vector<std::string>{"events[1].products[0].amount"});
}

TEST_CASE("every bad field is refused with its path, rule and expectation") {
    struct Case {
        std::string name;
        std::string body;
        std::string path;
        std::string rule;
    };
    auto with = [](ordered_json body, const ordered_json::json_pointer& pointer, ordered_json value) {
        body[pointer] = std::move(value);
        return body.dump();
    };
    auto without = [](ordered_json body, const std::string& key) {
        body.erase(key);
        return body.dump();
    };
    using P = ordered_json::json_pointer;
    std::vector<Case> cases = {
        {"empty body", "", "$", "required"},
        {"not JSON", "{\"type\": purchase}", "$", "syntax"},
        {"truncated JSON", purchase().dump().substr(0, 30), "$", "syntax"},
        {"not an object", "[1,2]", "$", "type"},
        {"no type, no order", R"({"cid":"c"})", "type", "required"},
        {"unknown type", with(click(), P("/type"), "hover"), "type", "enum"},
        {"type not a string", with(click(), P("/type"), 3), "type", "type"},
        {"unknown field", with(purchase(), P("/coupon"), "X"), "coupon", "unknown-field"},
        {"unknown field of a line", with(purchase(), P("/products/1/total"), 5), "products[1].total", "unknown-field"},
        {"odd key is quoted, not a forged path", with(purchase(), P("/a.b"), 1), "$[\"a.b\"]", "unknown-field"},
        {"customerid missing", without(purchase(), "customerid"), "customerid", "required"},
        {"customerid personal", with(purchase(), P("/customerid"), "jane@example.com"), "customerid", "equals"},
        {"orderid missing", without(purchase(), "orderid"), "orderid", "required"},
        {"orderid a number", with(purchase(), P("/orderid"), 1001), "orderid", "type"},
        {"orderid empty", with(purchase(), P("/orderid"), ""), "orderid", "minLength"},
        {"orderid too long", with(purchase(), P("/orderid"), std::string(201, 'x')), "orderid", "maxLength"},
        {"orderid with a newline", with(purchase(), P("/orderid"), "A\n1"), "orderid", "pattern"},
        {"products missing", without(purchase(), "products"), "products", "required"},
        {"products an object", with(purchase(), P("/products"), ordered_json::object()), "products", "type"},
        {"products empty", with(purchase(), P("/products"), ordered_json::array()), "products", "minItems"},
        {"line not an object", with(purchase(), P("/products/1"), "S2"), "products[1]", "type"},
        {"sku a number", with(purchase(), P("/products/0/sku"), 12345), "products[0].sku", "type"},
        {"sku missing", R"({"customerid":"anonymous","orderid":"o","products":[{"amount":1,"price":1}]})", "products[0].sku", "required"},
        {"amount zero", with(purchase(), P("/products/1/amount"), 0), "products[1].amount", "minimum"},
        {"amount negative", with(purchase(), P("/products/1/amount"), -2), "products[1].amount", "minimum"},
        {"amount a fraction", with(purchase(), P("/products/0/amount"), 1.5), "products[0].amount", "type"},
        {"amount a string", with(purchase(), P("/products/0/amount"), "2"), "products[0].amount", "type"},
        {"amount huge", with(purchase(), P("/products/0/amount"), 1'000'001), "products[0].amount", "maximum"},
        {"price in euros", with(purchase(), P("/products/0/price"), 19.99), "products[0].price", "type"},
        {"price negative", with(purchase(), P("/products/0/price"), -1), "products[0].price", "minimum"},
        {"price beyond int64", R"({"customerid":"anonymous","orderid":"o","products":[{"sku":"s","amount":1,"price":18446744073709551615}]})",
         "products[0].price", "maximum"},
        {"price missing", R"({"customerid":"anonymous","orderid":"o","products":[{"sku":"s","amount":1}]})", "products[0].price", "required"},
        {"cid empty on a purchase", with(purchase(), P("/cid"), ""), "cid", "minLength"},
        {"duplicate key", R"({"customerid":"anonymous","orderid":"a","orderid":"b","products":[{"sku":"s","amount":1,"price":1}]})",
         "orderid", "duplicate-key"},
        {"duplicate key in a line", R"({"customerid":"anonymous","orderid":"a","products":[{"sku":"s","amount":1,"price":1,"sku":"t"}]})",
         "products[0].sku", "duplicate-key"},
        {"cid missing", without(click(), "cid"), "cid", "required"},
        {"widget unknown", with(click(), P("/widget"), "CAROUSEL"), "widget", "enum"},
        {"demo widget", with(click(), P("/widget"), "SET-Compose"), "widget", "enum"},
        {"touchpoint unknown", with(click(), P("/touchpoint"), "home"), "touchpoint", "enum"},
        {"touchpoint missing", without(click(), "touchpoint"), "touchpoint", "required"},
        {"sku missing on a click", without(click(), "sku"), "sku", "required"},
        {"time negative", with(click(), P("/time"), -5), "time", "minimum"},
        {"time in seconds as a fraction", with(click(), P("/time"), 1.7e9), "time", "type"},
        {"testGroup a number", with(click(), P("/testGroup"), 2), "testGroup", "type"},
        {"purchase field on a widget event", with(click(), P("/orderid"), "A"), "orderid", "unknown-field"},
        {"events not an array", R"({"events":{}})", "events", "type"},
        {"events empty", R"({"events":[]})", "events", "minItems"},
        {"batch with other fields", R"({"events":[{"type":"view","cid":"c","widget":"SET","touchpoint":"cart","sku":"s"}],"x":1})", "x",
         "unknown-field"},
        {"event in a batch not an object", R"({"events":[7]})", "events[0]", "type"},
    };
    for (const auto& test : cases) {
        CAPTURE(test.name);
        CAPTURE(test.body);
        auto parsed = parseEvents(test.body);
        CHECK_FALSE(parsed.ok());
        CHECK(parsed.events.events.empty());
        REQUIRE(parsed.problems.size() == 1);
        CHECK(parsed.problems[0].path == test.path);
        CHECK(parsed.problems[0].rule == test.rule);
        CHECK_FALSE(parsed.problems[0].expected.empty());
        CHECK(parsed.problems[0].message.rfind(test.path + ": ", 0) == 0);
    }
}

TEST_CASE("all problems of a body are listed at once and counted past the list") {
    ordered_json body = purchase();
    body["customerid"] = 1;
    body["products"][0]["amount"] = 0;
    body["products"][1]["price"] = "free";
    body["extra"] = true;
    auto parsed = parseEvents(body.dump());
    CHECK(paths(parsed) == std::vector<std::string>{"extra", "customerid", "products[0].amount", "products[1].price"});
    CHECK(parsed.problemCount == 4);
    auto error = eventProblemsError(parsed);
    CHECK(error.code == ErrorCode::InvalidArgument);
    CHECK(error.message == "extra: unknown field (and 3 more problems)");

    // A body with more problems than the answer lists: the count says how many there were.
    EventLimits limits;
    limits.maxProblems = 5;
    ordered_json many = purchase();
    many["products"] = ordered_json::array();
    for (int i = 0; i < 40; ++i) many["products"].push_back({{"sku", i}, {"amount", 1}, {"price", 1}});
    auto capped = parseEvents(many.dump(), limits);
    CHECK(capped.problems.size() == 5);
    CHECK(capped.problemCount == 40);
    CHECK(capped.problems[4].path == "products[4].sku");
}

TEST_CASE("limits: batch size, order lines and nesting depth are bounded") {
    EventLimits limits;
    limits.maxBatchEvents = 3;
    limits.maxOrderLines = 2;
    ordered_json batch{{"events", ordered_json::array()}};
    for (int i = 0; i < 4; ++i) batch["events"].push_back(click());
    auto tooMany = parseEvents(batch.dump(), limits);
    REQUIRE(tooMany.problems.size() == 1);
    CHECK(tooMany.problems[0].path == "events");
    CHECK(tooMany.problems[0].rule == "maxItems");
    batch["events"].erase(3);
    CHECK(parseEvents(batch.dump(), limits).ok());

    ordered_json lines = purchase();
    lines["products"].push_back({{"sku", "S3"}, {"amount", 1}, {"price", 1}});
    auto tooLong = parseEvents(lines.dump(), limits);
    REQUIRE(tooLong.problems.size() == 1);
    CHECK(tooLong.problems[0].rule == "maxItems");

    std::string deep = R"({"customerid":"anonymous","orderid":"o","products":[{"sku":)" + std::string(40, '[') + std::string(40, ']') + "}]}";
    auto nested = parseEvents(deep);
    REQUIRE(nested.problems.size() == 1);
    CHECK(nested.problems[0].rule == "depth");
    CHECK(nested.problems[0].path.rfind("products[0].sku", 0) == 0);
}

TEST_CASE("messages quote outside text safely: control characters escaped, long values cut") {
    ordered_json body = click();
    body["type"] = std::string("x\"\x01") + std::string(100, 'y');
    auto parsed = parseEvents(body.dump());
    REQUIRE(parsed.problems.size() == 1);
    const std::string& message = parsed.problems[0].message;
    CHECK(message.find("\\u0001") != std::string::npos);
    CHECK(message.find("\\\"") != std::string::npos);
    CHECK(message.find(std::string(100, 'y')) == std::string::npos);
    CHECK(message.find("...") != std::string::npos);
}

TEST_CASE("money limits: a line's price x amount and an order's total stay within what svc books, its commission at 100 % too") {
    struct Case {
        std::string name;
        std::string products;  // the purchase's products array
        std::vector<std::string> paths;  // the problems' paths; none: accepted
    };
    const std::vector<Case> cases{
        // Issue 18: each field within its own limit, their product 10^18 overflowed price x amount x basis points.
        {"the poisoned line", R"([{"sku":"ANY","amount":1000000,"price":1000000000000}])", {"products[0]"}},
        {"a line at the limit", R"([{"sku":"A","amount":1,"price":1000000000000}])", {}},
        {"a line just above it", R"([{"sku":"A","amount":2,"price":500000000001}])", {"products[0]"}},
        {"many units at a modest price", R"([{"sku":"A","amount":1000000,"price":1000000}])", {}},
        {"two lines each fine, the order not", R"([{"sku":"A","amount":1,"price":600000000000},{"sku":"B","amount":1,"price":400000000001}])",
         {"products"}},
        {"a bad line is named once, the total not again",
         R"([{"sku":"A","amount":1000000,"price":1000000000000},{"sku":"B","amount":1,"price":1}])", {"products[0]"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        std::string body = R"({"customerid":"anonymous","orderid":"EVIL-1","products":)" + c.products + "}";
        auto parsed = parseEvents(body);
        CHECK(paths(parsed) == c.paths);
        for (const auto& problem : parsed.problems) {
            CHECK(problem.rule == "maximum");
            // The limit is named, so the integrator knows what passes.
            CHECK(problem.expected.find("1000000000000 cents") != std::string::npos);
        }
    }
    auto poisoned = parseEvents(R"({"events":[{"type":"view","cid":"c","widget":"SET","touchpoint":"product","sku":"S"},)"
                                R"({"customerid":"anonymous","orderid":"EVIL-1","products":[{"sku":"ANY","amount":1000000,"price":1000000000000}]}]})");
    REQUIRE(poisoned.problems.size() == 1);
    CHECK(poisoned.problems[0].message == "events[1].products[0]: price x amount is 1000000000000000000 cents, above the limit of 1000000000000 cents");
    CHECK(poisoned.problems[0].expected == "price x amount of at most 1000000000000 cents");
    CHECK(poisoned.events.events.empty());
}

TEST_CASE("the shop's word on an order (PUT /orders/{orderid}): confirmed by lines or by claim, or rejected; strictly") {
    auto confirmed = parseOrderConfirmation(R"({"status":"confirmed","products":[{"sku":"S1","amount":2,"price":1999}],"cid":"c-1"})");
    REQUIRE(confirmed.ok());
    CHECK(confirmed.confirmation ==
          OrderConfirmation{ClaimSource::ShopConfirmed, {{"S1", 2, 1999}}, std::optional<std::string>("c-1"), std::nullopt});
    auto byClaim = parseOrderConfirmation(R"({"status":"confirmed","claim":42})");
    REQUIRE(byClaim.ok());
    CHECK(byClaim.confirmation.claim == 42);
    auto rejected = parseOrderConfirmation(R"({"status":"rejected"})");
    REQUIRE(rejected.ok());
    CHECK(rejected.confirmation.source == ClaimSource::ShopRejected);

    struct Case {
        std::string body;
        std::vector<std::string> paths;
    };
    const std::vector<Case> cases{
        {R"({})", {"status"}},
        {R"({"status":"paid","products":[]})", {"status"}},
        {R"({"status":"confirmed"})", {"products"}},
        {R"({"status":"confirmed","claim":1,"products":[{"sku":"S","amount":1,"price":1}]})", {"products"}},
        {R"({"status":"confirmed","claim":1,"cid":"c"})", {"cid"}},
        {R"({"status":"confirmed","claim":0})", {"claim"}},
        {R"({"status":"rejected","products":[{"sku":"S","amount":1,"price":1}]})", {"products"}},
        {R"({"status":"confirmed","products":[{"sku":"ANY","amount":1000000,"price":1000000000000}]})", {"products[0]"}},
        {R"({"status":"confirmed","products":[{"sku":"S","amount":1,"price":1}],"note":"x"})", {"note"}},
        {R"({"status":"confirmed","status":"rejected"})", {"status"}},
        {R"(not json)", {"$"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body);
        auto parsed = parseOrderConfirmation(c.body);
        std::vector<std::string> found;
        for (const auto& problem : parsed.problems) found.push_back(problem.path);
        CHECK(found == c.paths);
        CHECK_FALSE(parsed.ok());
    }
}
