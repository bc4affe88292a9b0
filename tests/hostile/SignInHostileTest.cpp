// Issue 18, finding 1: operator sign-in under concurrency, against the real binary with the
// production Argon2id cost (64 MiB a hash) and the production worker threads. Before the fix,
// 57 concurrent sign-ins with unknown e-mail addresses took 57 hashes at once (1.5 GB), and
// 60 wrong passwords sent 15 at a time never locked the account (the count was read before
// the slow hash and written after it). docs/adr/0059.
#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

#include "hostile/HostileSupport.hpp"
#include "server/ChildProcess.hpp"
#include "support/Concurrently.hpp"

using namespace svc::hostile;

namespace {

struct Answer {
    int status = 0;
    std::string retryAfter;
};

// One sign-in from `fromAddress`; a connection closed unanswered (cpp-httplib's listen backlog
// of 5 in a burst) is tried again, as a browser would.
Answer signIn(int port, const std::string& fromAddress, const std::string& email, const std::string& password) {
    for (int attempt = 0; attempt < 5; ++attempt) {
        httplib::Client client("127.0.0.1", port);
        client.set_interface(fromAddress);
        client.set_connection_timeout(10, 0);
        client.set_read_timeout(60, 0);
        auto response = client.Post("/operator/api/session", nlohmann::json{{"email", email}, {"password", password}}.dump(),
                                    "application/json");
        if (response) return {response->status, response->get_header_value("Retry-After")};
    }
    return {};
}

}  // namespace

TEST_CASE("Sign-in: 57 concurrent sign-ins with unknown addresses take a bounded memory; others are served meanwhile") {
    AttackWindow window;
    auto& server = window.server();
    long peakBeforeKb = server.peakRssKb();
    long rssBeforeKb = server.rssKb();
    auto answers = svc::test::concurrently(57, [&](int i) {
        return signIn(server.port(), "127.0.5." + std::to_string(i + 2), "nobody" + std::to_string(i) + "@example.com", "a guess at it");
    });
    int unauthenticated = 0;
    int busy = 0;
    for (const auto& answer : answers) {
        CAPTURE(answer.status);
        CHECK((answer.status == 401 || answer.status == 503));
        unauthenticated += answer.status == 401;
        if (answer.status == 503) {
            ++busy;
            CHECK(answer.retryAfter == "1");
        }
    }
    long peakAfterKb = server.peakRssKb();
    MESSAGE("57 unknown addresses: " << unauthenticated << " answered 401, " << busy << " answered 503; RSS before "
                                     << rssBeforeKb / 1024 << " MiB, peak before " << peakBeforeKb / 1024 << " MiB, peak after "
                                     << peakAfterKb / 1024 << " MiB");
    // The gate's two 64 MiB hashes, not 57 of them.
    CHECK(peakAfterKb < std::max(peakBeforeKb, rssBeforeKb + 300 * 1024));
    window.requireOthersServed();
}

TEST_CASE("Sign-in: 60 wrong passwords sent 15 at a time lock the account; the right one is refused") {
    AttackWindow window;
    auto& server = window.server();
    const std::string email = "hostile-ops@example.com";
    const std::string password = "the operator's right password";
    setenv("SVC_OPERATOR_PASSWORD", password.c_str(), 1);
    std::string created = runCommand({SVC_SERVER_BINARY, "operator", "create", "--data-dir", server.dataDir(), "--email", email},
                                     server.dataDir() + "/../operator-create.txt");
    unsetenv("SVC_OPERATOR_PASSWORD");
    int locked = 0;
    for (int round = 0; round < 4; ++round) {
        // Each guess from its own address: the per-address lock-out must not be what stops them.
        auto answers = svc::test::concurrently(15, [&](int i) {
            return signIn(server.port(), "127.0.6." + std::to_string(round * 15 + i + 2), email, "wrong guess " + std::to_string(i));
        });
        for (const auto& answer : answers) {
            CHECK((answer.status == 401 || answer.status == 429));
            locked += answer.status == 429;
        }
    }
    MESSAGE("60 wrong passwords, 15 at a time: " << locked << " answered 429");
    CHECK(locked >= 55);
    CHECK(signIn(server.port(), "127.0.6.100", email, password).status == 429);
    window.requireOthersServed();
}
