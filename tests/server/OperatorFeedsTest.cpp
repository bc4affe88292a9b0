// The console's Feeds page through the operator API (issue 9): pull sources (add, list, change,
// remove, pull now) with every bad field named and credentials never in an answer, a feed file
// uploaded by hand and imported like a push, each feed's freshness (docs/adr/0043) and the
// catalog's size after each import (docs/adr/0044). Real server, real SQLite, real HTTP.
#include <doctest/doctest.h>

#include <map>

#include <atomic>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"
#include "feed/FeedFreshness.hpp"
#include "feed/FeedPuller.hpp"
#include "net/CredentialCipher.hpp"
#include "operator/OperatorAccounts.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kEmail = "feeds@example.com";
constexpr const char* kPassword = "feeds page password";
const std::string kHostKey = "SHA256:" + std::string(43, 'K');
const std::string kPrivateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-secret-key-material\n-----END OPENSSH PRIVATE KEY-----\n";
const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> row(const std::string& sku, const std::string& price = "5000") {
    return {sku, sku, "M-" + sku, "5", "Item " + sku, price, price, "https://shop.example/" + sku,
            "https://shop.example/" + sku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

// Bodies of other routes are small here, so an upload that arrives shows it is streamed past that limit.
constexpr size_t kMaxRequestBytes = 512;

ServerOptions fastPasswords() {
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    options.maxRequestBytes = kMaxRequestBytes;
    return options;
}

struct FeedsFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;
    std::string cookie;
    std::string csrf;
    std::string apiId;
    std::string base;

    FeedsFixture() : server(dir.path(), &clock, fastPasswords()) {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator(kEmail, kPassword));
        signIn();
        auto created = server.client().Post("/operator/api/tenants", session(), json{{"name", "Feed Shop"}}.dump(), "application/json");
        REQUIRE(created->status == 201);
        apiId = json::parse(created->body)["tenant"]["apiId"];
        base = "/operator/api/tenants/" + apiId;
    }
    // Again after the clock passed the session's 8 hours.
    void signIn() {
        auto signedIn = server.client().Post("/operator/api/session", json{{"email", kEmail}, {"password", kPassword}}.dump(),
                                             "application/json");
        REQUIRE(signedIn);
        REQUIRE(signedIn->status == 200);
        std::string setCookie = signedIn->get_header_value("Set-Cookie");
        cookie = setCookie.substr(0, setCookie.find(';'));
        csrf = json::parse(signedIn->body)["csrfToken"];
    }
    httplib::Headers session() const { return {{"Cookie", cookie}, {"X-CSRF-Token", csrf}}; }
    httplib::Result get(const std::string& path) { return server.client().Get(base + path, session()); }
    httplib::Result post(const std::string& path, const json& body) {
        return server.client().Post(base + path, session(), body.dump(), "application/json");
    }
    httplib::Result patch(const std::string& path, const json& body) {
        return server.client().Patch(base + path, session(), body.dump(), "application/json");
    }
    httplib::Result upload(const std::string& csv, const std::string& query = "", const std::string& type = "text/csv") {
        return server.client().Post(base + "/imports" + query, session(), csv, type.c_str());
    }
    // The import's history entry once the worker is done with it.
    json awaitImport(int64_t id) {
        for (int attempt = 0; attempt < 500; ++attempt) {
            auto list = json::parse(get("/imports")->body)["imports"];
            for (const auto& record : list) {
                if (record["id"] == id && record["status"] != "queued" && record["status"] != "running") return record;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        FAIL("import " << id << " did not finish");
        return {};
    }
    int64_t uploadOk(const std::string& csv) {
        auto response = upload(csv);
        REQUIRE(response);
        REQUIRE(response->status == 202);
        return json::parse(response->body)["importId"];
    }
};

std::vector<std::string> fieldsOf(const httplib::Result& response) {
    std::vector<std::string> fields;
    json error = json::parse(response->body)["error"];
    for (const auto& item : error["fields"]) fields.push_back(item["field"]);
    return fields;
}

void checkNoSecrets(const std::string& body) {
    for (const std::string& secret : {std::string("pull-user-7"), std::string("pull-password-7"), kHostKey, std::string("secret-key-material")}) {
        CHECK_MESSAGE(body.find(secret) == std::string::npos, "answer shows " << secret << ": " << body);
    }
}

}  // namespace

TEST_CASE("Console feeds: a bad pull source is refused naming every bad field, and nothing is stored") {
    FeedsFixture fixture;
    struct Case {
        const char* name;
        json body;
        std::vector<std::string> fields;
    };
    const std::vector<Case> cases = {
        {"no URL", json::object(), {"url"}},
        {"bad scheme", {{"url", "gopher://shop.example/feed.csv"}}, {"url"}},
        {"sftp without user or host key", {{"url", "sftp://shop.example/feed.csv"}}, {"username", "hostKey"}},
        {"sftp with a bad host key", {{"url", "sftp://shop.example/feed.csv"}, {"username", "u"}, {"hostKey", "MD5:16:27"}}, {"hostKey"}},
        {"host key on https", {{"url", "https://shop.example/feed.csv"}, {"hostKey", kHostKey}}, {"hostKey"}},
        {"ftp file without a format", {{"url", "ftp://shop.example/feed.xml"}}, {"url"}},
        {"interval too short", {{"url", "https://shop.example/feed.csv"}, {"every", "30m"}}, {"every"}},
        {"interval not an interval", {{"url", "https://shop.example/feed.csv"}, {"every", "soon"}}, {"every"}},
        {"several at once", {{"url", "https://shop.example/f.csv"}, {"feed", "Bad Name"}, {"delimiter", ";;"}, {"delta", "yes"}},
         {"delta", "feed", "delimiter"}},
        {"password without user", {{"url", "https://shop.example/feed.csv"}, {"password", "pull-password-7"}}, {"password"}},
        {"S3 key without secret", {{"url", "s3://shop-feeds/feed.csv"}, {"username", "AKIA1"}}, {"password"}},
        {"private key that is none", {{"url", "sftp://h.example/f.csv"}, {"username", "u"}, {"hostKey", kHostKey}, {"privateKey", "hello"}},
         {"privateKey"}},
        {"unknown member", {{"url", "https://shop.example/feed.csv"}, {"interval", "1h"}}, {"interval"}},
        {"wrong type", {{"url", 7}}, {"url"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto response = fixture.post("/pull-sources", c.body);
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(fieldsOf(response) == c.fields);
        checkNoSecrets(response->body);
    }
    CHECK(json::parse(fixture.get("/pull-sources")->body)["sources"].empty());
}

TEST_CASE("Console feeds: pull sources are added, listed, changed and removed; credentials are sealed and never shown") {
    FeedsFixture fixture;
    auto added = fixture.post("/pull-sources", {{"url", "sftp://files.example/exports/feed.csv"}, {"every", "6h"},
                                                {"username", "pull-user-7"}, {"password", "pull-password-7"},
                                                {"hostKey", kHostKey}, {"privateKey", kPrivateKey}});
    REQUIRE(added->status == 201);
    checkNoSecrets(added->body);
    json source = json::parse(added->body);
    CHECK(source["feed"] == "default");
    CHECK(source["every"] == "6h");
    CHECK(source["credentialsSet"] == json{{"username", true}, {"password", true}, {"privateKey", true}, {"hostKey", true}});
    CHECK(source["nextRunAt"] == fixture.clock.nowSeconds());  // pulled right away

    // Sealed as the CLI seals them: bound to the tenant and feed, opened only with the server's key.
    auto storeStorage = test::openStorage(fixture.dir.path());
    auto* store = &storeStorage->pullSources();
    REQUIRE(store);
    auto stored = store->list(fixture.server.storage->tenants().findByApiId(fixture.apiId).value()->id);
    REQUIRE(stored->size() == 1);
    checkNoSecrets((*stored)[0].sealedCredentials);
    auto cipher = CredentialCipher::loadOrCreate(fixture.dir.path());
    auto opened = cipher->open((*stored)[0].sealedCredentials, FeedPuller::credentialOwner((*stored)[0].tenantId, "default"));
    REQUIRE(opened);
    CHECK(opened->password == "pull-password-7");
    CHECK(opened->hostKey == kHostKey);

    auto again = fixture.post("/pull-sources", {{"url", "https://shop.example/feed.csv"}});
    CHECK(again->status == 409);
    CHECK(fieldsOf(again) == std::vector<std::string>{"feed"});

    // A change keeps what it does not name (the credentials too); a bad change stores nothing.
    auto bad = fixture.patch("/pull-sources/default", {{"url", "https://shop.example/feed.csv"}, {"every", "5m"}});
    CHECK(bad->status == 400);
    CHECK(fieldsOf(bad) == std::vector<std::string>{"every", "hostKey"});  // the host key is only for sftp
    auto changed = fixture.patch("/pull-sources/default", {{"every", "1d"}, {"password", ""}});
    REQUIRE(changed->status == 200);
    checkNoSecrets(changed->body);
    json after = json::parse(changed->body);
    CHECK(after["url"] == "sftp://files.example/exports/feed.csv");
    CHECK(after["every"] == "1d");
    CHECK(after["credentialsSet"] == json{{"username", true}, {"password", false}, {"privateKey", true}, {"hostKey", true}});
    auto moved = fixture.patch("/pull-sources/default", {{"url", "https://shop.example/feed.csv"}, {"hostKey", ""}, {"privateKey", ""},
                                                          {"username", ""}});
    REQUIRE(moved->status == 200);
    CHECK(json::parse(moved->body)["credentialsSet"]["username"] == false);

    auto list = fixture.get("/pull-sources");
    checkNoSecrets(list->body);
    CHECK(json::parse(list->body)["sources"].size() == 1);
    auto feeds = fixture.get("/feeds");
    checkNoSecrets(feeds->body);

    CHECK(fixture.server.client().Delete(fixture.base + "/pull-sources/default", fixture.session())->status == 204);
    CHECK(fixture.server.client().Delete(fixture.base + "/pull-sources/default", fixture.session())->status == 404);
    CHECK(json::parse(fixture.get("/pull-sources")->body)["sources"].empty());

    // None of it without a session.
    httplib::Client anonymous = fixture.server.client();
    CHECK(anonymous.Get(fixture.base + "/pull-sources")->status == 401);
    CHECK(anonymous.Post(fixture.base + "/pull-sources", json{{"url", "https://a.example/f.csv"}}.dump(), "application/json")->status == 401);
    CHECK(anonymous.Post(fixture.base + "/imports", "sku\nA\n", "text/csv")->status == 401);
    CHECK(anonymous.Get(fixture.base + "/feeds")->status == 401);
    CHECK(anonymous.Get(fixture.base + "/catalog-size")->status == 401);
}

TEST_CASE("Console feeds: pull now makes the source due and wakes the scheduler") {
    FeedsFixture fixture;
    std::atomic<int> wakes{0};
    fixture.server.server->setPullWaker([&wakes] { ++wakes; });
    REQUIRE(fixture.post("/pull-sources", {{"url", "https://shop.example/feed.csv"}})->status == 201);
    // As if the first pull had run: due again only in a day.
    auto storeStorage = test::openStorage(fixture.dir.path());
    auto* store = &storeStorage->pullSources();
    auto source = store->find(fixture.server.storage->tenants().findByApiId(fixture.apiId).value()->id, "default");
    PullSource ran = **source;
    ran.lastRunAt = fixture.clock.nowSeconds();
    ran.nextRunAt = ran.lastRunAt + 86400;
    ran.lastResult = "applied";
    REQUIRE(store->finish(ran));
    fixture.clock.advance(60);
    int before = wakes.load();
    auto pulled = fixture.post("/pull-sources/default/pull", json::object());
    REQUIRE(pulled->status == 202);
    CHECK(json::parse(pulled->body)["requestedAt"] == fixture.clock.nowSeconds());
    CHECK(wakes.load() == before + 1);
    CHECK(json::parse(fixture.get("/pull-sources")->body)["sources"][0]["nextRunAt"] == fixture.clock.nowSeconds());
    CHECK(fixture.post("/pull-sources/stock/pull", json::object())->status == 404);
}

TEST_CASE("Console feeds: a source added in the console is pulled with its sealed credentials; pull now runs it again") {
    FeedsFixture fixture;
    test::LoopbackFeedServer shop;
    shop.setFeed(test::feedCsv({kHeader, row("A"), row("B")}), "\"v1\"");
    // The scheduler `serve` runs, allowed to reach the loopback shop; woken by the console's calls.
    auto runtime = PullRuntime::open(fixture.dir.path(), *fixture.server.storage, *fixture.server.keys, {"127.0.0.1:*"});
    REQUIRE(runtime);
    fixture.server.server->setPullWaker([scheduler = &(*runtime)->scheduler()] { scheduler->wake(); });
    (*runtime)->scheduler().start(std::chrono::hours(1));  // no tick during the test: only wakes pull
    auto sourceNow = [&] { return json::parse(fixture.get("/pull-sources")->body)["sources"][0]; };
    auto awaitRun = [&](int64_t since) {
        for (int attempt = 0; attempt < 500 && sourceNow()["lastRunAt"].get<int64_t>() < since; ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return sourceNow();
    };
    // /private.csv wants basic auth "shop:s3cret": the pull works only if the API sealed them right.
    REQUIRE(fixture.post("/pull-sources", {{"url", shop.url("/private.csv")}, {"username", "shop"}, {"password", "s3cret"}})->status == 201);
    CHECK(awaitRun(fixture.clock.nowSeconds())["lastResult"] == "applied");
    auto history = json::parse(fixture.get("/imports")->body)["imports"];
    REQUIRE(history.size() == 1);
    CHECK(history[0]["source"] == "pull " + shop.url("/private.csv"));
    CHECK(history[0]["inserted"] == 2);

    fixture.clock.advance(60);
    auto pulled = fixture.post("/pull-sources/default/pull", json::object());
    REQUIRE(pulled->status == 202);
    CHECK(awaitRun(json::parse(pulled->body)["requestedAt"])["lastRunAt"] == fixture.clock.nowSeconds());
    CHECK(json::parse(fixture.get("/imports")->body)["imports"].size() == 2);
    (*runtime)->scheduler().stop();
}

TEST_CASE("Console feeds: an uploaded file is imported like a push: rows, row errors, held full feeds, catalog size") {
    FeedsFixture fixture;
    // Refused before anything is read or recorded, each problem named.
    auto bad = fixture.upload("sku\nA\n", "?delimiter=%3B%3B&delta=maybe&feed=Bad%20Feed", "application/json");
    REQUIRE(bad->status == 400);
    CHECK(fieldsOf(bad) == std::vector<std::string>{"feed", "delimiter", "delta", "file"});
    CHECK(fixture.upload("")->status == 400);
    CHECK(json::parse(fixture.get("/imports")->body)["imports"].empty());

    std::string firstFeed = test::feedCsv({kHeader, row("A"), row("B"), row("C"), row("D", "cheap")});
    CHECK(firstFeed.size() > kMaxRequestBytes);  // streamed to the file store, as pushes are
    auto first = fixture.awaitImport(fixture.uploadOk(firstFeed));
    CHECK(first["status"] == "applied");
    CHECK(first["source"] == "console");
    CHECK(first["rowsRead"] == 4);
    CHECK(first["rejected"] == 1);
    CHECK(first["inserted"] == 3);
    auto errors = fixture.get("/imports/" + std::to_string(first["id"].get<int64_t>()) + "/errors.csv");
    CHECK(errors->body.find("retail-price") != std::string::npos);

    fixture.clock.advance(3600);
    auto second = fixture.awaitImport(fixture.uploadOk(test::feedCsv({kHeader, row("A"), row("B"), row("C"), row("E")})));
    CHECK(second["status"] == "applied");
    // A full feed that would delete most of the catalog is held, as a push would be.
    auto held = fixture.awaitImport(fixture.uploadOk(test::feedCsv({kHeader, row("A")})));
    CHECK(held["status"] == "held");

    json points = json::parse(fixture.get("/catalog-size")->body)["points"];
    REQUIRE(points.size() == 2);  // the held import changed nothing
    CHECK(points[0]["products"] == 3);
    CHECK(points[1]["products"] == 4);
    CHECK(points[1]["at"].get<int64_t>() - points[0]["at"].get<int64_t>() == 3600);
    CHECK(points[1]["importId"] == second["id"]);
}

TEST_CASE("Feed freshness: stale past twice the pull interval, or 48 hours for a pushed feed") {
    struct Case {
        const char* name;
        int64_t age;
        std::optional<int64_t> interval;
        FeedState state;
    };
    const int64_t hour = 3600;
    const std::vector<Case> cases = {
        {"pushed, a day old", 24 * hour, std::nullopt, FeedState::Fresh},
        {"pushed, exactly 48 h", 48 * hour, std::nullopt, FeedState::Fresh},
        {"pushed, 48 h and a second", 48 * hour + 1, std::nullopt, FeedState::Stale},
        {"hourly pull, 2 h old", 2 * hour, hour, FeedState::Fresh},
        {"hourly pull, 2 h 1 s old", 2 * hour + 1, hour, FeedState::Stale},
        {"daily pull, 47 h old", 47 * hour, 24 * hour, FeedState::Fresh},
        {"daily pull, 49 h old", 49 * hour, 24 * hour, FeedState::Stale},
    };
    const int64_t now = 1'800'000'000;
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto freshness = FeedFreshness::of({now - c.age, c.interval}, now);
        CHECK(freshness.state == c.state);
        CHECK(freshness.ageSeconds == c.age);
    }
    CHECK(FeedFreshness::of({0, std::nullopt}, now).state == FeedState::Never);

    // The same rule through the API, which also says how the shop pushes.
    FeedsFixture fixture;
    auto empty = json::parse(fixture.get("/feeds")->body);
    CHECK(empty["feeds"].empty());
    auto overview = [&] { return json::parse(fixture.server.client().Get("/operator/api/feeds", fixture.session())->body)["tenants"][0]; };
    CHECK(overview()["state"] == "none");
    CHECK(empty["push"]["headers"]["x-api-id"] == fixture.apiId);
    CHECK(empty["push"]["headers"]["x-api-secret"] == "<API secret>");
    CHECK(empty["push"]["uploadsUrl"].get<std::string>().find("/feeds/uploads") != std::string::npos);
    fixture.awaitImport(fixture.uploadOk(test::feedCsv({kHeader, row("A")})));
    auto feedOf = [&] { return json::parse(fixture.get("/feeds")->body)["feeds"][0]; };
    CHECK(feedOf()["state"] == "fresh");
    CHECK(feedOf()["delivery"] == "push");
    CHECK(feedOf()["catalogProducts"] == 1);
    CHECK(overview()["state"] == "fresh");
    fixture.clock.advance(48 * hour + 1);
    fixture.signIn();
    CHECK(feedOf()["state"] == "stale");
    CHECK(feedOf()["ageSeconds"] == 48 * hour + 1);
    CHECK(overview()["state"] == "stale");
    CHECK(overview()["staleFeeds"] == json::array({"default"}));
    REQUIRE(fixture.post("/pull-sources", {{"url", "https://shop.example/feed.csv"}, {"every", "1d"}})->status == 201);
    CHECK(feedOf()["delivery"] == "pull");
    CHECK(feedOf()["staleAfterSeconds"] == 48 * hour);
    CHECK(feedOf()["state"] == "stale");
    REQUIRE(fixture.patch("/pull-sources/default", {{"every", "2d"}})->status == 200);
    CHECK(feedOf()["state"] == "fresh");
}

TEST_CASE("Feeds page: each feed's lifecycle and the unknown SKUs of a stock-and-price feed (ADR 0070)") {
    FeedsFixture fixture;
    int64_t full = fixture.uploadOk(test::feedCsv({kHeader, row("A"), row("B")}));
    REQUIRE(fixture.awaitImport(full)["status"] == "applied");
    auto response = fixture.upload(test::feedCsv({{"sku", "stock"}, {"A", "0"}, {"NEW", "3"}}), "?feed=stock");
    REQUIRE(response->status == 202);
    json stock = fixture.awaitImport(json::parse(response->body)["importId"]);
    CHECK(stock["status"] == "applied");
    CHECK(stock["unknownSkus"] == 1);
    CHECK(stock["describesProducts"] == false);

    std::map<std::string, json> byFeed;
    json feeds = json::parse(fixture.get("/feeds")->body)["feeds"];
    for (const auto& feed : feeds) byFeed[feed["feed"]] = feed;
    REQUIRE(byFeed.size() == 2);
    CHECK(byFeed["default"]["describesProducts"] == true);
    CHECK(byFeed["default"]["unknownSkus"] == 0);
    CHECK(byFeed["stock"]["describesProducts"] == false);
    CHECK(byFeed["stock"]["unknownSkus"] == 1);
    // The unknown SKU is in the import's row errors (and their CSV), with its line.
    auto errors = fixture.get("/imports/" + stock["id"].dump() + "/errors.csv");
    REQUIRE(errors->status == 200);
    CHECK(errors->body.find("unknown_sku") != std::string::npos);
    CHECK(errors->body.find("NEW") != std::string::npos);
}
