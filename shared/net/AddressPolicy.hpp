#pragma once
// Which addresses the service may connect to when it fetches from a URL a shop gave it
// (feed pulls, later shop plugins and images): the server-side request forgery guard.
// By default only public unicast addresses; the operator's allow-list re-opens specific
// hosts or networks (e.g. a feed server on the LAN, the tests' loopback servers).
// Pure logic: the fetcher resolves names and asks here before every connection.
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

class AddressPolicy {
public:
    // Entries are host names ("feeds.intra.example", matched exactly, case-insensitively) or
    // networks ("127.0.0.1", "10.0.0.0/8", "::1/128"). The error names the bad entry.
    static Result<AddressPolicy> withAllowList(const std::vector<std::string>& entries);

    // Success when connecting to `address` for `host` (the URL's host) is allowed; otherwise
    // PermissionDenied naming the host, the address and its class.
    Status check(std::string_view host, const IpAddress& address) const;
    bool empty() const { return hosts_.empty() && networks_.empty(); }

private:
    std::vector<std::string> hosts_;
    std::vector<IpNetwork> networks_;
};

}  // namespace svc
