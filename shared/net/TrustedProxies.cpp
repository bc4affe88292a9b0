#include "net/TrustedProxies.hpp"

#include "text/StringUtil.hpp"

namespace svc {
namespace {

// Keeps empty parts (unlike StringUtil's): an empty hop is a hop that is not an address.
std::vector<std::string_view> splitKeepingEmpty(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        size_t end = text.find(separator, start);
        parts.push_back(trim(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

std::optional<IpAddress> normalized(std::optional<IpAddress> address) {
    if (!address || address->isV4()) return address;
    static const IpNetwork mapped = *IpNetwork::parse("::ffff:0:0/96");
    if (mapped.contains(*address)) return address->embeddedV4();
    return address;
}

// An X-Forwarded-For entry: an address, perhaps with a port ("1.2.3.4:5678", "[::1]:80").
std::optional<IpAddress> forwardedForEntry(std::string_view entry) {
    if (auto plain = IpAddress::parse(entry)) return normalized(plain);
    if (!entry.empty() && entry.front() == '[') {
        size_t close = entry.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        return normalized(IpAddress::parse(entry.substr(1, close - 1)));
    }
    size_t colon = entry.find(':');
    if (colon != std::string_view::npos && entry.find(':', colon + 1) == std::string_view::npos) {
        return normalized(IpAddress::parse(entry.substr(0, colon)));
    }
    return std::nullopt;
}

// One parameter (for=, proto=) of every element of an RFC 7239 Forwarded header, in order.
std::vector<std::string_view> forwardedParameter(std::string_view header, std::string_view name) {
    std::vector<std::string_view> values;
    for (auto element : splitKeepingEmpty(header, ',')) {
        std::string_view found;
        for (auto pair : splitKeepingEmpty(element, ';')) {
            size_t equals = pair.find('=');
            if (equals == std::string_view::npos) continue;
            if (toLower(trim(pair.substr(0, equals))) != name) continue;
            found = trim(pair.substr(equals + 1));
            if (found.size() >= 2 && found.front() == '"' && found.back() == '"') found = found.substr(1, found.size() - 2);
        }
        values.push_back(found);
    }
    return values;
}

}  // namespace

Result<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& entries) {
    TrustedProxies proxies;
    for (const auto& entry : entries) {
        auto network = IpNetwork::parse(entry);
        if (!network) return Error::invalidArgument("--trusted-proxy: '" + entry + "' is not a network (10.0.0.0/8) or an address");
        if (auto v4 = normalized(network->base); v4 && v4->isV4() && !network->base.isV4()) {
            network = IpNetwork{*v4, std::max(0, network->prefixLength - 96)};
        }
        proxies.networks_.push_back(*network);
    }
    return proxies;
}

bool TrustedProxies::trusts(std::string_view address) const {
    if (networks_.empty()) return false;
    auto parsed = normalized(IpAddress::parse(address));
    if (!parsed) return false;
    for (const auto& network : networks_) {
        if (network.contains(*parsed)) return true;
    }
    return false;
}

std::string TrustedProxies::clientAddress(std::string_view peer, std::string_view xForwardedFor, std::string_view forwarded) const {
    if (!trusts(peer)) return std::string(peer);
    std::vector<std::string_view> chain;
    if (!trim(xForwardedFor).empty()) chain = splitKeepingEmpty(xForwardedFor, ',');
    else if (!trim(forwarded).empty()) chain = forwardedParameter(forwarded, "for");
    std::string nearestTrusted(peer);
    for (auto entry = chain.rbegin(); entry != chain.rend(); ++entry) {
        auto address = forwardedForEntry(*entry);
        if (!address) return nearestTrusted;
        std::string text = address->toString();
        if (!trusts(text)) return text;
        nearestTrusted = text;
    }
    return nearestTrusted;
}

std::optional<std::string> TrustedProxies::forwardedProto(std::string_view peer, std::string_view xForwardedProto,
                                                          std::string_view forwarded) const {
    if (!trusts(peer)) return std::nullopt;
    std::string_view value = trim(xForwardedProto);
    if (value.empty()) {
        auto protos = forwardedParameter(forwarded, "proto");
        if (!protos.empty()) value = protos.front();  // the first element: what the client used
    } else if (size_t comma = value.find(','); comma != std::string_view::npos) {
        value = trim(value.substr(0, comma));
    }
    std::string lower = toLower(value);
    if (lower == "https" || lower == "http") return lower;
    return std::nullopt;
}

}  // namespace svc
