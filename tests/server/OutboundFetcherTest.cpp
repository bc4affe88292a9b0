// The outbound fetcher against a real HTTP server on loopback: the request-forgery guard
// (before connecting, after DNS, after every redirect), the allow-list, redirects, limits,
// gzip, conditional requests and credentials that never follow a redirect to another origin.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "LoopbackFeedServer.hpp"
#include "ServerFixture.hpp"
#include "net/OutboundFetcher.hpp"
#include "text/StringUtil.hpp"

using namespace svc;

namespace {

// Tests never wait the production limit of 5 minutes for a transfer.
FetchLimits testLimits() {
    FetchLimits limits;
    limits.totalTimeoutMs = 20'000;
    return limits;
}

OutboundFetcher fetcherAllowing(const std::vector<std::string>& allowList, FetchLimits limits = testLimits()) {
    auto policy = AddressPolicy::withAllowList(allowList);
    REQUIRE(policy);
    return OutboundFetcher(*policy, limits);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Fixture {
    test::TempDir dir;
    test::LoopbackFeedServer server;
    FetchRequest request(const std::string& url) {
        FetchRequest request;
        request.url = url;
        request.bodyPath = dir.path() + "/body";
        return request;
    }
};

}  // namespace

TEST_CASE("the guard refuses loopback, private, metadata and IPv6 loopback addresses unless allow-listed") {
    Fixture f;
    f.server.setFeed("sku\n1\n", "");
    auto fetcher = fetcherAllowing({});
    struct Case {
        std::string url;
        std::string address;
        std::string kind;
    };
    const std::vector<Case> cases{
        {f.server.url("/feed.csv"), "127.0.0.1", "loopback"},
        {"http://10.0.0.1/feed.csv", "10.0.0.1", "private"},
        {"http://169.254.169.254/latest/meta-data/", "169.254.169.254", "cloud metadata"},
        {"http://[::1]:" + std::to_string(f.server.port) + "/feed.csv", "::1", "loopback"},
        {"http://[::ffff:127.0.0.1]:" + std::to_string(f.server.port) + "/feed.csv", "127.0.0.1", "loopback"},
        {"http://0.0.0.0:" + std::to_string(f.server.port) + "/feed.csv", "0.0.0.0", "unspecified"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.url);
        auto response = fetcher.fetch(f.request(c.url));
        REQUIRE_FALSE(response);
        CHECK(response.error().code == ErrorCode::PermissionDenied);
        CHECK(response.error().message.rfind("SSRF: ", 0) == 0);
        CHECK(response.error().message.find(c.address) != std::string::npos);
        CHECK(response.error().message.find(c.kind) != std::string::npos);
    }
    CHECK(f.server.feedRequests == 0);  // nothing reached the server

    // The same loopback server, allow-listed, is fetched.
    auto allowed = fetcherAllowing({"127.0.0.1:*"}).fetch(f.request(f.server.url("/feed.csv")));
    REQUIRE(allowed);
    CHECK(allowed->status == 200);
    CHECK(readFile(f.dir.path() + "/body") == "sku\n1\n");
    CHECK(f.server.feedRequests == 1);
}

TEST_CASE("a host name is checked after resolution: localhost is loopback") {
    Fixture f;
    f.server.setFeed("sku\n1\n", "");
    auto refused = fetcherAllowing({}).fetch(f.request(f.server.url("/feed.csv", "localhost")));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("host localhost resolves to") != std::string::npos);
    // Allowing the host name lets it reach whatever it resolves to.
    auto allowed = fetcherAllowing({"localhost:*"}).fetch(f.request(f.server.url("/feed.csv", "localhost")));
    REQUIRE(allowed);
    CHECK(allowed->status == 200);
}

TEST_CASE("every redirect target is checked again: an allowed host cannot redirect to a refused address") {
    Fixture f;
    f.server.setFeed("sku\n1\n", "");
    auto fetcher = fetcherAllowing({"localhost"});
    std::string port = std::to_string(f.server.port);
    for (std::string target : {"http://127.0.0.1:" + port + "/feed.csv", std::string("http://10.0.0.1/feed.csv"),
                               std::string("http://169.254.169.254/latest/meta-data/"), "http://[::1]:" + port + "/feed.csv"}) {
        CAPTURE(target);
        auto response = fetcher.fetch(f.request(f.server.url("/redirect?to=" + urlEncode(target), "localhost")));
        REQUIRE_FALSE(response);
        CHECK(response.error().code == ErrorCode::PermissionDenied);
        CHECK(response.error().message.rfind("SSRF: ", 0) == 0);
    }
    CHECK(f.server.feedRequests == 0);
    // Allow-listing the target as well lets the redirect through.
    auto both = fetcherAllowing({"localhost:*", "127.0.0.1:*"});
    auto followed = both.fetch(f.request(f.server.url("/redirect?to=" + urlEncode(f.server.url("/feed.csv")), "localhost")));
    REQUIRE(followed);
    CHECK(followed->redirects == 1);
    CHECK(followed->finalUrl == f.server.url("/feed.csv"));
    CHECK(readFile(f.dir.path() + "/body") == "sku\n1\n");
}

TEST_CASE("an allow-list entry opens the port it names; a bare host or address only the default ports 80 and 443") {
    Fixture f;
    f.server.setFeed("sku\n1\n", "");
    std::string port = std::to_string(f.server.port);
    // The loopback server listens on an ephemeral port, never 80 or 443: a bare entry must not reach it.
    for (const std::vector<std::string>& bare : {std::vector<std::string>{"127.0.0.1"}, {"localhost"}, {"127.0.0.0/8"}}) {
        CAPTURE(bare.front());
        auto refused = fetcherAllowing(bare).fetch(f.request(f.server.url("/feed.csv", bare.front() == "localhost" ? "localhost" : "127.0.0.1")));
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == ErrorCode::PermissionDenied);
        CHECK(refused.error().message.find("port " + port + " is not allowed") != std::string::npos);
    }
    CHECK(f.server.feedRequests == 0);
    // The entry with the server's port, or a range holding it, is fetched; another port is not.
    for (const std::string& entry : std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port, "127.0.0.0/8:" + port,
                                                             "127.0.0.1:1-65535", "127.0.0.1:*"}) {
        CAPTURE(entry);
        std::string host = entry.rfind("localhost", 0) == 0 ? "localhost" : "127.0.0.1";
        CHECK(fetcherAllowing({entry}).fetch(f.request(f.server.url("/feed.csv", host))));
    }
    std::string other = std::to_string(f.server.port == 65535 ? 1 : f.server.port + 1);
    CHECK_FALSE(fetcherAllowing({"127.0.0.1:" + other}).fetch(f.request(f.server.url("/feed.csv"))));
}

TEST_CASE("redirects are limited, and only to http and https") {
    Fixture f;
    auto fetcher = fetcherAllowing({"127.0.0.1:*"});
    auto loop = fetcher.fetch(f.request(f.server.url("/loop")));
    REQUIRE_FALSE(loop);
    CHECK(loop.error().message.rfind("redirects: more than 5 redirects", 0) == 0);
    auto file = fetcher.fetch(f.request(f.server.url("/redirect?to=" + urlEncode("file:///etc/passwd"))));
    REQUIRE_FALSE(file);
    CHECK(file.error().message.find("scheme file") != std::string::npos);
    for (const char* target : {"ftp://127.0.0.1/feed.csv", "sftp://127.0.0.1/feed.csv"}) {
        CAPTURE(target);
        auto away = fetcher.fetch(f.request(f.server.url("/redirect?to=" + urlEncode(target))));
        REQUIRE_FALSE(away);
        CHECK(away.error().message.rfind("redirects: scheme ", 0) == 0);
    }
    auto ftp = fetcher.fetch(f.request("file:///etc/passwd"));
    REQUIRE_FALSE(ftp);
    CHECK(ftp.error().code == ErrorCode::InvalidArgument);
}

TEST_CASE("credentials go to the origin they were given for, never along a redirect to another") {
    Fixture f;
    auto fetcher = fetcherAllowing({"127.0.0.1:*", "localhost:*"});
    auto same = f.request(f.server.url("/echo-auth"));
    same.username = "shop";
    same.password = "s3cret";
    REQUIRE(fetcher.fetch(same));
    CHECK(readFile(same.bodyPath) == "authorization=Basic c2hvcDpzM2NyZXQ=\n");
    auto away = f.request(f.server.url("/redirect?to=" + urlEncode(f.server.url("/echo-auth", "localhost"))));
    away.username = "shop";
    away.password = "s3cret";
    REQUIRE(fetcher.fetch(away));
    CHECK(readFile(away.bodyPath) == "authorization=\n");
}

TEST_CASE("failures are named: refused, DNS, HTTP 404, auth, too large (also after decompression), timeout") {
    Fixture f;
    auto fetcher = fetcherAllowing({"127.0.0.1:*"});
    // A port nobody listens on.
    int closedPort = test::unusedLoopbackPort();
    auto refused = fetcher.fetch(f.request("http://127.0.0.1:" + std::to_string(closedPort) + "/feed.csv"));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("refused: ", 0) == 0);

    auto dns = fetcher.fetch(f.request("http://feeds.nonexistent.invalid/feed.csv"));
    REQUIRE_FALSE(dns);
    CHECK(dns.error().message == "DNS: could not resolve host feeds.nonexistent.invalid");

    auto missing = fetcher.fetch(f.request(f.server.url("/nothing-here.csv")));
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == ErrorCode::NotFound);
    CHECK(missing.error().message.find("answered 404") != std::string::npos);

    auto unauthorized = fetcher.fetch(f.request(f.server.url("/private.csv")));
    REQUIRE_FALSE(unauthorized);
    CHECK(unauthorized.error().code == ErrorCode::Unauthenticated);
    CHECK(unauthorized.error().message.rfind("auth: ", 0) == 0);

    FetchLimits small = testLimits();
    small.maxBodyBytes = 100'000;
    auto limited = fetcherAllowing({"127.0.0.1:*"}, small);
    auto fits = limited.fetch(f.request(f.server.url("/big.csv?bytes=100000")));
    REQUIRE(fits);
    CHECK(fits->bodyBytes == 100'000);
    // 2 MB of one letter travels gzip-compressed as a few kB: the limit counts the decoded bytes.
    auto bomb = limited.fetch(f.request(f.server.url("/big.csv?bytes=2000000")));
    REQUIRE_FALSE(bomb);
    CHECK(bomb.error().code == ErrorCode::ResourceExhausted);
    CHECK(bomb.error().message.rfind("too large: ", 0) == 0);

    FetchLimits quick = testLimits();
    quick.totalTimeoutMs = 300;
    auto slow = fetcherAllowing({"127.0.0.1:*"}, quick).fetch(f.request(f.server.url("/slow.csv")));
    REQUIRE_FALSE(slow);
    CHECK(slow.error().message.rfind("timeout: ", 0) == 0);
}

TEST_CASE("gzip is asked for and decoded transparently; validators make a second fetch a 304") {
    Fixture f;
    auto fetcher = fetcherAllowing({"127.0.0.1:*"});
    auto accept = fetcher.fetch(f.request(f.server.url("/accept-encoding")));
    REQUIRE(accept);
    CHECK(readFile(f.dir.path() + "/body").find("gzip") != std::string::npos);

    std::string csv = "sku;name\n" + std::string(50'000, 'x') + ";y\n";
    f.server.setFeed(csv, "\"v1\"", "Sat, 21 Nov 2026 10:00:00 GMT");
    auto first = fetcher.fetch(f.request(f.server.url("/feed.csv")));
    REQUIRE(first);
    CHECK(first->contentEncoding == "gzip");  // the server compressed it on the wire
    CHECK(first->bodyBytes == static_cast<int64_t>(csv.size()));
    CHECK(readFile(f.dir.path() + "/body") == csv);
    CHECK(first->etag == "\"v1\"");
    CHECK(first->lastModified == "Sat, 21 Nov 2026 10:00:00 GMT");
    CHECK(first->contentType == "text/csv");

    auto again = f.request(f.server.url("/feed.csv"));
    again.ifNoneMatch = first->etag;
    auto second = fetcher.fetch(again);
    REQUIRE(second);
    CHECK(second->notModified);
    CHECK(second->bodyBytes == 0);
    CHECK(f.server.notModified == 1);
}
