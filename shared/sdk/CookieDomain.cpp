#include "sdk/CookieDomain.hpp"

#include <algorithm>
#include <array>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

// Second-level registries under country codes where shops live (a subset of the public
// suffix list's ICANN section). A missing entry is not a failure: the cookie then lands
// on the shop's host only (read-back check in VisitorIdentity).
constexpr std::array<std::string_view, 40> kMultiPartSuffixes{
    "co.uk",  "org.uk", "me.uk",  "ltd.uk", "plc.uk", "ac.uk",  "gov.uk", "com.au", "net.au", "org.au",
    "co.nz",  "net.nz", "org.nz", "co.jp",  "ne.jp",  "or.jp",  "co.kr",  "co.in",  "co.za",  "co.il",
    "com.br", "net.br", "com.mx", "com.ar", "com.tr", "com.cn", "com.tw", "com.hk", "com.sg", "com.my",
    "com.pl", "net.pl", "org.pl", "co.at",  "or.at",  "com.es", "com.pt", "com.gr", "com.ua", "co.id",
};

bool isIpAddress(std::string_view host) {
    if (host.find(':') != std::string_view::npos || host.find('[') != std::string_view::npos) return true;  // IPv6
    return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

}  // namespace

bool CookieDomain::isMultiPartSuffix(std::string_view suffix) {
    return std::find(kMultiPartSuffixes.begin(), kMultiPartSuffixes.end(), suffix) != kMultiPartSuffixes.end();
}

std::optional<std::string> CookieDomain::registrableDomain(std::string_view hostname) {
    std::string host = toLower(hostname);
    while (!host.empty() && host.back() == '.') host.pop_back();  // "shop.de." is "shop.de"
    if (host.empty() || host.front() == '.' || isIpAddress(host)) return std::nullopt;
    // The last `count` labels of the host, or nullopt when it has fewer or an empty one.
    auto lastLabels = [&host](int count) -> std::optional<std::string> {
        size_t start = host.size();
        for (int i = 0; i < count; ++i) {
            if (start == 0) return std::nullopt;
            size_t dot = host.rfind('.', start - 1);
            size_t labelStart = dot == std::string::npos ? 0 : dot + 1;
            if (labelStart == start) return std::nullopt;  // "a..b"
            start = dot == std::string::npos ? 0 : dot;
            if (dot == std::string::npos && i + 1 < count) return std::nullopt;
        }
        return host.substr(start == 0 ? 0 : start + 1);
    };
    auto two = lastLabels(2);
    if (!two) return std::nullopt;
    if (!isMultiPartSuffix(*two)) return two;
    return lastLabels(3);
}

}  // namespace svc
