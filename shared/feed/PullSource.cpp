#include "feed/PullSource.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "net/S3Location.hpp"
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

std::string pullUrlScheme(const std::string& url) {
    size_t schemeEnd = url.find("://");
    return schemeEnd == std::string::npos ? "" : toLower(url.substr(0, schemeEnd));
}

Status validatePullUrl(const std::string& url, const std::string& field) {
    std::string scheme = pullUrlScheme(url);
    size_t schemeEnd = url.find("://");
    if (scheme != "http" && scheme != "https" && scheme != "ftp" && scheme != "sftp" && scheme != "s3") {
        return Error::invalidArgument(field + ": '" + url + "' is not an absolute http://, https://, ftp://, sftp:// or s3:// URL");
    }
    if (scheme == "s3") {
        if (auto location = S3Location::parse(url, field); !location) return location.error();
    }
    size_t authorityEnd = url.find_first_of("/?#", schemeEnd + 3);
    std::string authority = url.substr(schemeEnd + 3, authorityEnd == std::string::npos ? std::string::npos : authorityEnd - schemeEnd - 3);
    if (authority.empty()) return Error::invalidArgument(field + ": '" + url + "' has no host");
    if (authority.find('@') != std::string::npos) {
        return Error::invalidArgument(field + ": the URL contains user information; give the user and password separately instead");
    }
    if (url.size() > 2048) return Error::invalidArgument(field + ": longer than 2048 characters");
    for (char c : url) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return Error::invalidArgument(field + ": contains spaces or control characters");
    }
    return Status::success();
}

Status validateSshHostKey(const std::string& fingerprint, const std::string& field) {
    // SHA-256 is 32 bytes: 43 base64 characters without the padding ssh-keygen leaves out.
    std::string_view digest = std::string_view(fingerprint).substr(fingerprint.rfind("SHA256:", 0) == 0 ? 7 : fingerprint.size());
    bool base64 = digest.size() == 43 && digest.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") ==
                                             std::string_view::npos;
    if (!base64) {
        return Error::invalidArgument(field + ": '" + fingerprint +
                                      "' is not a host key fingerprint like SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s "
                                      "(ssh-keygen -lf <host key>.pub, or ssh-keyscan HOST | ssh-keygen -lf -)");
    }
    return Status::success();
}

std::string pullSourceLabel(const std::string& url) { return "pull " + redactPullUrl(url); }

namespace {

// Where `url`'s query starts (after '?') and ends (at '#' or the end); npos when there is none to redact.
std::pair<size_t, size_t> queryRange(const std::string& url) {
    if (pullUrlScheme(url) == "s3") return {std::string::npos, std::string::npos};
    size_t question = url.find('?');
    size_t hash = url.find('#');
    if (question == std::string::npos || (hash != std::string::npos && hash < question)) return {std::string::npos, std::string::npos};
    return {question + 1, hash == std::string::npos ? url.size() : hash};
}

std::string redactQuery(std::string_view query) {
    std::string out;
    size_t start = 0;
    while (start <= query.size()) {
        size_t end = query.find('&', start);
        if (end == std::string_view::npos) end = query.size();
        std::string_view item = query.substr(start, end - start);
        size_t equals = item.find('=');
        if (start > 0) out += '&';
        if (!item.empty()) out += equals == std::string_view::npos ? std::string(kRedacted) : std::string(item.substr(0, equals + 1)) + kRedacted;
        start = end + 1;
    }
    return out;
}

}  // namespace

std::string redactPullUrl(const std::string& url) {
    auto [begin, end] = queryRange(url);
    if (begin == std::string::npos || begin == end) return url;
    return url.substr(0, begin) + redactQuery(std::string_view(url).substr(begin, end - begin)) + url.substr(end);
}

std::string pullUrlQuery(const std::string& url) {
    auto [begin, end] = queryRange(url);
    if (begin == std::string::npos) return "";
    return url.substr(begin, end - begin);
}

std::string withPullUrlQuery(const std::string& shown, const std::string& query) {
    if (query.empty()) return shown;
    auto [begin, end] = queryRange(shown);
    if (begin == std::string::npos) return shown;
    return shown.substr(0, begin) + query + shown.substr(end);
}

std::string redactUrlsIn(const std::string& text) {
    std::string out;
    size_t done = 0;
    while (true) {
        size_t scheme = text.find("://", done);
        if (scheme == std::string::npos) break;
        size_t start = scheme;
        while (start > done && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
        size_t end = text.find_first_of(" \t\r\n'\"<>", scheme);
        if (end == std::string::npos) end = text.size();
        out += text.substr(done, start - done);
        out += redactPullUrl(text.substr(start, end - start));
        done = end;
    }
    return out + text.substr(done);
}

std::string hideQueryValues(const std::string& text, const std::string& query) {
    std::string out = text;
    size_t start = 0;
    while (start < query.size()) {
        size_t end = query.find('&', start);
        if (end == std::string::npos) end = query.size();
        std::string item = query.substr(start, end - start);
        size_t equals = item.find('=');
        std::string value = equals == std::string::npos ? item : item.substr(equals + 1);
        if (value.size() > 2) {
            for (size_t at = out.find(value); at != std::string::npos; at = out.find(value, at + std::string(kRedacted).size())) {
                out.replace(at, value.size(), kRedacted);
            }
        }
        start = end + 1;
    }
    return out;
}

}  // namespace svc
