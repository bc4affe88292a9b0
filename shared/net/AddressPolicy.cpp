#include "net/AddressPolicy.hpp"

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
        std::string text = normalizedHost(trim(entry));
        if (auto network = IpNetwork::parse(text)) {
            policy.networks_.push_back(*network);
        } else if (text.find_first_of(":/") == std::string::npos && isHostName(text)) {
            policy.hosts_.push_back(text);
        } else {
            return Error::invalidArgument("allow-list entry '" + entry + "': not a host name, an IP address or a network like 10.0.0.0/8");
        }
    }
    return policy;
}

Status AddressPolicy::check(std::string_view host, const IpAddress& address) const {
    AddressClass kind = classifyAddress(address);
    if (kind == AddressClass::Public) return Status::success();
    std::string name = normalizedHost(host);
    for (const auto& allowed : hosts_) {
        if (allowed == name) return Status::success();
    }
    // An IPv4-mapped address matches an IPv4 entry of the allow-list too.
    auto carried = address.embeddedV4();
    for (const auto& network : networks_) {
        if (network.contains(address) || (carried && network.contains(*carried))) return Status::success();
    }
    return Error::permissionDenied("host " + name + " resolves to " + address.toString() + ", a " + std::string(addressClassName(kind)) +
                                   " address: refused (server-side request forgery guard; an operator can allow it with --outbound-allow)");
}

}  // namespace svc
