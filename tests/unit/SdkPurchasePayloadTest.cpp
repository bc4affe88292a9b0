// Unit tests of sdk/PurchasePayload and SdkController::track (svclytics('purchase', ...)):
// every problem named once, and what is sent is what the server's parser accepts.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "sdk/PurchasePayload.hpp"
#include "tracking/EventParser.hpp"

using svc::PurchasePayload;

namespace {

const std::string kCid(32, 'c');

svc::PurchaseEvent serverSees(const std::string& body) {
    auto parsed = svc::parseEvents(body);
    CAPTURE(body);
    REQUIRE(parsed.ok());
    REQUIRE(parsed.events.events.size() == 1);
    return std::get<svc::PurchaseEvent>(parsed.events.events[0]);
}

}  // namespace

TEST_CASE("PurchasePayload: a valid payload becomes a purchase body with the visitor's cid") {
    auto check = PurchasePayload::check(
        R"({"customerid":"anonymous","orderid":"O-1","products":[{"sku":"007","amount":2,"price":1999},{"sku":"B","amount":1,"price":0}],"extra":true})",
        kCid);
    CHECK(check.problems.empty());
    CHECK(check.orderId == "O-1");
    auto purchase = serverSees(check.body);
    CHECK(purchase.orderId == "O-1");
    CHECK(purchase.cid == std::optional<std::string>(kCid));
    CHECK(purchase.lines == std::vector<svc::OrderLine>{{"007", 2, 1999}, {"B", 1, 0}});
    // Without a cid (storage blocked and nothing known) the field is left out.
    CHECK(serverSees(PurchasePayload::check(R"({"customerid":"anonymous","orderid":"O","products":[{"sku":"A","amount":1,"price":1}]})", "").body).cid ==
          std::nullopt);
}

TEST_CASE("PurchasePayload: every problem is named with its path, and nothing is sent") {
    auto check = PurchasePayload::check(
        R"({"customerid":"jane@example.com","products":[{"sku":1234,"amount":"2","price":19.99},{"sku":"A","amount":0,"price":-1},"x"]})", kCid);
    CHECK(check.body.empty());
    CHECK(check.problems == std::vector<std::string>{
                                "customerid: must be \"anonymous\" (no personal data), got \"jane@example.com\"",
                                "orderid: missing (unique per order)",
                                "products[0].sku: must be a string (the SKU as a string, exactly as in the product feed), got 1234",
                                "products[0].amount: must be an integer number of units (1 or more), got \"2\"",
                                "products[0].price: must be an integer gross unit price in cents (e.g. 1999 for 19.99), got 19.99",
                                "products[1].amount: must be an integer number of units (1 or more), got 0",
                                "products[1].price: must be an integer gross unit price in cents (e.g. 1999 for 19.99), got -1",
                                "products[2]: must be an object {sku, amount, price}",
                            });
    for (const char* bad : {"null", "[]", "\"purchase\"", "{not json"}) {
        CAPTURE(bad);
        auto refused = PurchasePayload::check(bad, kCid);
        CHECK(refused.problems == std::vector<std::string>{"payload: must be an object {customerid, orderid, products}"});
    }
    CHECK(PurchasePayload::check(R"({"customerid":"anonymous","orderid":"O","products":[]})", kCid).problems ==
          std::vector<std::string>{"products: must be a non-empty array of order lines {sku, amount, price}"});
    CHECK(PurchasePayload::check(R"({"customerid":"anonymous","orderid":"","products":[{"sku":"A","amount":1,"price":1}]})", kCid)
              .problems == std::vector<std::string>{"orderid: must be 1-200 characters without control characters"});
}
