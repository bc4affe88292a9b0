#pragma once
// Which addresses the service may connect to when it fetches from a URL a shop gave it
// (feed pulls, later shop plugins and images): the server-side request forgery guard.
// By default only public unicast addresses; the operator's allow-list re-opens specific
// hosts or networks (e.g. a feed server on the LAN, the tests' loopback servers).
// Pure logic: the fetcher resolves names and asks here before every connection.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "net/IpAddress.hpp"

namespace svc {

enum class AddressClass { Public, Loopback, Private, LinkLocal, Multicast, Unspecified, Metadata, Reserved };
std::string_view addressClassName(AddressClass kind);  // "loopback", "cloud metadata", ...
// IPv6 addresses that carry an IPv4 address (mapped, NAT64, 6to4) are classified by it.
AddressClass classifyAddress(const IpAddress& address);

// A network in CIDR notation ("10.1.0.0/16", "fd00::/8"); a bare address is a /32 or /128.
struct IpNetwork {
    IpAddress base;
    int prefixLength = 0;
    static std::optional<IpNetwork> parse(std::string_view text);
    bool contains(const IpAddress& address) const;
};

// The ports an allow-list entry opens: one, a range, or all ("*").
struct PortRange {
    uint16_t low = 0;
    uint16_t high = 0;
    bool contains(uint16_t port) const { return port >= low && port <= high; }
};

class AddressPolicy {
public:
    // What a bare entry (no port) opens: HTTP's and HTTPS's default ports, so that allowing a
    // LAN feed server does not also open its database, admin or mail ports (docs/adr/0061).
    static constexpr uint16_t kDefaultPorts[] = {80, 443};

    // Entries are a host name ("feeds.intra.example", matched exactly, case-insensitively) or a
    // network ("127.0.0.1", "10.0.0.0/8", "::1/128"; IPv6 in brackets when a port follows:
    // "[fd00::/8]:8443"), optionally followed by ":PORT", ":LOW-HIGH" or ":*" (every port).
    // Without a port an entry opens only kDefaultPorts. The error names the bad entry.
    static Result<AddressPolicy> withAllowList(const std::vector<std::string>& entries);

    // Success when connecting to `address`:`port` for `host` (the URL's host) is allowed;
    // otherwise PermissionDenied naming the host, the address, its class and, when only the port
    // is not listed, the port.
    Status check(std::string_view host, const IpAddress& address, uint16_t port) const;
    bool empty() const { return hosts_.empty() && networks_.empty(); }

private:
    struct AllowedHost {
        std::string name;
        std::vector<PortRange> ports;
    };
    struct AllowedNetwork {
        IpNetwork network;
        std::vector<PortRange> ports;
    };
    std::vector<AllowedHost> hosts_;
    std::vector<AllowedNetwork> networks_;
};

}  // namespace svc
