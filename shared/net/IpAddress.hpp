#pragma once
// An IPv4 or IPv6 address as bytes, parsed from its text form without any socket API
// (the core does no I/O): the outbound fetcher hands in what DNS resolved to.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc {

class IpAddress {
public:
    // Dotted-quad IPv4 ("10.0.0.1") or RFC 4291 IPv6 text ("::1", "::ffff:10.0.0.1", "[fe80::1]");
    // nullopt for anything else, including zone ids and leading zeros in IPv4 parts (ambiguous octal).
    static std::optional<IpAddress> parse(std::string_view text);
    static IpAddress v4(std::array<uint8_t, 4> bytes);
    static IpAddress v6(std::array<uint8_t, 16> bytes);

    bool isV4() const { return v4_; }
    // 4 bytes for IPv4, 16 for IPv6.
    const uint8_t* bytes() const { return bytes_.data(); }
    size_t size() const { return v4_ ? 4 : 16; }
    // The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96,
    // 6to4 2002::/16), which is where packets really go; nullopt otherwise.
    std::optional<IpAddress> embeddedV4() const;
    std::string toString() const;
    bool operator==(const IpAddress& other) const { return v4_ == other.v4_ && bytes_ == other.bytes_; }

private:
    bool v4_ = true;
    std::array<uint8_t, 16> bytes_{};
};

}  // namespace svc
