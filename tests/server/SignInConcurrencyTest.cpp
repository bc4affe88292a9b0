// Operator sign-in under concurrency (issue 18, docs/adr/0059), through the real HTTP route of a
// real server with the production number of worker threads: concurrent wrong passwords must
// lock the account as sequential ones do, and a burst of sign-ins must not take one Argon2id
// memory block (64 MiB at the production cost) per request.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "operator/OperatorAccounts.hpp"
#include "support/Concurrently.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kEmail = "ops@example.com";
constexpr const char* kPassword = "correct horse battery";
const int kProductionThreads = ServerOptions{}.threads;

// What one sign-in answered.
struct Answer {
    int status = 0;
    std::string retryAfter;
};

// One sign-in on its own connection, from `clientAddress` (any 127.x.y.z reaches the loopback server).
// A connection the server closed unanswered is tried again, as a browser would: cpp-httplib
// listens with a backlog of 5, and in a burst of 57 connections on a loaded machine some are
// only accepted after its 2-second wait for the request has passed. Status 0: never answered.
Answer signIn(int port, const std::string& email, const std::string& password, const std::string& clientAddress = "127.0.0.1") {
    for (int attempt = 0; attempt < 5; ++attempt) {
        httplib::Client http("127.0.0.1", port);
        http.set_interface(clientAddress);
        http.set_connection_timeout(10);
        http.set_read_timeout(60);
        auto response = http.Post("/operator/api/session", json{{"email", email}, {"password", password}}.dump(), "application/json");
        if (response) return {response->status, response->get_header_value("Retry-After")};
    }
    return {};
}

int64_t residentKilobytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
    }
    return 0;
}

// The largest resident size while `work` runs, sampled every millisecond (an Argon2id hash holds
// its memory for tenths of a second, so no block in use escapes the samples).
template <typename Work>
int64_t peakResidentKilobytes(Work work) {
    std::atomic<bool> done{false};
    std::atomic<int64_t> peak{residentKilobytes()};
    std::thread sampler([&] {
        while (!done) {
            int64_t now = residentKilobytes();
            if (now > peak) peak = now;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    work();
    done = true;
    sampler.join();
    return peak;
}

void createOperator(const std::string& dataDir, const Clock& clock, PasswordCost cost) {
    auto storeStorage = test::openStorage(dataDir);
    auto* store = &storeStorage->operators();
    REQUIRE(store);
    OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, cost);
    REQUIRE(accounts.createOperator(kEmail, kPassword));
}

}  // namespace

TEST_CASE("Sign-in under concurrency: 60 wrong passwords sent 15 at a time lock the account; the right one is refused until the lock ends") {
    test::TempDir dir;
    test::ManualClock clock;
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    test::RunningServer server(dir.path(), &clock, options, kProductionThreads);
    // The stored hash has the production cost (verification reads the hash's own): each guess takes
    // tenths of a second, as in production, so concurrent guesses overlap.
    createOperator(dir.path(), clock, PasswordCost::interactive());

    int refused = 0;
    for (int round = 0; round < 4; ++round) {
        auto answers = test::concurrently(15, [&](int) { return signIn(server.server->port(), kEmail, "wrong password " + std::to_string(round)); });
        for (const auto& answer : answers) {
            CHECK((answer.status == 401 || answer.status == 429));
            refused += answer.status == 429;
        }
    }
    // At most kMaxFailures guesses were verified; every other one was refused unverified.
    CHECK(refused >= 60 - OperatorAccounts::kMaxFailures);

    auto storeStorage = test::openStorage(dir.path());
    auto* store = &storeStorage->operators();
    REQUIRE(store);
    auto account = store->findOperator(kEmail);
    REQUIRE(account);
    REQUIRE(*account);
    MESSAGE("60 wrong passwords, 15 at a time: " << refused << " answered 429; stored failure count " << (*account)->failedSignIns
                                                  << ", locked " << std::string((*account)->lockedUntil > clock.nowSeconds() ? "yes" : "no"));
    CHECK((*account)->lockedUntil > clock.nowSeconds());

    auto right = signIn(server.server->port(), kEmail, kPassword);
    CHECK(right.status == 429);
    CHECK(right.retryAfter == std::to_string(OperatorAccounts::kLockSeconds));
    clock.advance(OperatorAccounts::kLockSeconds - 60);
    CHECK(signIn(server.server->port(), kEmail, kPassword).status == 429);
    clock.advance(61);
    CHECK(signIn(server.server->port(), kEmail, kPassword).status == 200);
}

TEST_CASE("Sign-in under concurrency: 57 wrong passwords from as many addresses lock the account after five guesses") {
    test::TempDir dir;
    test::ManualClock clock;
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    test::RunningServer server(dir.path(), &clock, options, kProductionThreads);
    createOperator(dir.path(), clock, PasswordCost::interactive());
    // Spread over addresses, so the per-address lock-out does not hide the account's.
    auto answers = test::concurrently(57, [&](int i) {
        return signIn(server.server->port(), kEmail, "wrong password!", "127.0.1." + std::to_string(i + 1));
    });
    int unauthenticated = static_cast<int>(std::count_if(answers.begin(), answers.end(), [](const Answer& a) { return a.status == 401; }));
    MESSAGE("57 wrong passwords from 57 addresses: " << unauthenticated << " verified and answered 401");
    CHECK(unauthenticated <= OperatorAccounts::kMaxFailures);
    CHECK(signIn(server.server->port(), kEmail, kPassword, "127.0.2.1").status == 429);
}

TEST_CASE("Sign-in under concurrency: 57 unknown e-mail addresses at once stay within a bounded memory; none is answered 200") {
    test::TempDir dir;
    test::ManualClock clock;
    // The production hash cost and the production gate: the dummy hash of unknown addresses costs 64 MiB.
    test::RunningServer server(dir.path(), &clock, ServerOptions{}, kProductionThreads);
    createOperator(dir.path(), clock, PasswordCost::interactive());

    int64_t before = residentKilobytes();
    std::vector<Answer> answers;
    int64_t peak = peakResidentKilobytes([&] {
        answers = test::concurrently(57, [&](int i) {
            return signIn(server.server->port(), "nobody" + std::to_string(i) + "@example.com", "some password guess",
                          "127.0.3." + std::to_string(i + 1));
        });
    });
    int64_t growthMb = (peak - before) / 1024;
    MESSAGE("resident before " << before / 1024 << " MB, peak " << peak / 1024 << " MB, growth " << growthMb << " MB");
    CHECK(growthMb < 300);
    int busy = 0;
    for (const auto& answer : answers) {
        CAPTURE(answer.status);
        CAPTURE(answer.retryAfter);
        CHECK((answer.status == 401 || answer.status == 503));
        if (answer.status == 503) {
            ++busy;
            CHECK(answer.retryAfter == "1");
        }
    }
    MESSAGE((57 - busy) << " answered 401, " << busy << " answered 503");
    // The gate frees up again: the right password signs in afterwards.
    CHECK(signIn(server.server->port(), kEmail, kPassword).status == 200);
}
