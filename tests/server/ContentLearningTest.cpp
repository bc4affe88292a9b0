// Issue 21, learning quick and observable (ADR 0074): purchases sent to POST /events reach the
// content within the stated bound without anyone asking, and "learned up to" (orders, time of
// the newest) is in the operator API, which can also be asked to learn now and answer after,
// and in /metrics per tenant.
#include <doctest/doctest.h>

#include <chrono>
#include <tuple>
#include <thread>

#include <nlohmann/json.hpp>

#include <stdlib.h>

#include <fstream>
#include <sstream>

#include "ChildProcess.hpp"
#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"
#include "tenant/TenantService.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::string kOperatorKey = "operator-key-for-learning-tests-0123";

struct LearningFixture {
    test::TempDir dir;
    test::RunningServer server;
    Tenant tenant;

    explicit LearningFixture(ServerOptions options) : server(dir.path(), nullptr, withoutRateLimits(options)) {
        tenant = TenantService(server.storage->tenants()).create("Shop")->tenant;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(kOperatorKey)}));
        auto feed = test::feedCsv({{"sku", "main-sku", "stock", "name", "retail-price", "category-path"},
                                   {"JEANS-M", "JEANS", "3", "Jeans", "4000", "Women > Bottomwear > Jeans"},
                                   {"TEE-M", "TEE", "3", "Tee", "2000", "Women > Topwear > Tshirts"},
                                   {"BELT-M", "BELT", "3", "Belt", "1500", "Women > Accessories > Belts"}});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed.csv", feed)));
        REQUIRE(server.services->contentIndex().snapshot(tenant.id));  // content loaded, as after the first widget
    }
    static ServerOptions withoutRateLimits(ServerOptions options) {
        options.events.rateLimit.perSecond = 0;
        options.events.purchasesPerAddress.perSecond = 0;
        return options;
    }
    void purchase(int orders) {
        json events = json::array();
        for (int i = 0; i < orders; ++i)
            events.push_back({{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", "o-" + std::to_string(i)},
                              {"products", json::array({{{"sku", "JEANS-M"}, {"amount", 1}, {"price", 4000}},
                                                        {{"sku", "BELT-M"}, {"amount", 1}, {"price", 1500}}})}});
        auto response = server.client().Post("/events", {{"x-api-id", tenant.apiId}}, json{{"events", events}}.dump(), "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 200);
    }
    json learning(bool learnNow) {
        const std::string path = "/operator/api/tenants/" + tenant.apiId + "/content/learning";
        httplib::Headers auth{{"Authorization", "Bearer " + kOperatorKey}};
        auto response = learnNow ? server.client().Post(path, auth, "", "application/json") : server.client().Get(path, auth);
        REQUIRE(response);
        INFO(response->body);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
    std::string metrics() {
        auto response = server.client().Get("/metrics");
        REQUIRE(response);
        return response->body;
    }
};

}  // namespace

TEST_CASE("Learning: the operator API says up to where content learned, learns now when asked, and /metrics shows it") {
    ServerOptions options;
    options.content.purchaseRefreshSeconds = 3600;  // only the explicit request learns here
    LearningFixture fixture(options);
    CHECK(fixture.learning(false) == json{{"ordersLearned", 0}, {"lastOrderLearnedAt", nullptr}});
    const auto before = std::chrono::system_clock::now();
    fixture.purchase(25);
    CHECK(fixture.learning(false)["ordersLearned"] == 0);  // arrived, not learned yet

    json learned = fixture.learning(true);
    CHECK(learned["ordersLearned"] == 25);
    const int64_t at = learned["lastOrderLearnedAt"].get<int64_t>();
    CHECK(at >= std::chrono::duration_cast<std::chrono::seconds>(before.time_since_epoch()).count() - 1);
    CHECK(fixture.learning(false) == learned);
    // What was learned is what answers: the belt bought with the jeans is the set's first position.
    auto snapshot = fixture.server.services->contentIndex().snapshot(fixture.tenant.id);
    REQUIRE(snapshot);
    CHECK((*snapshot)->purchases().ready());

    const std::string page = fixture.metrics();
    CHECK(page.find("svc_content_learned_orders{tenant=\"" + fixture.tenant.apiId + "\"} 25") != std::string::npos);
    CHECK(page.find("svc_content_learned_last_order_timestamp_seconds{tenant=\"" + fixture.tenant.apiId + "\"} " + std::to_string(at)) !=
          std::string::npos);

    // Another tenant's operator API path with an unknown API ID is refused, naming it.
    auto unknown = fixture.server.client().Get("/operator/api/tenants/no-such-tenant/content/learning",
                                               {{"Authorization", "Bearer " + kOperatorKey}});
    REQUIRE(unknown);
    CHECK(unknown->status == 404);
    auto anonymous = fixture.server.client().Get("/operator/api/tenants/" + fixture.tenant.apiId + "/content/learning");
    REQUIRE(anonymous);
    CHECK(anonymous->status == 401);
}

TEST_CASE("Learning: a restarted server still says up to where content learned, before its first build (fails without the stored figure)") {
    ServerOptions options;
    options.content.purchaseRefreshSeconds = 3600;
    LearningFixture fixture(options);
    fixture.purchase(4);
    json learned = fixture.learning(true);
    REQUIRE(learned["ordersLearned"] == 4);
    // A new index over the same data dir is what a restart starts with: nothing built yet.
    ContentIndex restarted(fixture.server.storage->catalog(), fixture.server.storage->content(), &fixture.server.storage->events(),
                           fixture.server.storage->clock());
    restarted.start();
    auto figures = restarted.learned();
    restarted.stop();
    REQUIRE(figures.size() == 1);
    CHECK(figures[0].tenantId == fixture.tenant.id);
    CHECK(figures[0].orders == 4);
    CHECK(figures[0].lastOrderReceivedAt == learned["lastOrderLearnedAt"].get<int64_t>());
}

TEST_CASE("Learning: purchases reach the content within the refresh bound without being asked") {
    ServerOptions options;
    options.content.purchaseRefreshSeconds = 1;
    options.content.pollMilliseconds = 100;
    LearningFixture fixture(options);
    fixture.purchase(3);
    const auto started = std::chrono::steady_clock::now();
    json learned;
    while (std::chrono::steady_clock::now() - started < std::chrono::seconds(10)) {
        learned = fixture.learning(false);
        if (learned["ordersLearned"] == 3) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(learned["ordersLearned"] == 3);
    // The bound (1 s) plus a poll and a build of three articles, with room for a loaded machine.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("Learning: svc-server content status asks the running server, --learn waits for learning") {
    ServerOptions options;
    options.content.purchaseRefreshSeconds = 3600;
    LearningFixture fixture(options);
    fixture.purchase(4);
    auto run = [&](std::vector<std::string> extra, const char* key) {
        if (key) setenv("SVC_OPERATOR_KEY", key, 1);
        else unsetenv("SVC_OPERATOR_KEY");
        const std::string out = fixture.dir.path() + "/content-cli-stdout.txt";
        const std::string err = fixture.dir.path() + "/content-cli-stderr.txt";
        std::vector<std::string> args{"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"" + err + "\"", SVC_SERVER_BINARY, "content", "status",
                                      "--api-id", fixture.tenant.apiId, "--server",
                                      "http://127.0.0.1:" + std::to_string(fixture.server.server->port())};
        args.insert(args.end(), extra.begin(), extra.end());
        test::ChildProcess child(args, out);
        int code = child.wait();
        unsetenv("SVC_OPERATOR_KEY");
        auto read = [](const std::string& path) {
            std::ifstream file(path);
            std::stringstream text;
            text << file.rdbuf();
            return text.str();
        };
        return std::make_tuple(code, read(out), read(err));
    };
    auto [code, out, err] = run({}, kOperatorKey.c_str());
    REQUIRE(code == 0);
    CHECK(json::parse(out)["ordersLearned"] == 0);
    std::tie(code, out, err) = run({"--learn"}, kOperatorKey.c_str());
    REQUIRE(code == 0);
    CHECK(json::parse(out)["ordersLearned"] == 4);
    CHECK(json::parse(out)["apiId"] == fixture.tenant.apiId);
    std::tie(code, out, err) = run({}, nullptr);
    CHECK(code == 1);
    CHECK(err.find("SVC_OPERATOR_KEY") != std::string::npos);
    std::tie(code, out, err) = run({}, "not-a-key");
    CHECK(code == 1);
    CHECK(err.find("Authorization") != std::string::npos);
}
