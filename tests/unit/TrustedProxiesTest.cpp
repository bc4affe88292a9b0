// Who the client is behind a reverse proxy (docs/adr/0069): only trusted peers' forwarding
// headers count, and a client's own made-up entries are never taken.
#include <doctest/doctest.h>

#include "net/TrustedProxies.hpp"

using namespace svc;

namespace {

TrustedProxies proxies(const std::vector<std::string>& entries) {
    auto parsed = TrustedProxies::parse(entries);
    REQUIRE(parsed);
    return *parsed;
}

}  // namespace

TEST_CASE("TrustedProxies: the client address from the peer and its forwarding headers") {
    struct Case {
        const char* name;
        const char* peer;
        const char* xForwardedFor;
        const char* forwarded;
        const char* client;
    };
    const Case cases[] = {
        {"an untrusted peer's headers are ignored", "203.0.113.9", "198.51.100.1", "", "203.0.113.9"},
        {"a trusted peer without headers is the client", "10.0.0.5", "", "", "10.0.0.5"},
        {"one hop", "10.0.0.5", "198.51.100.1", "", "198.51.100.1"},
        {"a client's made-up entry before the real one is not reached", "10.0.0.5", "1.1.1.1, 198.51.100.1", "", "198.51.100.1"},
        {"two trusted hops", "10.0.0.5", "198.51.100.1, 10.0.0.7", "", "198.51.100.1"},
        {"every hop trusted: the furthest", "10.0.0.5", "10.0.0.8, 10.0.0.7", "", "10.0.0.8"},
        {"garbage nearest: the last trusted hop", "10.0.0.5", "198.51.100.1, evil", "", "10.0.0.5"},
        {"garbage behind the client is never reached", "10.0.0.5", "evil\", 198.51.100.1", "", "198.51.100.1"},
        {"an address with a port", "10.0.0.5", "198.51.100.1:4711", "", "198.51.100.1"},
        {"IPv6 in brackets with a port", "10.0.0.5", "[2001:db8::1]:4711", "", "2001:db8::1"},
        {"a mapped IPv6 peer counts as IPv4", "::ffff:10.0.0.5", "198.51.100.1", "", "198.51.100.1"},
        {"Forwarded when X-Forwarded-For is absent", "10.0.0.5", "", "for=198.51.100.1;proto=https, for=10.0.0.7", "198.51.100.1"},
        {"Forwarded, quoted IPv6", "10.0.0.5", "", "for=\"[2001:db8::1]:4711\"", "2001:db8::1"},
        {"Forwarded, obfuscated identifier", "10.0.0.5", "", "for=_hidden", "10.0.0.5"},
        {"X-Forwarded-For wins over Forwarded", "10.0.0.5", "198.51.100.1", "for=198.51.100.2", "198.51.100.1"},
    };
    auto trusted = proxies({"10.0.0.0/24"});
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        CHECK(trusted.clientAddress(testCase.peer, testCase.xForwardedFor, testCase.forwarded) == testCase.client);
    }
}

TEST_CASE("TrustedProxies: with no trusted proxy every header is ignored") {
    auto none = proxies({});
    CHECK(none.empty());
    CHECK(none.clientAddress("127.0.0.1", "198.51.100.1", "for=198.51.100.2") == "127.0.0.1");
    CHECK_FALSE(none.forwardedProto("127.0.0.1", "https", "").has_value());
}

TEST_CASE("TrustedProxies: the scheme only from a trusted peer, and only http or https") {
    auto trusted = proxies({"127.0.0.1", "::1"});
    CHECK(trusted.forwardedProto("127.0.0.1", "https", "") == "https");
    CHECK(trusted.forwardedProto("::1", "HTTP", "") == "http");
    CHECK(trusted.forwardedProto("127.0.0.1", "", "for=1.2.3.4;proto=https") == "https");
    CHECK(trusted.forwardedProto("127.0.0.1", "https, http", "") == "https");
    CHECK_FALSE(trusted.forwardedProto("127.0.0.1", "javascript", "").has_value());
    CHECK_FALSE(trusted.forwardedProto("127.0.0.2", "https", "").has_value());
}

TEST_CASE("TrustedProxies: a bad entry is refused, naming it") {
    for (const char* bad : {"10.0.0.0/33", "example.com", "10.0.0.0/", "", "::1/129"}) {
        CAPTURE(bad);
        auto parsed = TrustedProxies::parse({"127.0.0.1", bad});
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().message.find(std::string("'") + bad + "'") != std::string::npos);
    }
    auto mapped = proxies({"::ffff:10.0.0.0/120"});
    CHECK(mapped.trusts("10.0.0.9"));
    CHECK_FALSE(mapped.trusts("10.0.1.9"));
}
