// The LeaseStore contract (shared/store/LeaseStore.hpp) on every backend.
#include "StoreBackends.hpp"

#include <thread>

namespace svc::contract {

TEST_CASE("LeaseStore: a held lease refuses other owners until it expires, then another owner takes it over") {
    forEachBackend([](Backend& backend) {
        LeaseStore& leases = backend.storage->leases();
        CHECK(leases.holder("attributor", 100).value() == std::nullopt);
        CHECK(leases.claim("attributor", "node-a", 100, 30).value());
        CHECK_FALSE(leases.claim("attributor", "node-b", 129, 30).value());
        auto holder = leases.holder("attributor", 129).value();
        REQUIRE(holder);
        CHECK(holder->owner == "node-a");
        CHECK(holder->expiresAt == 130);
        CHECK(leases.claim("attributor", "node-a", 110, 30).value());  // the holder claims again: renewed
        CHECK(leases.holder("attributor", 135).value()->expiresAt == 140);
        CHECK(leases.claim("attributor", "node-b", 140, 30).value());  // expired: taken over
        CHECK(leases.holder("attributor", 141).value()->owner == "node-b");
        CHECK_FALSE(leases.renew("attributor", "node-a", 141, 30).value());  // the old owner lost it
        CHECK(leases.holder("attributor", 170).value() == std::nullopt);  // nobody renewed
    });
}

TEST_CASE("LeaseStore: renew extends only the owner's live lease; release ends only the owner's own") {
    forEachBackend([](Backend& backend) {
        LeaseStore& leases = backend.storage->leases();
        REQUIRE(leases.claim("migrations", "a", 0, 10).value());
        CHECK_FALSE(leases.renew("migrations", "b", 5, 10).value());
        CHECK(leases.renew("migrations", "a", 5, 10).value());
        CHECK(leases.holder("migrations", 14).value()->owner == "a");
        CHECK_FALSE(leases.renew("migrations", "a", 15, 10).value());  // expired before the renewal
        REQUIRE(leases.claim("migrations", "a", 15, 10).value());
        REQUIRE(leases.release("migrations", "b"));  // not b's: left alone
        CHECK(leases.holder("migrations", 16).value()->owner == "a");
        REQUIRE(leases.release("migrations", "a"));
        CHECK(leases.holder("migrations", 16).value() == std::nullopt);
        REQUIRE(leases.release("migrations", "a"));  // not held: no error
        CHECK(leases.claim("migrations", "b", 16, 10).value());
    });
}

TEST_CASE("LeaseStore: of owners racing for one lease from separate connections, exactly one wins") {
    forEachBackend([](Backend& backend) {
        constexpr int kOwners = 8;
        std::vector<std::unique_ptr<Storage>> nodes;
        for (int i = 0; i < kOwners; ++i) nodes.push_back(backend.openAnother());
        for (int round = 0; round < 5; ++round) {
            std::string name = "race-" + std::to_string(round);
            std::atomic<int> winners{0}, errors{0};
            std::vector<std::thread> threads;
            for (int i = 0; i < kOwners; ++i) {
                threads.emplace_back([&, i] {
                    auto claimed = nodes[i]->leases().claim(name, "owner-" + std::to_string(i), 1000, 60);
                    if (!claimed) ++errors;
                    else if (*claimed) ++winners;
                });
            }
            for (auto& thread : threads) thread.join();
            CHECK(errors.load() == 0);
            CHECK(winners.load() == 1);
        }
    });
}

TEST_CASE("LeaseStore: live lists the unexpired leases of a prefix by name; names are compared byte for byte") {
    forEachBackend([](Backend& backend) {
        LeaseStore& leases = backend.storage->leases();
        REQUIRE(leases.claim("import/2", "a", 0, 100).value());
        REQUIRE(leases.claim("import/10", "b", 0, 100).value());
        REQUIRE(leases.claim("import/old", "c", 0, 5).value());
        REQUIRE(leases.claim("imports", "d", 0, 100).value());
        REQUIRE(leases.claim("import%", "e", 0, 100).value());
        auto live = leases.live("import/", 50);
        REQUIRE_MESSAGE(live, (live ? "" : live.error().message));
        std::vector<std::string> names;
        for (const auto& lease : *live) names.push_back(lease.name);
        CHECK(names == std::vector<std::string>{"import/10", "import/2"});
        // Byte order, not a language's: "B" (0x42) before "a" (0x61).
        REQUIRE(leases.claim("order/a", "f", 0, 100).value());
        REQUIRE(leases.claim("order/B", "g", 0, 100).value());
        auto ordered = leases.live("order/", 50);
        REQUIRE(ordered);
        names.clear();
        for (const auto& lease : *ordered) names.push_back(lease.name);
        CHECK(names == std::vector<std::string>{"order/B", "order/a"});
        CHECK(leases.live("import%", 50).value().size() == 1);  // % is no wildcard
        for (const auto& text : hostileStrings()) {
            auto claimed = leases.claim(text, text, 0, 100);
            REQUIRE_MESSAGE(claimed, (claimed ? "" : claimed.error().message));
            CHECK(*claimed);
            auto holder = leases.holder(text, 1);
            REQUIRE_MESSAGE(holder, (holder ? "" : holder.error().message));
            REQUIRE(*holder);
            CHECK((*holder)->owner == text);
        }
        CHECK(leases.holder("IMPORT/2", 1).value() == std::nullopt);
    });
}

}  // namespace svc::contract
