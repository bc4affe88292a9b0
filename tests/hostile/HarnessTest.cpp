// The harness itself can fail: a server that stops answering is seen by the watch, and the
// suite's server starts with the tenants every other test relies on.
#include <doctest/doctest.h>

#include "hostile/HostileSupport.hpp"

using namespace svc::hostile;

TEST_CASE("Harness: the suite's server answers for the demo tenant and tenant B") {
    AttackWindow window;
    httplib::Client client("127.0.0.1", window.server().port());
    auto loader = client.Get("/" + window.server().demo().apiId + "/loader.js");
    REQUIRE(loader);
    CHECK(loader->status == 200);
    auto reports = client.Get("/reports/summary", {{"x-api-id", window.server().tenantB().apiId},
                                                   {"x-api-secret", window.server().tenantB().apiSecret}});
    REQUIRE(reports);
    CHECK(reports->status == 200);
    window.requireOthersServed();
}

TEST_CASE("Harness: a server that stops answering for 1.5 s is seen by the watch") {
    AttackWindow window;
    window.server().freezeFor(std::chrono::milliseconds(1500));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto seen = window.figures();
    CHECK(seen.slowestSeconds > kHealthBudgetSeconds);
    CHECK(window.server().alive());
}
