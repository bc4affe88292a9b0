// The RateLimitStore contract (shared/store/RateLimitStore.hpp) on every backend, and on
// PostgreSQL the promise it exists for: one bucket for every node (docs/adr/0094).
#include "StoreBackends.hpp"

#include <thread>

namespace svc::contract {
namespace {

constexpr int64_t kSecond = 1000;
constexpr int64_t kStart = 1'750'000'000'000;  // ms
constexpr TokenBucketLimit kTwoPerSecond{2, 4};

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it): shared buckets not checked";

// One take; its error, if any, fails the test with the backend's message.
TokenTake take(RateLimitStore& limits, const std::string& key, double tokens, TokenBucketLimit limit, int64_t now) {
    auto taken = limits.take(key, tokens, limit, now);
    REQUIRE_MESSAGE(taken, (taken ? "" : taken.error().message));
    return *taken;
}

}  // namespace

TEST_CASE("RateLimitStore: a new key is a full bucket; takes are all or none and name the wait; tokens come back over time") {
    forEachBackend([](Backend& backend) {
        RateLimitStore& limits = backend.storage->rateLimits();
        auto first = take(limits, "purchases/address/203.0.113.7", 3, kTwoPerSecond, kStart);
        CHECK(first.taken);
        CHECK(first.left == doctest::Approx(1));
        auto refused = take(limits, "purchases/address/203.0.113.7", 2, kTwoPerSecond, kStart);
        CHECK_FALSE(refused.taken);
        CHECK(refused.left == doctest::Approx(1));  // nothing taken: all or none
        CHECK(refused.retryAfterSeconds == 1);      // one token missing at 2 a second: half a second, rounded up
        CHECK(take(limits, "purchases/address/203.0.113.7", 1, kTwoPerSecond, kStart).taken);
        auto empty = take(limits, "purchases/address/203.0.113.7", 4, kTwoPerSecond, kStart);
        CHECK_FALSE(empty.taken);
        CHECK(empty.retryAfterSeconds == 2);  // four tokens at 2 a second
        // 750 ms later 1.5 tokens are back: one take of 1 fits, a second does not.
        CHECK(take(limits, "purchases/address/203.0.113.7", 1, kTwoPerSecond, kStart + 750).taken);
        auto half = take(limits, "purchases/address/203.0.113.7", 1, kTwoPerSecond, kStart + 750);
        CHECK_FALSE(half.taken);
        CHECK(half.left == doctest::Approx(0.5));
        // Never more than the burst comes back, however long the wait.
        auto later = take(limits, "purchases/address/203.0.113.7", 1, kTwoPerSecond, kStart + 3600 * kSecond);
        CHECK(later.taken);
        CHECK(later.left == doctest::Approx(3));
        // Another key has its own bucket.
        CHECK(take(limits, "purchases/address/203.0.113.8", 4, kTwoPerSecond, kStart).taken);
    });
}

TEST_CASE("RateLimitStore: more than the burst is always refused, with the wait for a full bucket") {
    forEachBackend([](Backend& backend) {
        RateLimitStore& limits = backend.storage->rateLimits();
        auto fresh = take(limits, "shops/address/198.51.100.1", 5, kTwoPerSecond, kStart);  // never seen
        CHECK_FALSE(fresh.taken);
        CHECK(fresh.retryAfterSeconds == 1);
        CHECK(take(limits, "shops/address/198.51.100.1", 4, kTwoPerSecond, kStart).taken);  // the refusal took nothing
        auto kept = take(limits, "shops/address/198.51.100.1", 5, kTwoPerSecond, kStart);
        CHECK_FALSE(kept.taken);
        CHECK(kept.retryAfterSeconds == 2);  // empty: the whole burst back at 2 a second
    });
}

TEST_CASE("RateLimitStore: giveBack returns tokens up to the burst; a key not kept is full already") {
    forEachBackend([](Backend& backend) {
        RateLimitStore& limits = backend.storage->rateLimits();
        constexpr TokenBucketLimit kSignIns{20.0 / 900, 20};
        for (int attempt = 0; attempt < 20; ++attempt) REQUIRE(take(limits, "sign-in/address/a", 1, kSignIns, kStart).taken);
        auto locked = take(limits, "sign-in/address/a", 1, kSignIns, kStart);
        CHECK_FALSE(locked.taken);
        CHECK(locked.retryAfterSeconds == 45);  // one attempt comes back every 45 s
        REQUIRE(limits.giveBack("sign-in/address/a", 1, kSignIns, kStart));
        CHECK(take(limits, "sign-in/address/a", 1, kSignIns, kStart).taken);
        REQUIRE(limits.giveBack("sign-in/address/a", 50, kSignIns, kStart));  // capped at the burst
        for (int attempt = 0; attempt < 20; ++attempt) REQUIRE(take(limits, "sign-in/address/a", 1, kSignIns, kStart).taken);
        CHECK_FALSE(take(limits, "sign-in/address/a", 1, kSignIns, kStart).taken);
        REQUIRE(limits.giveBack("sign-in/address/never-seen", 1, kSignIns, kStart));
        for (int attempt = 0; attempt < 20; ++attempt) REQUIRE(take(limits, "sign-in/address/never-seen", 1, kSignIns, kStart).taken);
        CHECK_FALSE(take(limits, "sign-in/address/never-seen", 1, kSignIns, kStart).taken);
    });
}

TEST_CASE("RateLimitStore: forgetFull drops the buckets that are full again, and only those") {
    forEachBackend([](Backend& backend) {
        RateLimitStore& limits = backend.storage->rateLimits();
        REQUIRE(take(limits, "full-at-1s", 2, kTwoPerSecond, kStart).taken);        // full again at +1 s
        REQUIRE(take(limits, "full-at-2s", 4, kTwoPerSecond, kStart).taken);        // full again at +2 s
        auto none = limits.forgetFull(kStart + 999);
        REQUIRE(none);
        CHECK(*none == 0);
        auto one = limits.forgetFull(kStart + kSecond);
        REQUIRE(one);
        CHECK(*one == 1);
        // The one kept still remembers what was taken (it is not full before +2 s) ...
        CHECK_FALSE(take(limits, "full-at-2s", 4, kTwoPerSecond, kStart + kSecond).taken);
        // ... and one forgotten behaves as a new bucket: full.
        CHECK(take(limits, "full-at-1s", 4, kTwoPerSecond, kStart + kSecond).taken);
    });
}

TEST_CASE("RateLimitStore: a clock that goes back refills nothing; keys are compared byte for byte") {
    forEachBackend([](Backend& backend) {
        RateLimitStore& limits = backend.storage->rateLimits();
        REQUIRE(take(limits, "skew", 4, kTwoPerSecond, kStart + 10 * kSecond).taken);
        // A node whose clock is 10 s behind: no tokens for negative time, and none taken from its future.
        CHECK_FALSE(take(limits, "skew", 1, kTwoPerSecond, kStart).taken);
        CHECK(take(limits, "skew", 1, kTwoPerSecond, kStart + 10 * kSecond + 500).taken);
        for (const auto& hostile : hostileStrings()) {
            CAPTURE(hostile);
            REQUIRE(take(limits, hostile, 4, kTwoPerSecond, kStart).taken);
            CHECK_FALSE(take(limits, hostile, 1, kTwoPerSecond, kStart).taken);
        }
        // "%_ LIKE wildcards _%" is empty; a key it would match as a pattern is not.
        CHECK(take(limits, "%x LIKE wildcards x%", 4, kTwoPerSecond, kStart).taken);
    });
}

TEST_CASE("RateLimitStore: takes racing from many threads and connections never take more than the bucket holds") {
    forEachBackend([](Backend& backend) {
        constexpr int kClients = 8;
        constexpr int kTakesEach = 10;
        constexpr TokenBucketLimit kBurst25{0.001, 25};  // nothing comes back during the test
        // On PostgreSQL each client is a node of its own; SQLite's buckets belong to the one process
        // that serves a data dir, so its clients are threads on one storage.
        std::vector<std::unique_ptr<Storage>> nodes;
        std::vector<RateLimitStore*> clients;
        for (int i = 0; i < kClients; ++i) {
            if (backend.name == "postgres") {
                nodes.push_back(backend.openAnother());
                clients.push_back(&nodes.back()->rateLimits());
            } else {
                clients.push_back(&backend.storage->rateLimits());
            }
        }
        std::atomic<int> taken{0}, errors{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < kClients; ++i) {
            threads.emplace_back([&, i] {
                for (int n = 0; n < kTakesEach; ++n) {
                    auto result = clients[i]->take("race", 1, kBurst25, kStart);
                    if (!result) ++errors;
                    else if (result->taken) ++taken;
                }
            });
        }
        for (auto& thread : threads) thread.join();
        CHECK(errors.load() == 0);
        CHECK(taken.load() == 25);
    });
}

TEST_CASE("RateLimitStore: on PostgreSQL every node takes from the same bucket" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    auto url = postgresUrl();
    REQUIRE(url);
    auto backend = openBackend(*url);
    auto nodeB = backend->openAnother();
    auto nodeC = backend->openAnother();
    RateLimitStore* nodes[] = {&backend->storage->rateLimits(), &nodeB->rateLimits(), &nodeC->rateLimits()};
    for (int i = 0; i < 4; ++i) REQUIRE(take(*nodes[i % 3], "sign-in/address/203.0.113.9", 1, kTwoPerSecond, kStart).taken);
    for (auto* node : nodes) CHECK_FALSE(take(*node, "sign-in/address/203.0.113.9", 1, kTwoPerSecond, kStart).taken);
    REQUIRE(nodes[2]->giveBack("sign-in/address/203.0.113.9", 1, kTwoPerSecond, kStart));
    CHECK(take(*nodes[0], "sign-in/address/203.0.113.9", 1, kTwoPerSecond, kStart).taken);
}

}  // namespace svc::contract
