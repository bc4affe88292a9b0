// Unit tests of net/IpAddress and net/AddressPolicy: the server-side request forgery guard's
// classification of resolved addresses and the operator's allow-list.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "net/AddressPolicy.hpp"
#include "net/IpAddress.hpp"

using svc::AddressClass;
using svc::AddressPolicy;
using svc::IpAddress;

TEST_CASE("IpAddress parses IPv4 and IPv6 text and prints the canonical form") {
    struct Case {
        const char* text;
        const char* canonical;  // nullptr: refused
    };
    const std::vector<Case> cases{
        {"127.0.0.1", "127.0.0.1"},
        {"255.255.255.255", "255.255.255.255"},
        {"0.0.0.0", "0.0.0.0"},
        {"::1", "::1"},
        {"[::1]", "::1"},
        {"::", "::"},
        {"FE80::1", "fe80::1"},
        {"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
        {"::ffff:10.0.0.1", "::ffff:10.0.0.1"},
        {"::FFFF:a00:1", "::ffff:10.0.0.1"},
        {"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
        {"256.0.0.1", nullptr},
        {"1.2.3", nullptr},
        {"1.2.3.4.5", nullptr},
        {"01.2.3.4", nullptr},    // leading zero: octal to some resolvers, refused
        {"1.2.3.4 ", nullptr},
        {"", nullptr},
        {"localhost", nullptr},
        {"1:2:3:4:5:6:7:8:9", nullptr},
        {"1::2::3", nullptr},
        {"12345::", nullptr},
        {"fe80::1%eth0", nullptr},
        {"::ffff:1.2.3.256", nullptr},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        auto parsed = IpAddress::parse(c.text);
        if (!c.canonical) {
            CHECK_FALSE(parsed.has_value());
            continue;
        }
        REQUIRE(parsed.has_value());
        CHECK(parsed->toString() == c.canonical);
        CHECK(IpAddress::parse(parsed->toString()) == parsed);
    }
}

TEST_CASE("classifyAddress sorts addresses into the classes the guard refuses") {
    struct Case {
        const char* address;
        AddressClass expected;
    };
    const std::vector<Case> cases{
        {"127.0.0.1", AddressClass::Loopback},
        {"127.255.1.2", AddressClass::Loopback},
        {"10.0.0.1", AddressClass::Private},
        {"172.16.0.1", AddressClass::Private},
        {"172.31.255.255", AddressClass::Private},
        {"172.32.0.1", AddressClass::Public},
        {"192.168.1.1", AddressClass::Private},
        {"100.64.0.1", AddressClass::Private},
        {"169.254.169.254", AddressClass::Metadata},
        {"169.254.170.2", AddressClass::Metadata},
        {"100.100.100.200", AddressClass::Metadata},
        {"169.254.1.1", AddressClass::LinkLocal},
        {"224.0.0.1", AddressClass::Multicast},
        {"239.255.255.250", AddressClass::Multicast},
        {"0.0.0.0", AddressClass::Unspecified},
        {"255.255.255.255", AddressClass::Reserved},
        {"8.8.8.8", AddressClass::Public},
        {"93.184.216.34", AddressClass::Public},
        {"::1", AddressClass::Loopback},
        {"::", AddressClass::Unspecified},
        {"fe80::1", AddressClass::LinkLocal},
        {"fc00::1", AddressClass::Private},
        {"fd12:3456::1", AddressClass::Private},
        {"ff02::1", AddressClass::Multicast},
        {"fd00:ec2::254", AddressClass::Metadata},
        {"2001:db8::1", AddressClass::Reserved},
        {"2a00:1450:4001:81b::200e", AddressClass::Public},
        // IPv6 forms that carry an IPv4 address are judged by that address.
        {"::ffff:127.0.0.1", AddressClass::Loopback},
        {"::ffff:10.0.0.1", AddressClass::Private},
        {"::ffff:169.254.169.254", AddressClass::Metadata},
        {"::ffff:8.8.8.8", AddressClass::Public},
        {"64:ff9b::7f00:1", AddressClass::Loopback},
        {"2002:a00:1::1", AddressClass::Private},
        {"::127.0.0.1", AddressClass::Reserved},
    };
    for (const auto& c : cases) {
        CAPTURE(c.address);
        auto parsed = IpAddress::parse(c.address);
        REQUIRE(parsed.has_value());
        CHECK(svc::addressClassName(svc::classifyAddress(*parsed)) == svc::addressClassName(c.expected));
    }
}

TEST_CASE("the default policy refuses non-public addresses with a message naming host, address and class") {
    auto policy = AddressPolicy::withAllowList({});
    REQUIRE(policy);
    for (const char* address : {"127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1", "0.0.0.0"}) {
        CAPTURE(address);
        auto status = policy->check("shop.example", *IpAddress::parse(address), 443);
        REQUIRE_FALSE(status);
        CHECK(status.error().code == svc::ErrorCode::PermissionDenied);
        CHECK(status.error().message.find("shop.example") != std::string::npos);
        CHECK(status.error().message.find(IpAddress::parse(address)->toString()) != std::string::npos);
    }
    auto metadata = policy->check("shop.example", *IpAddress::parse("169.254.169.254"), 443);
    CHECK(metadata.error().message.find("cloud metadata") != std::string::npos);
    CHECK(policy->check("shop.example", *IpAddress::parse("93.184.216.34"), 443));
    CHECK(policy->check("shop.example", *IpAddress::parse("2a00:1450:4001:81b::200e"), 443));
}

TEST_CASE("the allow-list re-opens exactly the listed hosts and networks") {
    auto policy = AddressPolicy::withAllowList({"Feeds.Intra.Example.", "127.0.0.1", "10.1.0.0/16", "::1"});
    REQUIRE(policy);
    auto loopback = *IpAddress::parse("127.0.0.1");
    CHECK(policy->check("anything", loopback, 443));
    CHECK(policy->check("anything", *IpAddress::parse("::ffff:127.0.0.1"), 443));  // the mapped form of an allowed address
    CHECK_FALSE(policy->check("anything", *IpAddress::parse("127.0.0.2"), 443));
    CHECK(policy->check("x", *IpAddress::parse("10.1.200.3"), 443));
    CHECK_FALSE(policy->check("x", *IpAddress::parse("10.2.0.1"), 443));
    CHECK(policy->check("x", *IpAddress::parse("::1"), 443));
    // An allowed host may resolve to anything; other hosts with the same address may not.
    auto private10 = *IpAddress::parse("10.9.9.9");
    CHECK(policy->check("feeds.intra.example", private10, 443));
    CHECK(policy->check("FEEDS.intra.example.", private10, 443));
    CHECK_FALSE(policy->check("feeds.intra.example.evil.test", private10, 443));
    CHECK_FALSE(policy->check("169.254.169.254", *IpAddress::parse("169.254.169.254"), 443));
}

TEST_CASE("a bad allow-list entry is refused by name") {
    for (const char* entry : {"10.0.0.0/33", "::1/129", "http://host/", "host name", "10.0.0.0/x", "", "1.2.3.4/+8", "host:0", "host:65536",
                              "host:80-79", "host:", "host:http", "host:+80", "[::1", "[::1]80", "[::1]:x", "10.0.0.0/8:-1"}) {
        CAPTURE(entry);
        auto policy = AddressPolicy::withAllowList({"good.example", entry});
        REQUIRE_FALSE(policy);
        CHECK(policy.error().message.find(std::string("'") + entry + "'") != std::string::npos);
    }
}

TEST_CASE("IpNetwork matches prefixes bit by bit") {
    auto network = svc::IpNetwork::parse("172.16.0.0/12");
    REQUIRE(network);
    CHECK(network->contains(*IpAddress::parse("172.16.0.0")));
    CHECK(network->contains(*IpAddress::parse("172.31.255.255")));
    CHECK_FALSE(network->contains(*IpAddress::parse("172.32.0.0")));
    CHECK_FALSE(network->contains(*IpAddress::parse("::ffff:172.16.0.1")));  // families never mix here
    auto all = svc::IpNetwork::parse("0.0.0.0/0");
    REQUIRE(all);
    CHECK(all->contains(*IpAddress::parse("8.8.8.8")));
}

TEST_CASE("allow-list ports: an entry opens the ports it names; without one only 80 and 443") {
    auto policy = AddressPolicy::withAllowList({"feeds.intra.example", "ftp.intra.example:21", "10.1.0.0/16:8000-8099", "127.0.0.1:*",
                                                "[::1]:8443", "fd00::/8", "[fd12::/16]:9000", "db.intra.example:5432"});
    REQUIRE(policy);
    struct Case {
        const char* host;
        const char* address;
        int port;
        bool allowed;
    };
    const std::vector<Case> cases{
        {"feeds.intra.example", "10.9.9.9", 80, true},       // bare host: the default ports
        {"feeds.intra.example", "10.9.9.9", 443, true},
        {"feeds.intra.example", "10.9.9.9", 8080, false},    // but no other (the finding: one host allowed every port)
        {"feeds.intra.example", "10.9.9.9", 22, false},
        {"feeds.intra.example", "10.9.9.9", 6379, false},
        {"ftp.intra.example", "10.9.9.9", 21, true},         // host:port: just that port
        {"ftp.intra.example", "10.9.9.9", 80, false},
        {"other.example", "10.1.2.3", 8000, true},           // network with a range
        {"other.example", "10.1.2.3", 8099, true},
        {"other.example", "10.1.2.3", 8100, false},
        {"other.example", "10.1.2.3", 443, false},
        {"other.example", "10.2.0.1", 8000, false},          // outside the network
        {"x", "127.0.0.1", 1, true},                         // :* is every port
        {"x", "127.0.0.1", 65535, true},
        {"x", "::ffff:127.0.0.1", 4000, true},               // the mapped form of an allowed address
        {"x", "::1", 8443, true},                            // bracketed IPv6 with a port
        {"x", "::1", 443, false},
        {"x", "fd00::5", 443, true},                         // bare IPv6 network: the default ports
        {"x", "fd00::5", 8443, false},
        {"x", "fd12::5", 9000, true},                        // bracketed IPv6 network with a port
        {"db.intra.example", "10.9.9.9", 5432, true},
        {"db.intra.example", "10.9.9.9", 443, false},
        {"anything", "93.184.216.34", 6379, true},           // public addresses: not the allow-list's business
    };
    for (const auto& c : cases) {
        CAPTURE(c.host);
        CAPTURE(c.address);
        CAPTURE(c.port);
        auto status = policy->check(c.host, *IpAddress::parse(c.address), static_cast<uint16_t>(c.port));
        CHECK(static_cast<bool>(status) == c.allowed);
    }
    // A listed host on another port is named as such, with the entry that would allow it.
    auto refused = policy->check("feeds.intra.example", *IpAddress::parse("10.9.9.9"), 8080);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("port 8080 is not allowed") != std::string::npos);
    CHECK(refused.error().message.find("HOST:8080") != std::string::npos);
}
