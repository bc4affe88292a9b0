// Issue 19, "Metrics that an operator can alert on": every metric moved by real work (pushes,
// events, pulls, content rebuilds) on a real server, the whole page through promtool, and
// /metrics on a listener of its own (--metrics-listen).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "DataDirSql.hpp"
#include "PullTestSupport.hpp"
#include "ServerFixture.hpp"
#include "http/Metrics.hpp"
#include "recommend/ContentIndex.hpp"
#include "support/Promtool.hpp"
#include "support/Skip.hpp"

using namespace svc;
using nlohmann::json;

namespace {

// The value of one series ("name{labels}" exactly as rendered); nullopt when absent.
std::optional<double> seriesValue(const std::string& page, const std::string& series) {
    std::istringstream lines(page);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 && line[series.size()] == ' ') {
            return std::stod(line.substr(series.size() + 1));
        }
    }
    return std::nullopt;
}

double valueOf(const std::string& page, const std::string& series) {
    auto value = seriesValue(page, series);
    INFO(series);
    REQUIRE(value);
    return *value;
}


const std::vector<std::string> kHeader = {"sku", "name", "stock", "retail-price", "category-path", "image"};

std::string feedOf(int count, const std::string& image = "https://shop.example/p.jpg") {
    std::vector<std::vector<std::string>> rows{kHeader};
    for (int i = 0; i < count; ++i) rows.push_back({"S" + std::to_string(i), "Item " + std::to_string(i), "3", "1000", "Men > Shirts", image});
    return test::feedCsv(rows);
}

struct MetricsFixture {
    explicit MetricsFixture(ServerOptions options = {}) : server(dir.path(), &clock, options) {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
    }
    httplib::Headers credentials() const { return {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; }
    std::string metrics() {
        auto response = server.client().Get("/metrics");
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return response->body;
    }
    // Pushes a feed through the pre-signed URL and waits for the import's end; its status.
    std::string push(const std::string& csv) {
        std::string body = R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})";
        auto upload = server.client().Post("/feeds/uploads", credentials(), body, "application/json");
        REQUIRE(upload);
        REQUIRE(upload->status == 200);
        auto signed_ = json::parse(upload->body);
        std::string url = signed_["url"].get<std::string>();
        httplib::Headers headers;
        std::string contentType;
        for (const auto& [name, value] : signed_["headers"].items()) {
            if (name == "content-type") contentType = value.get<std::string>();
            else headers.emplace(name, value.get<std::string>());
        }
        auto put = server.client().Put(url.substr(url.find("/feeds/")), headers, csv, contentType.c_str());
        REQUIRE(put);
        REQUIRE(put->status == 200);
        int64_t importId = json::parse(put->body)["importId"].get<int64_t>();
        for (int attempt = 0; attempt < 400; ++attempt) {
            auto record = server.client().Get("/feeds/imports/" + std::to_string(importId), credentials());
            REQUIRE(record);
            std::string status = json::parse(record->body)["status"].get<std::string>();
            if (status != "queued" && status != "running") return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        FAIL("import did not finish");
        return "";
    }
    httplib::Result postEvents(const json& body) {
        return server.client().Post("/events", {{"x-api-id", tenant.apiId}}, body.dump(), "application/json");
    }

    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server;
    Tenant tenant;
    std::string secret;
};

json purchase(const std::string& orderId) {
    return {{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", orderId}, {"products", json::array({{{"sku", "S1"}, {"amount", 1}, {"price", 1999}}})}};
}

}  // namespace

TEST_CASE("Metrics: route labels and the API ID a request names come from fixed sets") {
    struct Case {
        const char* method;
        const char* path;
        const char* route;
        const char* apiId;  // requestedApiId with no header or parameter
    };
    const Case cases[] = {
        {"GET", "/abc-1/loader.js", "GET /:apiId/loader.js", "abc-1"},
        {"GET", "/abc-1/content", "GET /:apiId/content", "abc-1"},
        {"GET", "/abc-1/widgets.css", "GET /:apiId/widgets.css", "abc-1"},
        {"GET", "/abc-1/thumbs/0a.jpg", "GET /:apiId/thumbs/*", "abc-1"},
        {"GET", "/a/b/content", "GET other", ""},
        {"POST", "/events", "POST /events", ""},
        {"PUT", "/orders/o-1", "PUT /orders/:orderId", ""},
        {"POST", "/orders/o-1/returns", "POST /orders/:orderId/returns", ""},
        {"PUT", "/shops/abc-1/feed-1", "PUT /shops/:apiId/:feedId", "abc-1"},
        {"GET", "/operator/api/tenants/abc-1/imports", "GET /operator/api/*", "abc-1"},
        {"GET", "/operator/api/me", "GET /operator/api/*", ""},
        {"GET", "/console/feeds.html", "GET /console/*", ""},
        {"POST", "/feeds/imports/7/confirm", "POST /feeds/imports/:id/confirm", ""},
        {"POST", "/feeds/imports/7/junk", "POST other", ""},
        {"GET", "/readyz", "GET /readyz", ""},
        {"BREW", "/healthz", "OTHER /healthz", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.path);
        std::string route = routeLabel(c.method, c.path);
        CHECK(route == c.route);
        CHECK(requestedApiId(route, c.path, "", "") == c.apiId);
    }
    CHECK(requestedApiId("POST /graphql", "/graphql", "from-header", "") == "from-header");
    CHECK(requestedApiId("POST /events", "/events", "", "from-parameter") == "from-parameter");
}

TEST_CASE("Metrics: imports (applied, held, failed), their rows and duration, held and pending gauges, rebuilds, tenants, errors, files") {
    MetricsFixture fixture;
    std::string before = fixture.metrics();
    CHECK(valueOf(before, "svc_feed_imports_total{source=\"push\",outcome=\"applied\"}") == 0);
    CHECK(valueOf(before, "svc_feed_imports_held") == 0);
    CHECK(valueOf(before, "svc_feed_imports_pending{status=\"queued\"}") == 0);

    REQUIRE(fixture.push(feedOf(10)) == "applied");
    // The tenant's content is built on first use, then rebuilt after each applied import.
    auto content = fixture.server.client().Get("/" + fixture.tenant.apiId + "/content?w=SIMILAR&t=product&s=S1&i=");
    REQUIRE(content);
    REQUIRE(content->status == 200);
    REQUIRE(fixture.push(feedOf(12)) == "applied");
    fixture.server.services->contentIndex().catchUp();
    REQUIRE(fixture.push(feedOf(2)) == "held");  // 10 of 12 deleted: more than the allowed half
    REQUIRE(fixture.push("not;a;feed\n\"unterminated") == "failed");

    std::string after = fixture.metrics();
    CHECK(valueOf(after, "svc_feed_imports_total{source=\"push\",outcome=\"applied\"}") == 2);
    CHECK(valueOf(after, "svc_feed_imports_total{source=\"push\",outcome=\"held\"}") == 1);
    CHECK(valueOf(after, "svc_feed_imports_total{source=\"push\",outcome=\"failed\"}") == 1);
    CHECK(valueOf(after, "svc_feed_import_rows_total{source=\"push\",result=\"imported\"}") == 22);
    CHECK(valueOf(after, "svc_feed_import_duration_seconds_count{source=\"push\"}") == 4);
    CHECK(valueOf(after, "svc_feed_imports_held") == 1);
    CHECK(valueOf(after, "svc_content_rebuild_duration_seconds_count{kind=\"full\"}") >= 1);
    CHECK(valueOf(after, "svc_content_rebuild_duration_seconds_count{kind=\"incremental\"}") >= 1);
    CHECK(valueOf(after, "svc_content_tenants_loaded") == 1);

    // Per tenant: only tenants that exist; an unknown API ID adds no series but counts as an error.
    for (int i = 0; i < 3; ++i) REQUIRE(fixture.server.client().Get("/" + fixture.tenant.apiId + "/loader.js"));
    REQUIRE(fixture.server.client().Get("/no-such-tenant/loader.js"));
    std::string traffic = fixture.metrics();
    CHECK(valueOf(traffic, "svc_tenant_http_requests_total{tenant=\"" + fixture.tenant.apiId + "\"}") >= 3);
    CHECK(traffic.find("no-such-tenant") == std::string::npos);
    CHECK(valueOf(traffic, "svc_http_request_errors_total{route=\"GET /:apiId/loader.js\",class=\"4xx\"}") == 1);

    std::string catalog = "catalog/tenant-" + std::to_string(fixture.tenant.id);
    if (test::TestStorage::onPostgres()) {
        // The database and its event tables, as PostgreSQL counts them; no files or write-ahead logs of svc's own.
        CHECK(valueOf(traffic, "svc_database_size_bytes{database=\"svc\"}") > 0);
        CHECK(valueOf(traffic, "svc_database_size_bytes{database=\"events\"}") > 0);
        CHECK_FALSE(seriesValue(traffic, "svc_database_size_bytes{database=\"" + catalog + "\"}"));
        CHECK(traffic.find("svc_database_wal_size_bytes{") == std::string::npos);
    } else {
        // The database files, as the file system sees them.
        auto svcBytes = std::filesystem::file_size(fixture.dir.path() + "/svc.sqlite3");
        CHECK(valueOf(traffic, "svc_database_size_bytes{database=\"svc\"}") == static_cast<double>(svcBytes));
        CHECK(valueOf(traffic, "svc_database_size_bytes{database=\"" + catalog + "\"}") > 0);
        CHECK(valueOf(traffic, "svc_database_wal_size_bytes{database=\"svc\"}") > 0);
    }
}

TEST_CASE("Metrics: import queue depth counts queued and running imports") {
    MetricsFixture fixture;
    // A queued import the worker has not claimed yet: the record is the queue.
    auto* reader = &fixture.server.storage->metrics();
    auto record = [&](ImportStatus status, int64_t createdAt) {
        FeedImportRecord pushed;
        pushed.tenantId = fixture.tenant.id;
        pushed.source = "push";
        pushed.status = status;
        pushed.createdAt = createdAt;
        return pushed;
    };
    REQUIRE(fixture.server.storage->imports().create(record(ImportStatus::Running, 1)));
    for (int i = 0; i < 2; ++i) REQUIRE(fixture.server.storage->imports().create(record(ImportStatus::Queued, fixture.clock.nowSeconds() - 300)));
    auto queue = reader->importQueue();
    REQUIRE(queue);
    CHECK(queue->queued == 2);
    CHECK(queue->running == 1);
    CHECK(queue->held == 0);
    CHECK(queue->oldestQueuedAt == fixture.clock.nowSeconds() - 300);
}

TEST_CASE("Metrics: event commits (batch size, lag, the oldest uncommitted request) and purchases waiting to be booked") {
    MetricsFixture fixture;
    fixture.server.services->attributor().stop();  // booking waits until the test books
    auto stored = fixture.postEvents(purchase("O-1"));
    REQUIRE(stored);
    REQUIRE(stored->status == 200);
    auto batch = fixture.postEvents(json{{"events", json::array({purchase("O-2"), purchase("O-3")})}});
    REQUIRE(batch);
    REQUIRE(batch->status == 200);
    fixture.clock.advance(120);

    std::string page = fixture.metrics();
    CHECK(valueOf(page, "svc_event_commit_batch_events_count") >= 2);
    CHECK(valueOf(page, "svc_event_commit_batch_events_sum") == 3);
    CHECK(valueOf(page, "svc_event_commit_lag_seconds_count") == 2);
    CHECK(valueOf(page, "svc_purchases_unbooked") == 3);
    CHECK(valueOf(page, "svc_purchases_unbooked_oldest_age_seconds") >= 120);
    CHECK(valueOf(page, "svc_event_oldest_uncommitted_age_seconds") == 0);

    REQUIRE(fixture.server.services->attributor().catchUp());
    std::string booked = fixture.metrics();
    CHECK(valueOf(booked, "svc_purchases_unbooked") == 0);
    CHECK(valueOf(booked, "svc_purchases_unbooked_oldest_age_seconds") == 0);

    // A commit that cannot proceed (another connection holds the write lock, or on PostgreSQL
    // the orders' tables) shows as age.
    auto blocker = test::DataDirSql::open(fixture.dir.path(), "events.sqlite3");
    REQUIRE(blocker);
    REQUIRE(blocker->execute({"BEGIN IMMEDIATE", "BEGIN; LOCK TABLE orders, order_claims, order_lines IN EXCLUSIVE MODE"}));
    std::thread waiting([&] { CHECK(fixture.postEvents(purchase("O-4"))); });
    // Until the waiting batch has been held a second (a fixed pause here read the figure before
    // the batch reached the writer on a busy machine); the deadline ends only a wait that never ends.
    double stalled = 0;
    for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30); stalled < 1.0 && std::chrono::steady_clock::now() < until;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        stalled = valueOf(fixture.metrics(), "svc_event_oldest_uncommitted_age_seconds");
    }
    REQUIRE(blocker->execute("COMMIT"));
    waiting.join();
    CHECK(stalled >= 1.0);
    CHECK(valueOf(fixture.metrics(), "svc_event_oldest_uncommitted_age_seconds") == 0);
}

TEST_CASE("Metrics: pull failures and feed staleness per pull source") {
    MetricsFixture fixture;
    FetchLimits limits;
    limits.connectTimeoutMs = 2000;
    auto runtime = PullRuntime::open(fixture.dir.path(), *fixture.server.storage, *fixture.server.keys, {"127.0.0.1:*"}, limits);
    REQUIRE(runtime);
    (*runtime)->scheduler().setMetrics(&fixture.server.services->metrics());
    PullSource source;
    source.tenantId = fixture.tenant.id;
    source.feed = "default";
    source.url = "http://127.0.0.1:1/feed.csv";  // nothing listens on port 1
    source.intervalSeconds = 86400;
    source.createdAt = fixture.clock.nowSeconds();
    source.nextRunAt = source.createdAt;
    REQUIRE((*runtime)->sources().add(source));
    CHECK(valueOf(fixture.metrics(), "svc_feeds_stale") == 0);

    REQUIRE((*runtime)->scheduler().runDue() == 1);
    fixture.clock.advance(3 * 86400);  // never applied, added three days (more than twice the interval) ago
    std::string page = fixture.metrics();
    CHECK(valueOf(page, "svc_feed_pull_failures_total") == 1);
    CHECK(valueOf(page, "svc_feed_pulls_total{outcome=\"failed\"}") == 1);
    CHECK(valueOf(page, "svc_feed_seconds_since_import{tenant=\"" + fixture.tenant.apiId + "\",feed=\"default\",source=\"pull\"}") >= 3 * 86400);
    CHECK(valueOf(page, "svc_feed_max_seconds_since_import") >= 3 * 86400);
    CHECK(valueOf(page, "svc_feeds_stale") == 1);
}

// A shop that stops pushing is as stale as a pull that stops working (issue 19: "feed staleness").
TEST_CASE("Metrics: a pushed feed is stale 48 hours after its last applied import") {
    MetricsFixture fixture;
    const std::string pushedLabel = "svc_feed_seconds_since_import{tenant=\"" + fixture.tenant.apiId + "\",feed=\"default\",source=\"push\"}";
    CHECK(fixture.metrics().find(pushedLabel) == std::string::npos);  // no feed yet, nothing to watch
    REQUIRE(fixture.push(feedOf(3)) == "applied");
    std::string fresh = fixture.metrics();
    CHECK(valueOf(fresh, pushedLabel) < 60);
    CHECK(valueOf(fresh, "svc_feeds_stale") == 0);

    fixture.clock.advance(47 * 3600);
    CHECK(valueOf(fixture.metrics(), "svc_feeds_stale") == 0);
    fixture.clock.advance(2 * 3600);
    std::string late = fixture.metrics();
    CHECK(valueOf(late, pushedLabel) >= 49 * 3600);
    CHECK(valueOf(late, "svc_feed_max_seconds_since_import") >= 49 * 3600);
    CHECK(valueOf(late, "svc_feeds_stale") == 1);
}

TEST_CASE("Metrics: content behind a change, until the rebuild that includes it") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = test::TestStorage::open(dir.path(), clock);
    REQUIRE(storage);
    auto tenant = TenantService((*storage)->tenants()).create("Shop");
    REQUIRE(tenant);
    REQUIRE(test::importFeedFile(**storage, tenant->tenant, dir.path(), dir.file("feed.csv", feedOf(5))));
    ServiceMetrics metrics;
    // Not started: builds run only when the test asks, so "behind" lasts as long as it wants.
    ContentIndex index((*storage)->catalog(), (*storage)->content(), &(*storage)->events(), clock);
    index.setMetrics(&metrics);
    REQUIRE(index.snapshot(tenant->tenant.id));
    CHECK(index.freshness().tenantsLoaded == 1);
    CHECK(index.freshness().tenantsBehind == 0);

    index.contentChanged(tenant->tenant.id);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    auto behind = index.freshness();
    CHECK(behind.tenantsBehind == 1);
    CHECK(behind.maxBehindSeconds >= 1.0);
    CHECK(behind.maxAgeSeconds >= 1.0);

    REQUIRE(index.rebuild(tenant->tenant.id));
    auto current = index.freshness();
    CHECK(current.tenantsBehind == 0);
    CHECK(current.maxBehindSeconds == 0);
    CHECK(current.maxAgeSeconds < 1.0);
    ExpositionWriter out;
    metrics.render(out);
    CHECK(valueOf(out.text(), "svc_content_rebuild_duration_seconds_count{kind=\"full\"}") == 1);
    CHECK(valueOf(out.text(), "svc_content_rebuild_duration_seconds_count{kind=\"incremental\"}") == 1);
}

TEST_CASE("Metrics: the image bot's queue and failures") {
    ServerOptions options;
    ImageBotOptions bot;
    bot.allowList = {"127.0.0.1:*"};
    bot.limits.connectTimeoutMs = 1000;
    bot.politeness.maxAttempts = 1;
    options.imageBot = bot;
    MetricsFixture fixture(options);
    REQUIRE(fixture.server.services->imageBot());
    CHECK(valueOf(fixture.metrics(), "svc_imagebot_failures_total") == 0);
    REQUIRE(fixture.push(feedOf(3, "http://127.0.0.1:1/p.jpg")) == "applied");  // one URL, nothing listens there
    REQUIRE(fixture.server.services->imageBot()->waitIdle(std::chrono::seconds(20)));
    std::string page = fixture.metrics();
    CHECK(valueOf(page, "svc_imagebot_failures_total") == 1);
    CHECK(valueOf(page, "svc_imagebot_images_total{outcome=\"failed\"}") == 1);
    CHECK(valueOf(page, "svc_imagebot_queue_urls") == 0);
    CHECK(valueOf(page, "svc_imagebot_in_flight") == 0);
}

TEST_CASE("Metrics: the whole page after real traffic passes promtool check metrics" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, svc::test::havePromtool(), "promtool is not installed (Debian's prometheus package)")) {
    if (!test::havePromtool()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "promtool is not installed (Debian's prometheus package)");
    MetricsFixture fixture;
    REQUIRE(fixture.push(feedOf(4)) == "applied");
    REQUIRE(fixture.server.client().Get("/" + fixture.tenant.apiId + "/content?w=SIMILAR&t=product&s=S1&i="));
    REQUIRE(fixture.postEvents(purchase("P-1")));
    REQUIRE(fixture.server.client().Get("/nothing-here"));
    auto pullsStorage = test::openStorage(fixture.dir.path());
    auto* pulls = &pullsStorage->pullSources();
    REQUIRE(pulls);
    PullSource source;
    source.tenantId = fixture.tenant.id;
    source.url = "https://shop.example/feed.csv";
    source.intervalSeconds = 86400;
    source.createdAt = fixture.clock.nowSeconds();
    REQUIRE(pulls->add(source));
    std::string page = fixture.metrics();
    std::string path = fixture.dir.path() + "/metrics.txt";
    std::ofstream(path, std::ios::binary) << page;
    CHECK(test::promtool("check metrics < '" + path + "'") == "");
    // Every family the operations guide documents is on the page.
    for (const char* family : {"svc_http_requests_total", "svc_http_request_errors_total", "svc_tenant_http_requests_total",
                               "svc_http_request_duration_seconds", "svc_build_info", "svc_feed_import_duration_seconds",
                               "svc_feed_imports_total", "svc_feed_import_rows_total", "svc_feed_imports_pending", "svc_feed_imports_held",
                               "svc_feed_pull_failures_total", "svc_feed_seconds_since_import", "svc_feeds_stale",
                               "svc_event_commit_batch_events", "svc_event_commit_lag_seconds", "svc_event_oldest_uncommitted_age_seconds",
                               "svc_purchases_unbooked", "svc_ledger_quarantined_lines", "svc_content_rebuild_duration_seconds",
                               "svc_content_generation_age_seconds", "svc_content_behind_seconds", "svc_database_size_bytes",
                               "svc_database_wal_size_bytes"}) {
        CHECK_MESSAGE(page.find(std::string("# TYPE ") + family + " ") != std::string::npos, family);
    }
}

TEST_CASE("Metrics: --metrics-listen serves /metrics on its own listener, and the public port answers 404 for it") {
    SUBCASE("in process") {
        ServerOptions options;
        options.metricsPort = 0;
        MetricsFixture fixture(options);
        int metricsPort = fixture.server.server->metricsPort();
        REQUIRE(metricsPort > 0);
        REQUIRE(metricsPort != fixture.server.server->port());
        auto onPublic = fixture.server.client().Get("/metrics");
        REQUIRE(onPublic);
        CHECK(onPublic->status == 404);
        httplib::Client separate("127.0.0.1", metricsPort);
        auto onOwn = separate.Get("/metrics");
        REQUIRE(onOwn);
        CHECK(onOwn->status == 200);
        CHECK(onOwn->body.find("svc_build_info{") != std::string::npos);
        // The public port's 404 is counted once its answer is written (the logger runs after it).
        bool counted = false;
        for (int attempt = 0; attempt < 100 && !counted; ++attempt) {
            counted = seriesValue(separate.Get("/metrics")->body, "svc_http_requests_total{route=\"GET /metrics\",status=\"404\"}") == 1.0;
            if (!counted) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        CHECK(counted);
        CHECK(separate.Get("/healthz")->status == 404);  // nothing else there
    }
    SUBCASE("without it, /metrics stays on the main port") {
        MetricsFixture fixture;
        CHECK(fixture.server.server->metricsPort() == -1);
        CHECK(fixture.server.client().Get("/metrics")->status == 200);
    }
    SUBCASE("the real binary, the option from SVC_METRICS_LISTEN") {
        test::TempDir dir;
        std::string out = dir.path() + "/serve.txt";
        setenv("SVC_METRICS_LISTEN", "127.0.0.1:0", 1);
        test::ChildProcess serve({SVC_SERVER_BINARY, "serve", "--data-dir", dir.path() + "/data", "--listen", "127.0.0.1:0", "--no-image-bot"}, out);
        unsetenv("SVC_METRICS_LISTEN");
        auto portAfter = [&](const std::string& marker) -> int {
            for (int i = 0; i < 1000; ++i) {
                std::ifstream file(out);
                std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
                size_t at = text.find(marker);
                size_t end = at == std::string::npos ? at : text.find_first_not_of("0123456789", at + marker.size());
                if (at != std::string::npos && end != std::string::npos) return std::stoi(text.substr(at + marker.size(), end - at - marker.size()));
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            return -1;
        };
        int metricsPort = portAfter("metrics on http://127.0.0.1:");
        int mainPort = portAfter("listening on http://127.0.0.1:");
        REQUIRE(metricsPort > 0);
        REQUIRE(mainPort > 0);
        httplib::Client own("127.0.0.1", metricsPort);
        auto page = own.Get("/metrics");
        REQUIRE(page);
        CHECK(page->status == 200);
        CHECK(page->body.find("svc_database_size_bytes{database=\"events\"}") != std::string::npos);
        httplib::Client main("127.0.0.1", mainPort);
        CHECK(main.Get("/metrics")->status == 404);
        serve.kill(SIGTERM);
        CHECK(serve.wait() == 0);
    }
}

TEST_CASE("Metrics: deploy/prometheus/svc-alerts.yml passes promtool check rules and its unit tests" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, svc::test::havePromtool(), "promtool is not installed (Debian's prometheus package)")) {
    if (!test::havePromtool()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "promtool is not installed (Debian's prometheus package)");
    std::string dir = std::string(SVC_SOURCE_DIR) + "/deploy/prometheus";
    CHECK(test::promtool("check rules '" + dir + "/svc-alerts.yml'") == "");
    // The unit tests name the rules file relative to themselves.
    CHECK(test::promtool("test rules '" + dir + "/svc-alerts.test.yml'") == "");
    // Every metric an alert reads is one svc exposes (a renamed metric would silently never fire).
    std::ifstream rules(dir + "/svc-alerts.yml");
    std::string text((std::istreambuf_iterator<char>(rules)), std::istreambuf_iterator<char>());
    ServerOptions options;
    options.imageBot = ImageBotOptions{};  // its metrics are there only while it runs
    MetricsFixture fixture(options);
    std::string page = fixture.metrics();
    for (size_t at = text.find("svc_"); at != std::string::npos; at = text.find("svc_", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        size_t end = text.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789", at);
        std::string name = text.substr(at, end - at);
        for (const char* suffix : {"_bucket"}) {
            if (name.size() > 7 && name.compare(name.size() - 7, 7, suffix) == 0) name = name.substr(0, name.size() - 7);
        }
        CHECK_MESSAGE(page.find("# TYPE " + name + " ") != std::string::npos, name);
    }
}
