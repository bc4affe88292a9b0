#include "net/AddressPolicy.hpp"

#include <algorithm>
#include <optional>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

struct ClassifiedRange {
    const char* network;
    AddressClass kind;
};

// Most specific first: the first containing range decides. Sources: IANA IPv4 and IPv6
// special-purpose registries, plus the cloud metadata endpoints (AWS, GCP, Azure, ECS,
// Alibaba, AWS over IPv6), which are the usual target of request forgery.
const std::vector<ClassifiedRange>& ranges() {
    static const std::vector<ClassifiedRange> list = {
        {"169.254.169.254/32", AddressClass::Metadata},
        {"169.254.170.2/32", AddressClass::Metadata},
        {"100.100.100.200/32", AddressClass::Metadata},
        {"fd00:ec2::254/128", AddressClass::Metadata},
        {"0.0.0.0/8", AddressClass::Unspecified},
        {"127.0.0.0/8", AddressClass::Loopback},
        {"10.0.0.0/8", AddressClass::Private},
        {"172.16.0.0/12", AddressClass::Private},
        {"192.168.0.0/16", AddressClass::Private},
        {"100.64.0.0/10", AddressClass::Private},  // carrier-grade NAT, shared address space
        {"169.254.0.0/16", AddressClass::LinkLocal},
        {"224.0.0.0/4", AddressClass::Multicast},
        {"192.0.0.0/24", AddressClass::Reserved},
        {"192.0.2.0/24", AddressClass::Reserved},
        {"198.18.0.0/15", AddressClass::Reserved},
        {"198.51.100.0/24", AddressClass::Reserved},
        {"203.0.113.0/24", AddressClass::Reserved},
        {"240.0.0.0/4", AddressClass::Reserved},  // includes the broadcast address
        {"::/128", AddressClass::Unspecified},
        {"::1/128", AddressClass::Loopback},
        {"::/96", AddressClass::Reserved},  // deprecated IPv4-compatible addresses
        {"100::/64", AddressClass::Reserved},
        {"2001:db8::/32", AddressClass::Reserved},
        {"fc00::/7", AddressClass::Private},
        {"fec0::/10", AddressClass::Private},  // deprecated site-local
        {"fe80::/10", AddressClass::LinkLocal},
        {"ff00::/8", AddressClass::Multicast},
    };
    return list;
}

const std::vector<IpNetwork>& parsedRanges() {
    static const std::vector<IpNetwork> list = [] {
        std::vector<IpNetwork> parsed;
        for (const auto& range : ranges()) parsed.push_back(*IpNetwork::parse(range.network));
        return parsed;
    }();
    return list;
}

std::string normalizedHost(std::string_view host) {
    std::string lower = toLower(host);
    if (!lower.empty() && lower.back() == '.') lower.pop_back();
    if (lower.size() >= 2 && lower.front() == '[' && lower.back() == ']') lower = lower.substr(1, lower.size() - 2);
    return lower;
}

bool isHostName(std::string_view text) {
    if (text.empty() || text.size() > 253) return false;
    for (char c : text) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
        if (!ok) return false;
    }
    return text.front() != '.' && text.front() != '-';
}

// ":PORT", ":LOW-HIGH" or ":*" after an entry's host or network; nullopt when malformed.
std::optional<PortRange> parsePorts(std::string_view text) {
    if (text == "*") return PortRange{1, 65535};
    size_t dash = text.find('-');
    auto number = [](std::string_view digits) -> std::optional<uint16_t> {
        if (digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
        auto value = parseInt64(digits);
        if (!value || *value < 1 || *value > 65535) return std::nullopt;
        return static_cast<uint16_t>(*value);
    };
    auto low = number(text.substr(0, dash));
    auto high = dash == std::string_view::npos ? low : number(text.substr(dash + 1));
    if (!low || !high || *low > *high) return std::nullopt;
    return PortRange{*low, *high};
}

bool anyContains(const std::vector<PortRange>& ports, uint16_t port) {
    for (const auto& range : ports) {
        if (range.contains(port)) return true;
    }
    return false;
}

}  // namespace

std::string_view addressClassName(AddressClass kind) {
    switch (kind) {
        case AddressClass::Public: return "public";
        case AddressClass::Loopback: return "loopback";
        case AddressClass::Private: return "private";
        case AddressClass::LinkLocal: return "link-local";
        case AddressClass::Multicast: return "multicast";
        case AddressClass::Unspecified: return "unspecified";
        case AddressClass::Metadata: return "cloud metadata";
        case AddressClass::Reserved: return "reserved";
    }
    return "reserved";
}

AddressClass classifyAddress(const IpAddress& address) {
    if (auto carried = address.embeddedV4()) return classifyAddress(*carried);
    const auto& parsed = parsedRanges();
    for (size_t i = 0; i < parsed.size(); ++i) {
        if (parsed[i].contains(address)) return ranges()[i].kind;
    }
    return AddressClass::Public;
}

std::optional<IpNetwork> IpNetwork::parse(std::string_view text) {
    size_t slash = text.find('/');
    auto base = IpAddress::parse(text.substr(0, slash));
    if (!base) return std::nullopt;
    int maximum = static_cast<int>(base->size() * 8);
    int prefix = maximum;
    if (slash != std::string_view::npos) {
        auto parsed = parseInt64(text.substr(slash + 1));
        if (!parsed || *parsed < 0 || *parsed > maximum || text.substr(slash + 1).front() == '+') return std::nullopt;
        prefix = static_cast<int>(*parsed);
    }
    return IpNetwork{*base, prefix};
}

bool IpNetwork::contains(const IpAddress& address) const {
    if (address.isV4() != base.isV4()) return false;
    int fullBytes = prefixLength / 8;
    for (int i = 0; i < fullBytes; ++i) {
        if (address.bytes()[i] != base.bytes()[i]) return false;
    }
    int remainingBits = prefixLength % 8;
    if (remainingBits == 0) return true;
    uint8_t mask = static_cast<uint8_t>(0xff << (8 - remainingBits));
    return (address.bytes()[fullBytes] & mask) == (base.bytes()[fullBytes] & mask);
}

Result<AddressPolicy> AddressPolicy::withAllowList(const std::vector<std::string>& entries) {
    AddressPolicy policy;
    for (const auto& entry : entries) {
        auto refuse = [&entry](const std::string& why) {
            return Error::invalidArgument("allow-list entry '" + entry + "': " + why);
        };
        std::string text = toLower(trim(entry));
        std::string target = text;
        std::optional<std::string> portText;
        if (!text.empty() && text.front() == '[') {
            // "[::1]", "[fd00::/8]:8443": brackets set an IPv6 address or network apart from its port.
            size_t close = text.find(']');
            if (close == std::string::npos) return refuse("'[' without ']'");
            target = text.substr(1, close - 1);
            std::string rest = text.substr(close + 1);
            if (!rest.empty()) {
                if (rest.front() != ':') return refuse("expected ':PORT' after ']'");
                portText = rest.substr(1);
            }
        } else if (std::count(text.begin(), text.end(), ':') == 1) {
            // One colon: a host or IPv4 network and its port. More: a bare IPv6 address or network.
            size_t colon = text.find(':');
            target = text.substr(0, colon);
            portText = text.substr(colon + 1);
        }
        std::vector<PortRange> ports;
        if (portText) {
            auto range = parsePorts(*portText);
            if (!range) return refuse("'" + *portText + "' is not a port (1-65535), a range like 8000-8099, or *");
            ports.push_back(*range);
        } else {
            for (uint16_t port : kDefaultPorts) ports.push_back({port, port});
        }
        std::string name = normalizedHost(target);
        if (auto network = IpNetwork::parse(name)) {
            policy.networks_.push_back({*network, std::move(ports)});
        } else if (name.find_first_of(":/") == std::string::npos && isHostName(name)) {
            policy.hosts_.push_back({name, std::move(ports)});
        } else {
            return refuse("not a host name, an IP address or a network like 10.0.0.0/8, with an optional :PORT");
        }
    }
    return policy;
}

Status AddressPolicy::check(std::string_view host, const IpAddress& address, uint16_t port) const {
    AddressClass kind = classifyAddress(address);
    if (kind == AddressClass::Public) return Status::success();
    std::string name = normalizedHost(host);
    bool listed = false;  // the host or address is listed, perhaps with other ports
    for (const auto& allowed : hosts_) {
        if (allowed.name != name) continue;
        if (anyContains(allowed.ports, port)) return Status::success();
        listed = true;
    }
    // An IPv4-mapped address matches an IPv4 entry of the allow-list too.
    auto carried = address.embeddedV4();
    for (const auto& allowed : networks_) {
        if (!allowed.network.contains(address) && !(carried && allowed.network.contains(*carried))) continue;
        if (anyContains(allowed.ports, port)) return Status::success();
        listed = true;
    }
    std::string refusal = "host " + name + " resolves to " + address.toString() + ", a " + std::string(addressClassName(kind)) + " address";
    if (listed) {
        return Error::permissionDenied(refusal + ": port " + std::to_string(port) +
                                       " is not allowed for it (an --outbound-allow entry without a port allows 80 and 443; "
                                       "add HOST:" + std::to_string(port) + ")");
    }
    return Error::permissionDenied(refusal + ": refused (server-side request forgery guard; an operator can allow it with --outbound-allow)");
}

}  // namespace svc
