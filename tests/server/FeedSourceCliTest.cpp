// `svc-server feed source add|list|remove|run` as an operator uses it: the real binary against
// a real loopback feed server; refusals name the option; credentials never leave the process.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

struct Run {
    int exitCode;
    std::string out;
    std::string err;
};

struct SourceCli {
    test::TempDir dir;
    std::string apiId;

    static std::string read(const std::string& path) {
        std::ifstream file(path);
        std::stringstream text;
        text << file.rdbuf();
        return text.str();
    }
    Run run(std::vector<std::string> arguments) {
        arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
        std::string out = dir.path() + "/out.txt";
        std::string err = dir.path() + "/err.txt";
        arguments.insert(arguments.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$SVC_ERR\""});
        setenv("SVC_ERR", err.c_str(), 1);
        test::ChildProcess child(arguments, out);
        int code = child.wait();
        return {code, read(out), read(err)};
    }
    SourceCli() {
        auto created = run({"tenant", "create", "--data-dir", dir.path(), "--name", "Pull shop"});
        REQUIRE(created.exitCode == 0);
        apiId = json::parse(created.out)["apiId"];
    }
    Run source(const std::string& command, std::vector<std::string> arguments) {
        arguments.insert(arguments.begin(), {"feed", "source", command, "--data-dir", dir.path(), "--api-id", apiId});
        return run(arguments);
    }
};

}  // namespace

TEST_CASE("feed source add refuses bad input naming the option and stores nothing") {
    SourceCli cli;
    struct Case {
        std::vector<std::string> arguments;
        std::string message;
    };
    const std::vector<Case> cases{
        {{"--url", "sftp://shop.example/feed.csv"}, "--url: 'sftp://shop.example/feed.csv' is not an absolute http://, https:// or ftp:// URL"},
        {{"--url", "https://me:pw@shop.example/feed.csv"}, "--url: the URL contains user information"},
        {{"--url", "https://shop.example/feed.csv", "--every", "10m", "--delta"}, "--every: 10m is too often; a delta feed may be pulled at most every 15m"},
        {{"--url", "https://shop.example/feed.csv", "--every", "30m"}, "--every: 30m is too often; a full feed may be pulled at most every 1h"},
        {{"--url", "https://shop.example/feed.csv", "--every", "soon"}, "--every: 'soon' is not an interval"},
        {{"--url", "https://shop.example/feed.csv", "--feed", "Bad Name"}, "--feed: "},
        {{"--url", "https://shop.example/feed.csv", "--delimiter", ";;"}, "--delimiter: must be exactly one character"},
        {{"--url", "https://shop.example/feed.csv", "--username", "u", "--password-env", "SVC_TEST_NO_SUCH_VARIABLE"},
         "--password-env: the environment variable SVC_TEST_NO_SUCH_VARIABLE is not set"},
        {{"--url", "https://shop.example/feed.csv", "--password-env", "HOME"}, "--password-env: needs --username"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        auto result = cli.source("add", c.arguments);
        CHECK(result.exitCode == 1);
        CHECK(result.err.find("svc-server: error: " + c.message) != std::string::npos);
    }
    auto listed = cli.source("list", {});
    REQUIRE(listed.exitCode == 0);
    CHECK(json::parse(listed.out)["sources"].empty());
}

TEST_CASE("feed source add, list, run and remove against a loopback server with basic auth") {
    SourceCli cli;
    test::LoopbackFeedServer server;
    server.setFeed(test::feedCsv({{"sku", "name", "stock", "retail-price", "category-path"}, {"A", "Shirt", "2", "1000", "Men > Shirts"}}), "");
    setenv("SVC_TEST_FEED_PASSWORD", "s3cret", 1);
    auto added = cli.source("add", {"--url", server.url("/private.csv"), "--username", "shop", "--password-env", "SVC_TEST_FEED_PASSWORD"});
    REQUIRE(added.exitCode == 0);
    auto source = json::parse(added.out);
    CHECK(source["feed"] == "default");
    CHECK(source["every"] == "1d");
    CHECK(source["credentials"] == "set");
    CHECK(added.out.find("s3cret") == std::string::npos);
    CHECK(added.out.find("shop\"") == std::string::npos);

    auto again = cli.source("add", {"--url", server.url("/feed.csv")});
    CHECK(again.exitCode == 1);
    CHECK(again.err.find("--feed: the tenant's feed 'default' already has a pull source") != std::string::npos);
    auto stock = cli.source("add", {"--url", server.url("/feed.csv"), "--feed", "stock", "--delta", "--every", "15m"});
    REQUIRE(stock.exitCode == 0);

    auto listed = cli.source("list", {});
    REQUIRE(listed.exitCode == 0);
    auto sources = json::parse(listed.out)["sources"];
    REQUIRE(sources.size() == 2);
    CHECK(sources[0]["feed"] == "default");
    CHECK(sources[0]["credentials"] == "set");
    CHECK(sources[1]["feed"] == "stock");
    CHECK(sources[1]["credentials"] == "not set");
    CHECK(sources[1]["every"] == "15m");
    CHECK(listed.out.find("s3cret") == std::string::npos);

    // The guard refuses the loopback server unless the operator allows it.
    auto refused = cli.source("run", {});
    CHECK(refused.exitCode == 1);
    CHECK(refused.err.find("pull failed: SSRF: host 127.0.0.1 resolves to 127.0.0.1") != std::string::npos);
    auto pulled = cli.source("run", {"--outbound-allow", "127.0.0.1"});
    REQUIRE(pulled.exitCode == 0);
    auto record = json::parse(pulled.out);
    CHECK(record["status"] == "applied");
    CHECK(record["source"] == "pull " + server.url("/private.csv"));
    CHECK(pulled.out.find("s3cret") == std::string::npos);
    CHECK(pulled.err.find("s3cret") == std::string::npos);

    auto badAllow = cli.source("run", {"--outbound-allow", "10.0.0.0/40"});
    CHECK(badAllow.exitCode == 1);
    CHECK(badAllow.err.find("--outbound-allow: allow-list entry '10.0.0.0/40'") != std::string::npos);

    auto history = cli.run({"feed", "history", "--data-dir", cli.dir.path(), "--api-id", cli.apiId});
    REQUIRE(history.exitCode == 0);
    auto imports = json::parse(history.out)["imports"];
    REQUIRE(imports.size() == 2);
    CHECK(imports[0]["status"] == "applied");
    CHECK(imports[1]["status"] == "failed");

    REQUIRE(cli.source("remove", {"--feed", "stock"}).exitCode == 0);
    auto missing = cli.source("remove", {"--feed", "stock"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.err.find("--feed: the tenant has no pull source for feed 'stock'") != std::string::npos);
    CHECK(json::parse(cli.source("list", {}).out)["sources"].size() == 1);
}

TEST_CASE("serve refuses a bad --outbound-allow entry by name") {
    SourceCli cli;
    auto result = cli.run({"serve", "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0", "--outbound-allow", "not a host"});
    CHECK(result.exitCode == 1);
    CHECK(result.err.find("--outbound-allow: allow-list entry 'not a host'") != std::string::npos);
}

TEST_CASE("serve pulls a due source on its own, through the operator's allow-list") {
    SourceCli cli;
    test::LoopbackFeedServer server;
    server.setFeed(test::feedCsv({{"sku", "name", "stock", "retail-price", "category-path"}, {"A", "Shirt", "2", "1000", "Men > Shirts"}}),
                   "\"v1\"");
    REQUIRE(cli.source("add", {"--url", server.url("/feed.csv")}).exitCode == 0);
    test::ChildProcess serve({SVC_SERVER_BINARY, "serve", "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0", "--outbound-allow",
                              "127.0.0.1"});
    REQUIRE(serve.started());
    json imports = json::array();
    // Until the pull's import has finished: history lists it while it is still running.
    auto finished = [&imports] { return !imports.empty() && imports[0]["status"] != "running" && imports[0]["status"] != "queued"; };
    for (int attempt = 0; attempt < 100 && !finished(); ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        auto history = cli.run({"feed", "history", "--data-dir", cli.dir.path(), "--api-id", cli.apiId});
        if (history.exitCode == 0) imports = json::parse(history.out)["imports"];
    }
    serve.kill(SIGTERM);
    CHECK(serve.wait() == 0);
    REQUIRE(imports.size() == 1);
    CHECK(imports[0]["status"] == "applied");
    CHECK(imports[0]["source"] == "pull " + server.url("/feed.csv"));
    auto listed = json::parse(cli.source("list", {}).out)["sources"];
    CHECK(listed[0]["lastResult"] == "applied");
    CHECK(server.feedRequests == 1);
}
