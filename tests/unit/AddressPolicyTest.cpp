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
        auto status = policy->check("shop.example", *IpAddress::parse(address));
        REQUIRE_FALSE(status);
        CHECK(status.error().code == svc::ErrorCode::PermissionDenied);
        CHECK(status.error().message.find("shop.example") != std::string::npos);
        CHECK(status.error().message.find(IpAddress::parse(address)->toString()) != std::string::npos);
    }
    auto metadata = policy->check("shop.example", *IpAddress::parse("169.254.169.254"));
    CHECK(metadata.error().message.find("cloud metadata") != std::string::npos);
    CHECK(policy->check("shop.example", *IpAddress::parse("93.184.216.34")));
    CHECK(policy->check("shop.example", *IpAddress::parse("2a00:1450:4001:81b::200e")));
}

TEST_CASE("the allow-list re-opens exactly the listed hosts and networks") {
    auto policy = AddressPolicy::withAllowList({"Feeds.Intra.Example.", "127.0.0.1", "10.1.0.0/16", "::1"});
    REQUIRE(policy);
    auto loopback = *IpAddress::parse("127.0.0.1");
    CHECK(policy->check("anything", loopback));
    CHECK(policy->check("anything", *IpAddress::parse("::ffff:127.0.0.1")));  // the mapped form of an allowed address
    CHECK_FALSE(policy->check("anything", *IpAddress::parse("127.0.0.2")));
    CHECK(policy->check("x", *IpAddress::parse("10.1.200.3")));
    CHECK_FALSE(policy->check("x", *IpAddress::parse("10.2.0.1")));
    CHECK(policy->check("x", *IpAddress::parse("::1")));
    // An allowed host may resolve to anything; other hosts with the same address may not.
    auto private10 = *IpAddress::parse("10.9.9.9");
    CHECK(policy->check("feeds.intra.example", private10));
    CHECK(policy->check("FEEDS.intra.example.", private10));
    CHECK_FALSE(policy->check("feeds.intra.example.evil.test", private10));
    CHECK_FALSE(policy->check("169.254.169.254", *IpAddress::parse("169.254.169.254")));
}

TEST_CASE("a bad allow-list entry is refused by name") {
    for (const char* entry : {"10.0.0.0/33", "::1/129", "http://host/", "host name", "10.0.0.0/x", "", "1.2.3.4/+8"}) {
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
