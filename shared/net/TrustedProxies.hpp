#pragma once
// Who the client of a request really is when svc runs behind a reverse proxy (docs/adr/0069).
// Only peers in the operator's --trusted-proxy networks may say so (X-Forwarded-For, or
// RFC 7239 Forwarded); from anyone else those headers are the client's own words and ignored,
// so a client cannot pick the address its rate limits and sign-in lock-out count against.
// Pure logic: the HTTP layer hands in the peer address and the header values.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "net/AddressPolicy.hpp"

namespace svc {

class TrustedProxies {
public:
    // Entries are networks in CIDR notation or bare addresses ("10.0.0.0/8", "127.0.0.1",
    // "fd00::/8"); the error names the bad entry.
    static Result<TrustedProxies> parse(const std::vector<std::string>& entries);

    bool empty() const { return networks_.empty(); }
    // IPv4-mapped IPv6 peers ("::ffff:10.0.0.1", a dual-stack listener's view) count as IPv4.
    bool trusts(std::string_view address) const;

    // The client's address: the peer itself unless it is trusted; then the forwarding chain is
    // walked from the nearest hop back, and the first address not trusted is the client (a
    // client's own made-up entries lie further back and are never reached). X-Forwarded-For is
    // read when present, else Forwarded's for= parameters. An entry that is not an address
    // (garbage, "unknown", an obfuscated identifier) ends the walk at the last trusted hop.
    std::string clientAddress(std::string_view peer, std::string_view xForwardedFor, std::string_view forwarded) const;

    // "https" or "http" from a trusted peer's X-Forwarded-Proto (or Forwarded proto=); nullopt
    // when the peer is not trusted or says nothing usable.
    std::optional<std::string> forwardedProto(std::string_view peer, std::string_view xForwardedProto, std::string_view forwarded) const;

private:
    std::vector<IpNetwork> networks_;
};

}  // namespace svc
