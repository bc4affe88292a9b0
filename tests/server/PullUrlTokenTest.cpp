// A token in a pulled feed's URL (https://shop.example/feed.csv?token=SECRET) is a credential
// (issue 18, docs/adr/0061): it is sealed with the source's credentials, and every answer shows
// the URL with its query values redacted: the operator API (sources, history), the CLI
// (feed source add/list/run, feed history), the scheduler's log line, and the database.
// A real server, a real loopback shop that insists on the token, the real CLI binary.
#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "DataDirSql.hpp"
#include "ServerFixture.hpp"
#include "feed/PullRuntime.hpp"
#include "log/Log.hpp"
#include "operator/OperatorAccounts.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr const char* kSecret = "SECRET-feed-token-4711";
constexpr const char* kWrongSecret = "WRONG-feed-token-0815";
constexpr const char* kEmail = "tokens@example.com";
constexpr const char* kPassword = "token page password";

// A shop whose feed answers only with the right token in the query.
class TokenShop {
public:
    TokenShop() {
        server_.Get("/feed.csv", [this](const httplib::Request& request, httplib::Response& response) {
            ++requests;
            if (request.get_param_value("token") != kSecret) {
                response.status = 403;
                return;
            }
            response.set_content(test::feedCsv({{"sku", "name", "stock", "retail-price"}, {"A1", "Tee", "3", "1000"}}), "text/csv");
        });
        port = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~TokenShop() {
        server_.stop();
        thread_.join();
    }
    std::string url(const std::string& token) const {
        return "http://127.0.0.1:" + std::to_string(port) + "/feed.csv?token=" + token + "&format=csv";
    }
    int port = 0;
    std::atomic<int> requests{0};

private:
    httplib::Server server_;
    std::thread thread_;
};

std::string fileBytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    return bytes.str();
}

struct CliRun {
    int exitCode;
    std::string out;
    std::string err;
};

CliRun runCli(const std::string& dir, std::vector<std::string> arguments) {
    arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
    arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
    std::string out = dir + "/out.txt";
    std::string err = dir + "/err.txt";
    arguments.insert(arguments.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$SVC_ERR\""});
    setenv("SVC_ERR", err.c_str(), 1);
    test::ChildProcess child(arguments, out);
    int code = child.wait();
    return {code, fileBytes(out), fileBytes(err)};
}

}  // namespace

TEST_CASE("pull URL tokens: sealed, never shown by the operator API, the history, the scheduler's log or the database") {
    test::TempDir dir;
    test::ManualClock clock;
    ServerOptions options;
    options.console.passwordCost = PasswordCost::minimal();
    test::RunningServer server(dir.path(), &clock, options);
    {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->operators();
        REQUIRE(store);
        OperatorAccounts accounts(*store, storeStorage->rateLimits(), clock, PasswordCost::minimal());
        REQUIRE(accounts.createOperator(kEmail, kPassword));
    }
    auto signedIn = server.client().Post("/operator/api/session", json{{"email", kEmail}, {"password", kPassword}}.dump(), "application/json");
    REQUIRE(signedIn);
    REQUIRE(signedIn->status == 200);
    std::string setCookie = signedIn->get_header_value("Set-Cookie");
    httplib::Headers session{{"Cookie", setCookie.substr(0, setCookie.find(';'))},
                             {"X-CSRF-Token", json::parse(signedIn->body)["csrfToken"].get<std::string>()}};
    auto created = server.client().Post("/operator/api/tenants", session, json{{"name", "Token Shop"}}.dump(), "application/json");
    REQUIRE(created->status == 201);
    std::string base = "/operator/api/tenants/" + json::parse(created->body)["tenant"]["apiId"].get<std::string>();
    auto get = [&](const std::string& path) {
        auto response = server.client().Get(base + path, session);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return response->body;
    };

    TokenShop shop;
    // The server's log lines while the scheduler runs; stderr again however the test ends.
    std::ostringstream log;
    std::mutex logMutex;
    Log::divert([&](std::string_view line) {
        std::lock_guard lock(logMutex);
        log << line;
    });
    struct Capture {
        ~Capture() { Log::divert(nullptr); }
    } capture;
    auto runtime = PullRuntime::open(dir.path(), *server.storage, *server.keys, {"127.0.0.1:*"});
    REQUIRE(runtime);
    server.server->setPullWaker([scheduler = &(*runtime)->scheduler()] { scheduler->wake(); });
    (*runtime)->scheduler().start(std::chrono::hours(1));
    auto awaitRun = [&](int64_t since) {
        json source;
        for (int attempt = 0; attempt < 500; ++attempt) {
            source = json::parse(get("/pull-sources"))["sources"][0];
            if (source["lastRunAt"].get<int64_t>() >= since) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return source;
    };

    auto added = server.client().Post(base + "/pull-sources", session, json{{"url", shop.url(kSecret)}}.dump(), "application/json");
    REQUIRE(added);
    REQUIRE(added->status == 201);
    std::string shown = "http://127.0.0.1:" + std::to_string(shop.port) + "/feed.csv?token=\u2026&format=\u2026";
    CHECK(json::parse(added->body)["url"] == shown);
    CHECK(added->body.find(kSecret) == std::string::npos);
    // The shop answers only with the token: the pull applying proves it was sealed and sent.
    CHECK(awaitRun(clock.nowSeconds())["lastResult"] == "applied");
    CHECK(shop.requests == 1);

    // The console sends the URL back as shown, with another change: the token stays.
    clock.advance(60);
    auto same = server.client().Patch(base + "/pull-sources/default", session, json{{"url", shown}, {"every", "2h"}}.dump(),
                                      "application/json");
    REQUIRE(same);
    CHECK(same->status == 200);
    CHECK(json::parse(same->body)["url"] == shown);
    REQUIRE(server.client().Post(base + "/pull-sources/default/pull", session, "{}", "application/json")->status == 202);
    CHECK(awaitRun(clock.nowSeconds())["lastResult"] == "applied");
    CHECK(shop.requests == 2);

    // A wrong token: the failure is recorded, without the token.
    clock.advance(60);
    auto wrong = server.client().Patch(base + "/pull-sources/default", session, json{{"url", shop.url(kWrongSecret)}}.dump(),
                                       "application/json");
    REQUIRE(wrong);
    CHECK(wrong->status == 200);
    auto failed = awaitRun(clock.nowSeconds());
    CHECK(failed["lastResult"].get<std::string>().rfind("failed: ", 0) == 0);
    CHECK(shop.requests == 3);

    (*runtime)->scheduler().stop();
    Log::divert(nullptr);

    std::string sources = get("/pull-sources");
    std::string history = get("/imports");
    CHECK(json::parse(history)["imports"][0]["source"] == "pull " + shown);
    for (const std::string& secret : {std::string(kSecret), std::string(kWrongSecret)}) {
        CAPTURE(secret);
        CHECK(sources.find(secret) == std::string::npos);
        CHECK(history.find(secret) == std::string::npos);
        CHECK(log.str().find(secret) == std::string::npos);
        CHECK(test::DataDirSql::storedBytes(dir.path()).find(secret) == std::string::npos);
    }
    CHECK(log.str().find("pulled feed") != std::string::npos);  // the log was captured
}

TEST_CASE("pull URL tokens: the CLI's feed source add, list and run and feed history never print them; older sources are sealed") {
    test::TempDir dir;
    TokenShop shop;
    auto created = runCli(dir.path(), {"tenant", "create", "--data-dir", dir.path(), "--name", "CLI token shop"});
    REQUIRE(created.exitCode == 0);
    std::string apiId = json::parse(created.out)["apiId"];
    auto source = [&](const std::string& command, std::vector<std::string> arguments) {
        arguments.insert(arguments.begin(), {"feed", "source", command, "--data-dir", dir.path(), "--api-id", apiId});
        return runCli(dir.path(), arguments);
    };
    std::vector<CliRun> printed;
    printed.push_back(source("add", {"--url", shop.url(kSecret)}));
    REQUIRE(printed.back().exitCode == 0);
    CHECK(json::parse(printed.back().out)["url"].get<std::string>().find("token=\u2026") != std::string::npos);
    printed.push_back(source("list", {}));
    printed.push_back(source("run", {"--outbound-allow", "127.0.0.1:*"}));
    CHECK(printed.back().exitCode == 0);
    CHECK(shop.requests == 1);
    printed.push_back(runCli(dir.path(), {"feed", "history", "--data-dir", dir.path(), "--api-id", apiId}));
    CHECK(printed.back().exitCode == 0);
    for (const auto& run : printed) {
        CHECK(run.out.find(kSecret) == std::string::npos);
        CHECK(run.err.find(kSecret) == std::string::npos);
    }
    CHECK(test::DataDirSql::storedBytes(dir.path()).find(kSecret) == std::string::npos);

    // A source stored whole by an older svc: sealed when the pull runtime next opens, and still pulled with its token.
    int64_t tenantId = 0;
    {
        auto storage = test::openStorage(dir.path());
        auto* store = &storage->pullSources();
        auto tenant = storage->tenants().findByApiId(apiId);
        REQUIRE(tenant);
        REQUIRE(*tenant);
        tenantId = (*tenant)->id;
        REQUIRE(store->remove(tenantId, "default"));
        PullSource old;
        old.tenantId = (*tenant)->id;
        old.url = shop.url(kSecret);
        old.intervalSeconds = 86400;
        REQUIRE(store->add(old));
    }
    auto listedOld = source("list", {});
    CHECK(listedOld.out.find(kSecret) == std::string::npos);
    CHECK(source("run", {"--outbound-allow", "127.0.0.1:*"}).exitCode == 0);
    CHECK(shop.requests == 2);
    auto storeStorage = test::openStorage(dir.path());
    auto* store = &storeStorage->pullSources();
    REQUIRE(store);
    auto all = store->list(tenantId);
    REQUIRE(all);
    REQUIRE(all->size() == 1);
    CHECK(all->front().url.find(kSecret) == std::string::npos);
}
