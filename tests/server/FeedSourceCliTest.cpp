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
    // On the data dir's stores (TestStorage.hpp).
    Run run(std::vector<std::string> arguments) {
        arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
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
    const std::string notAKey = cli.dir.file("not-a-key", "hello\n");
    struct Case {
        std::vector<std::string> arguments;
        std::string message;
    };
    const std::vector<Case> cases{
        {{"--url", "gopher://shop.example/feed.csv"},
         "--url: 'gopher://shop.example/feed.csv' is not an absolute http://, https://, ftp://, sftp:// or s3:// URL"},
        {{"--url", "sftp://shop.example/feed.csv"}, "--username: an sftp:// source needs the user to log in as"},
        {{"--url", "sftp://shop.example/feed.xml", "--username", "u"}, "--url: the file name must end in .csv or .csv.gz (an sftp:// file"},
        {{"--url", "ftp://shop.example/feeds/"}, "--url: the file name must end in .csv or .csv.gz (an ftp:// file"},
        {{"--url", "sftp://shop.example/feed.csv", "--username", "u"}, "--host-key: an sftp:// source needs the server's host key fingerprint"},
        {{"--url", "sftp://shop.example/feed.csv", "--username", "u", "--host-key", "MD5:16:27:ac"},
         "--host-key: 'MD5:16:27:ac' is not a host key fingerprint like SHA256:"},
        {{"--url", "https://shop.example/feed.csv", "--host-key", "SHA256:" + std::string(43, 'A')}, "--host-key: only sftp:// sources have a host key"},
        {{"--url", "https://shop.example/feed.csv", "--private-key-file", notAKey},
         "--private-key-file: only sftp:// sources log in with a key"},
        {{"--url", "sftp://shop.example/feed.csv", "--username", "u", "--host-key", "SHA256:" + std::string(43, 'A'), "--private-key-file",
          "/nonexistent/id_ed25519"},
         "--private-key-file: cannot read /nonexistent/id_ed25519"},
        {{"--url", "sftp://shop.example/feed.csv", "--username", "u", "--host-key", "SHA256:" + std::string(43, 'A'), "--private-key-file",
          notAKey},
         "--private-key-file: " + notAKey + " is not an SSH private key"},
        {{"--url", "s3://Shop_Feeds/feed.csv"}, "--url: 'Shop_Feeds' is not a bucket name"},
        {{"--url", "s3://shop-feeds/feed.csv?bucket=x"}, "--url: unknown parameter 'bucket'"},
        {{"--url", "s3://shop-feeds/feed.csv", "--username", "AKIAEXAMPLE"},
         "--password-env: an S3 access key (--username) needs its secret access key"},
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
    auto pulled = cli.source("run", {"--outbound-allow", "127.0.0.1:*"});
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

TEST_CASE("feed source add seals SFTP logins with the pinned host key and S3 keys; neither is ever printed") {
    SourceCli cli;
    setenv("SVC_TEST_SFTP_PASSWORD", "sftp-s3cret", 1);
    setenv("SVC_TEST_S3_SECRET", "s3-s3cret-key", 1);
    int closedPort = test::unusedLoopbackPort();
    std::string sftpUrl = "sftp://127.0.0.1:" + std::to_string(closedPort) + "/feeds/feed.csv";
    std::string keyFile = cli.dir.file("id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n");
    auto sftp = cli.source("add", {"--url", sftpUrl, "--username", "shop", "--password-env", "SVC_TEST_SFTP_PASSWORD", "--host-key",
                                   "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s", "--private-key-file", keyFile});
    REQUIRE(sftp.exitCode == 0);
    CHECK(json::parse(sftp.out)["credentials"] == "set");
    auto s3 = cli.source("add", {"--feed", "stock", "--delta", "--url", "s3://shop-feeds/stock.csv?region=eu-central-1", "--username",
                                 "AKIAEXAMPLE", "--password-env", "SVC_TEST_S3_SECRET"});
    REQUIRE(s3.exitCode == 0);
    auto listed = cli.source("list", {});
    REQUIRE(listed.exitCode == 0);
    auto sources = json::parse(listed.out)["sources"];
    REQUIRE(sources.size() == 2);
    CHECK(sources[0]["url"] == sftpUrl);
    CHECK(sources[0]["credentials"] == "set");
    CHECK(sources[1]["url"] == "s3://shop-feeds/stock.csv?region=eu-central-1");
    CHECK(sources[1]["credentials"] == "set");
    for (const auto& output : {sftp.out, sftp.err, s3.out, s3.err, listed.out}) {
        CHECK(output.find("s3cret") == std::string::npos);
        CHECK(output.find("AKIAEXAMPLE") == std::string::npos);
        CHECK(output.find("PRIVATE KEY") == std::string::npos);
        CHECK(output.find("b3BlbnNzaC1rZXktdjE") == std::string::npos);
    }
    // The user and the pinned key reached the puller (without them it refuses before connecting): it gets as far as the connection.
    auto run = cli.source("run", {"--outbound-allow", "127.0.0.1:*"});
    CHECK(run.exitCode == 1);
    CHECK(run.err.find("pull failed: refused: could not connect to 127.0.0.1") != std::string::npos);
    CHECK(run.err.find("s3cret") == std::string::npos);
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
    test::ChildProcess serve(test::TestStorage::withDatabaseUrl(
        {SVC_SERVER_BINARY, "serve", "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0", "--outbound-allow", "127.0.0.1:*"}));
    REQUIRE(serve.started());
    json imports = json::array();
    // Until the pull's import has finished: its history entry exists (as "running") while the import runs.
    auto finished = [&] { return !imports.empty() && imports[0]["status"] != "running" && imports[0]["status"] != "queued"; };
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
