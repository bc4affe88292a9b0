// The console's Operators page through its API (docs/adr/0050): a real server on port 0, real
// SQLite, real Argon2id at libsodium's minimum cost. Each case fails when its feature is taken
// out: listing, adding with field errors, removing (sessions end at once, never oneself),
// changing one's own password (current one required and counted, other sessions end), and the
// CLI's reset.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "OperatorCliRun.hpp"
#include "ServerFixture.hpp"
#include "operator/OperatorAccounts.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kEmail = "ops@example.com";
constexpr const char* kPassword = "correct horse battery";
constexpr const char* kOtherEmail = "second@example.com";
constexpr const char* kOtherPassword = "another long password";

ServerOptions fastPasswords() {
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    return options;
}

// One signed-in browser: its cookie and CSRF token.
struct Session {
    std::string cookie;
    std::string csrf;
    httplib::Headers headers(bool withCsrf = true) const {
        httplib::Headers all{{"Cookie", cookie}};
        if (withCsrf) all.emplace("X-CSRF-Token", csrf);
        return all;
    }
};

struct AccountsFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;

    AccountsFixture() : server(dir.path(), &clock, fastPasswords()) {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator(kEmail, kPassword));
    }

    httplib::Result signIn(const std::string& email, const std::string& password) {
        return server.client().Post("/operator/api/session", json{{"email", email}, {"password", password}}.dump(), "application/json");
    }
    Session signInOk(const std::string& email = kEmail, const std::string& password = kPassword) {
        auto response = signIn(email, password);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        std::string setCookie = response->get_header_value("Set-Cookie");
        return {setCookie.substr(0, setCookie.find(';')), json::parse(response->body)["csrfToken"]};
    }
    int meStatus(const Session& session) { return server.client().Get("/operator/api/me", session.headers(false))->status; }
    json list(const Session& session) {
        auto response = server.client().Get("/operator/api/operators", session.headers(false));
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body)["operators"];
    }
    httplib::Result add(const Session& session, const json& body) {
        return server.client().Post("/operator/api/operators", session.headers(), body.dump(), "application/json");
    }
    httplib::Result changePassword(const Session& session, const json& body) {
        return server.client().Post("/operator/api/me/password", session.headers(), body.dump(), "application/json");
    }
    int64_t idOf(const Session& session, const std::string& email) {
        for (const auto& entry : list(session)) {
            if (entry["email"] == email) return entry["id"];
        }
        FAIL("no operator " << email);
        return 0;
    }
};

json errorOf(const httplib::Result& response) { return json::parse(response->body)["error"]; }

std::string fieldsOf(const httplib::Result& response) {
    std::string out;
    json error = errorOf(response);
    for (const auto& item : error["fields"]) out += (out.empty() ? "" : ",") + item["field"].get<std::string>();
    return out;
}

}  // namespace

TEST_CASE("Operators: the list shows each account with when it was created and last signed in; adding checks every field") {
    AccountsFixture fixture;
    CHECK(fixture.server.client().Get("/operator/api/operators")->status == 401);
    fixture.clock.advance(60);
    Session session = fixture.signInOk();
    json operators = fixture.list(session);
    REQUIRE(operators.size() == 1);
    CHECK(operators[0]["email"] == kEmail);
    CHECK(operators[0]["you"] == true);
    CHECK(operators[0]["createdAt"].get<int64_t>() > 0);
    CHECK(operators[0]["lastSignInAt"] == fixture.clock.nowSeconds());
    CHECK(operators[0].dump().find("passwordHash") == std::string::npos);

    struct Case {
        json body;
        int status;
        std::string fields;
    };
    const std::vector<Case> bad = {
        {json::object(), 400, "email,password"},
        {{{"email", "not-an-address"}, {"password", "short"}}, 400, "email,password"},
        {{{"email", 7}, {"password", kOtherPassword}}, 400, "email"},
        {{{"email", kOtherEmail}, {"password", "eleven char"}}, 400, "password"},
        {{{"email", "OPS@example.com"}, {"password", kOtherPassword}}, 409, "email"},  // exists, in any case
    };
    for (const auto& [body, status, fields] : bad) {
        CAPTURE(body.dump());
        auto response = fixture.add(session, body);
        REQUIRE(response);
        CHECK(response->status == status);
        CHECK(fieldsOf(response) == fields);
    }
    CHECK(fixture.list(session).size() == 1);  // nothing written by a bad request

    // State-changing: a session needs its CSRF token.
    auto noCsrf = fixture.server.client().Post("/operator/api/operators", session.headers(false),
                                               json{{"email", kOtherEmail}, {"password", kOtherPassword}}.dump(), "application/json");
    CHECK(noCsrf->status == 403);
    CHECK(fixture.list(session).size() == 1);

    auto added = fixture.add(session, {{"email", std::string(" ") + kOtherEmail + " "}, {"password", kOtherPassword}});
    REQUIRE(added->status == 201);
    CHECK(json::parse(added->body)["email"] == kOtherEmail);
    CHECK(json::parse(added->body)["lastSignInAt"].is_null());
    CHECK(json::parse(added->body)["you"] == false);
    CHECK(fixture.list(session).size() == 2);
    fixture.signInOk(kOtherEmail, kOtherPassword);  // the new operator can sign in with the initial password
}

TEST_CASE("Operators: removing another operator ends their sessions at once; nobody removes themselves") {
    AccountsFixture fixture;
    Session first = fixture.signInOk();
    REQUIRE(fixture.add(first, {{"email", kOtherEmail}, {"password", kOtherPassword}})->status == 201);
    Session second = fixture.signInOk(kOtherEmail, kOtherPassword);
    REQUIRE(fixture.meStatus(second) == 200);

    auto self = fixture.server.client().Delete("/operator/api/operators/" + std::to_string(fixture.idOf(first, kEmail)), first.headers());
    CHECK(self->status == 403);
    CHECK(fieldsOf(self) == "operatorId");
    CHECK(fixture.list(first).size() == 2);

    std::string secondPath = "/operator/api/operators/" + std::to_string(fixture.idOf(first, kOtherEmail));
    CHECK(fixture.server.client().Delete(secondPath, first.headers(false))->status == 403);  // no CSRF token
    CHECK(fixture.meStatus(second) == 200);
    CHECK(fixture.server.client().Delete(secondPath, first.headers())->status == 204);
    CHECK(fixture.meStatus(second) == 401);  // at once, not when the session would have expired
    CHECK(fixture.signIn(kOtherEmail, kOtherPassword)->status == 401);
    CHECK(fixture.list(first).size() == 1);
    CHECK(fixture.server.client().Delete(secondPath, first.headers())->status == 404);
    CHECK(fixture.meStatus(first) == 200);
}

TEST_CASE("Own password: field errors name the field and change nothing") {
    AccountsFixture fixture;
    Session session = fixture.signInOk();
    struct Case {
        json body;
        int status;
        std::string fields;
    };
    const std::vector<Case> cases = {
        {json::object(), 400, "currentPassword,newPassword"},
        {{{"currentPassword", kPassword}, {"newPassword", "too short"}}, 400, "newPassword"},
        {{{"currentPassword", kPassword}, {"newPassword", kPassword}}, 400, "newPassword"},
        {{{"currentPassword", 12}, {"newPassword", "short"}}, 400, "currentPassword,newPassword"},
    };
    for (const auto& [body, status, fields] : cases) {
        CAPTURE(body.dump());
        auto response = fixture.changePassword(session, body);
        REQUIRE(response);
        CHECK(response->status == status);
        CHECK(fieldsOf(response) == fields);
    }
    CHECK(fixture.signIn(kEmail, kPassword)->status == 200);
}

TEST_CASE("Own password: the current one is required and wrong ones count toward the lock-out; other sessions end") {
    AccountsFixture fixture;
    Session here = fixture.signInOk();
    Session elsewhere = fixture.signInOk();
    const json wrong{{"currentPassword", "not my password at all"}, {"newPassword", kOtherPassword}};
    for (int attempt = 1; attempt < OperatorAccounts::kMaxFailures; ++attempt) {
        auto response = fixture.changePassword(here, wrong);
        CHECK(response->status == 403);
        CHECK(fieldsOf(response) == "currentPassword");
    }
    auto locked = fixture.changePassword(here, wrong);
    CHECK(locked->status == 429);
    CHECK(fieldsOf(locked) == "currentPassword");
    CHECK(errorOf(locked)["message"].get<std::string>().find("locked for 15 minutes") != std::string::npos);
    // Locked like after wrong sign-ins: even the right password is refused, here and at sign-in.
    CHECK(fixture.changePassword(here, {{"currentPassword", kPassword}, {"newPassword", kOtherPassword}})->status == 429);
    CHECK(fixture.signIn(kEmail, kPassword)->status == 429);
    fixture.clock.advance(OperatorAccounts::kLockSeconds);

    auto changed = fixture.changePassword(here, {{"currentPassword", kPassword}, {"newPassword", kOtherPassword}});
    CHECK(changed->status == 204);
    CHECK(fixture.meStatus(here) == 200);       // the session that changed it stays
    CHECK(fixture.meStatus(elsewhere) == 401);  // every other one ends
    CHECK(fixture.signIn(kEmail, kPassword)->status == 401);
    CHECK(fixture.signIn(kEmail, kOtherPassword)->status == 200);
}

TEST_CASE("CLI: operator password sets a new password, ends every session and clears a lock-out") {
    AccountsFixture fixture;
    Session session = fixture.signInOk();
    for (int attempt = 0; attempt < OperatorAccounts::kMaxFailures; ++attempt) fixture.signIn(kEmail, "wrong password guess");
    REQUIRE(fixture.signIn(kEmail, kPassword)->status == 429);

    auto run = [&](const std::string& password, const std::string& email) {
        return test::runOperatorCli("password", fixture.dir.path(), email, password);
    };
    auto shortPassword = run("short", kEmail);
    CHECK(shortPassword.first == 1);
    CHECK(shortPassword.second.find("password: at least 12 characters") != std::string::npos);
    auto unknown = run(kOtherPassword, "nobody@example.com");
    CHECK(unknown.first == 1);
    CHECK(unknown.second.find("--email: no operator with e-mail address nobody@example.com") != std::string::npos);
    CHECK(fixture.meStatus(session) == 200);

    auto reset = run(kOtherPassword, kEmail);
    CHECK(reset.first == 0);
    CHECK(fixture.meStatus(session) == 401);
    CHECK(fixture.signIn(kEmail, kPassword)->status == 401);
    CHECK(fixture.signIn(kEmail, kOtherPassword)->status == 200);
}
