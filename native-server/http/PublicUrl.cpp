#include "http/PublicUrl.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "net/IpAddress.hpp"

namespace svc {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isPort(std::string_view text) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
    int value = std::stoi(std::string(text));
    return value >= 1 && value <= 65535;
}

// A DNS name: labels of letters, digits and hyphens, none empty, none starting or ending with a hyphen.
bool isDnsName(std::string_view host) {
    if (host.empty() || host.size() > 253) return false;
    size_t start = 0;
    while (true) {
        size_t dot = host.find('.', start);
        std::string_view label = host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
        for (char c : label) {
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
        }
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

// host[:port] or [v6][:port] split; nullopt when the shape is wrong (the port is checked by the caller).
std::optional<std::pair<std::string_view, std::string_view>> splitHostPort(std::string_view authority) {
    if (!authority.empty() && authority.front() == '[') {
        size_t close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        std::string_view rest = authority.substr(close + 1);
        if (!rest.empty() && rest.front() != ':') return std::nullopt;
        return std::pair{authority.substr(0, close + 1), rest.empty() ? rest : rest.substr(1)};
    }
    size_t colon = authority.find(':');
    if (colon == std::string_view::npos) return std::pair{authority, std::string_view()};
    if (authority.find(':', colon + 1) != std::string_view::npos) return std::nullopt;
    std::string_view port = authority.substr(colon + 1);
    if (port.empty()) return std::nullopt;
    return std::pair{authority.substr(0, colon), port};
}

}  // namespace

Result<PublicUrl> PublicUrl::parse(std::string_view text, const std::string& option) {
    auto refuse = [&](const std::string& why) {
        return Error::invalidArgument(option + ": '" + std::string(text) + "' " + why +
                                      " (expected https://HOST or https://HOST:PORT, e.g. https://svc.example.com)");
    };
    size_t schemeEnd = text.find("://");
    if (schemeEnd == std::string_view::npos) return refuse("is not an absolute URL");
    std::string scheme = lower(text.substr(0, schemeEnd));
    if (scheme != "http" && scheme != "https") return refuse("has scheme '" + scheme + "'; only http and https are served");
    std::string_view rest = text.substr(schemeEnd + 3);
    if (rest.find_first_of("?#") != std::string_view::npos) return refuse("has a query or fragment");
    size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    if (slash != std::string_view::npos && rest.substr(slash) != "/") {
        return refuse("has a path; svc is served at the root of its host");
    }
    if (authority.find('@') != std::string_view::npos) return refuse("has user info");
    auto parts = splitHostPort(authority);
    if (!parts || parts->first.empty()) return refuse("has no valid host");
    std::string host = lower(parts->first);
    bool bracketed = host.front() == '[';
    auto address = IpAddress::parse(host);
    if (bracketed ? !(address && !address->isV4()) : !(address || isDnsName(host))) return refuse("has no valid host");
    if (!parts->second.empty() && !isPort(parts->second)) return refuse("has a port that is not a number from 1 to 65535");
    PublicUrl url;
    url.https_ = scheme == "https";
    bool defaultPort = parts->second == (url.https_ ? "443" : "80");
    url.origin_ = scheme + "://" + host + (parts->second.empty() || defaultPort ? "" : ":" + std::string(parts->second));
    return url;
}

bool isLoopbackHost(std::string_view hostHeader) {
    auto parts = splitHostPort(hostHeader);
    if (!parts || (!parts->second.empty() && !isPort(parts->second))) return false;
    std::string host = lower(parts->first);
    if (host == "localhost") return true;
    auto address = IpAddress::parse(host);
    if (!address) return false;
    if (address->isV4()) return host.front() != '[' && address->bytes()[0] == 127;
    return host.front() == '[' && *address == *IpAddress::parse("::1");
}

}  // namespace svc
