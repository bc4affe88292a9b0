#include "feed/PullSource.hpp"

#include "text/StringUtil.hpp"

namespace svc {

int64_t defaultPullInterval(bool delta) { return delta ? 3600 : 86400; }

Result<int64_t> parsePullInterval(const std::string& text, const std::string& field) {
    std::string trimmed(trim(text));
    auto refuse = [&] { return Error::invalidArgument(field + ": '" + text + "' is not an interval like 15m, 6h or 1d"); };
    if (trimmed.size() < 2) return refuse();
    char unit = trimmed.back();
    int64_t multiplier = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
    if (multiplier == 0) return refuse();
    std::string digits = trimmed.substr(0, trimmed.size() - 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return refuse();
    auto value = parseInt64(digits);
    if (!value || *value <= 0 || *value > 365 * 86400 / multiplier) return refuse();
    return *value * multiplier;
}

std::string formatPullInterval(int64_t seconds) {
    if (seconds % 86400 == 0) return std::to_string(seconds / 86400) + "d";
    if (seconds % 3600 == 0) return std::to_string(seconds / 3600) + "h";
    if (seconds % 60 == 0) return std::to_string(seconds / 60) + "m";
    return std::to_string(seconds) + "s";
}

Status validatePullInterval(int64_t seconds, bool delta, const std::string& field) {
    int64_t minimum = delta ? kMinimumDeltaInterval : kMinimumFullInterval;
    if (seconds < minimum) {
        return Error::invalidArgument(field + ": " + formatPullInterval(seconds) + " is too often; a " + (delta ? "delta" : "full") +
                                      " feed may be pulled at most every " + formatPullInterval(minimum));
    }
    return Status::success();
}

Status validatePullUrl(const std::string& url, const std::string& field) {
    std::string lower = toLower(url);
    size_t schemeEnd = lower.find("://");
    std::string scheme = schemeEnd == std::string::npos ? "" : lower.substr(0, schemeEnd);
    if (scheme != "http" && scheme != "https" && scheme != "ftp") {
        return Error::invalidArgument(field + ": '" + url + "' is not an absolute http://, https:// or ftp:// URL");
    }
    size_t authorityEnd = url.find_first_of("/?#", schemeEnd + 3);
    std::string authority = url.substr(schemeEnd + 3, authorityEnd == std::string::npos ? std::string::npos : authorityEnd - schemeEnd - 3);
    if (authority.empty()) return Error::invalidArgument(field + ": '" + url + "' has no host");
    if (authority.find('@') != std::string::npos) {
        return Error::invalidArgument(field + ": the URL contains user information; give credentials with --username and --password-env instead");
    }
    if (url.size() > 2048) return Error::invalidArgument(field + ": longer than 2048 characters");
    for (char c : url) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return Error::invalidArgument(field + ": contains spaces or control characters");
    }
    return Status::success();
}

std::string pullSourceLabel(const std::string& url) { return "pull " + url; }

}  // namespace svc
