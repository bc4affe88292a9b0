#include "feed/PullSource.hpp"

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

std::string pullSourceLabel(const std::string& url) { return "pull " + url; }

}  // namespace svc
