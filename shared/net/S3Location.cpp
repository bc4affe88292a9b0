#include "net/S3Location.hpp"

#include <cctype>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

bool validBucket(const std::string& bucket) {
    // S3's bucket naming rules: 3-63 of [a-z0-9.-], starting and ending with a letter or digit.
    if (bucket.size() < 3 || bucket.size() > 63) return false;
    for (char c : bucket) {
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-')) return false;
    }
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    return alnum(bucket.front()) && alnum(bucket.back()) && bucket.find("..") == std::string::npos;
}

bool validRegion(const std::string& region) {
    if (region.empty() || region.size() > 32) return false;
    for (char c : region) {
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-')) return false;
    }
    return true;
}

// Only %XX escapes: '+' is a valid key character, not a space.
std::optional<std::string> percentDecode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            return std::nullopt;
        }
        out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
        i += 2;
    }
    return out;
}

// An endpoint is an origin only: a path would change what is signed and where.
bool validEndpoint(const std::string& endpoint) {
    std::string lower = toLower(endpoint);
    size_t hostStart = lower.rfind("https://", 0) == 0 ? 8 : lower.rfind("http://", 0) == 0 ? 7 : 0;
    if (hostStart == 0 || endpoint.size() == hostStart) return false;
    return endpoint.find_first_of("/?#@", hostStart) == std::string::npos;
}

}  // namespace

Result<S3Location> S3Location::parse(const std::string& url, const std::string& field) {
    if (toLower(url.substr(0, 5)) != "s3://") return Error::invalidArgument(field + ": '" + url + "' is not an s3:// URL");
    std::string rest = url.substr(5);
    std::string query;
    if (size_t mark = rest.find('?'); mark != std::string::npos) {
        query = rest.substr(mark + 1);
        rest.resize(mark);
    }
    if (rest.find('#') != std::string::npos) return Error::invalidArgument(field + ": an s3:// URL has no fragment (#)");
    size_t slash = rest.find('/');
    S3Location location;
    location.bucket = rest.substr(0, slash);
    if (!validBucket(location.bucket)) {
        return Error::invalidArgument(field + ": '" + location.bucket +
                                      "' is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)");
    }
    auto key = percentDecode(slash == std::string::npos ? "" : rest.substr(slash + 1));
    if (!key) return Error::invalidArgument(field + ": the object key has a malformed %-escape");
    if (key->empty()) return Error::invalidArgument(field + ": s3://" + location.bucket + "/ names no object; give s3://bucket/path/feed.csv");
    if (key->size() > 1024) return Error::invalidArgument(field + ": the object key is longer than 1024 bytes");
    location.key = *key;
    for (const auto& pair : splitList(query, '&')) {
        size_t equals = pair.find('=');
        std::string name = pair.substr(0, equals);
        auto value = percentDecode(equals == std::string::npos ? "" : pair.substr(equals + 1));
        if (!value) return Error::invalidArgument(field + ": the value of '" + name + "' has a malformed %-escape");
        if (name == "region") {
            if (!validRegion(*value)) return Error::invalidArgument(field + ": region '" + *value + "' is not a region name like eu-central-1");
            location.region = *value;
        } else if (name == "endpoint") {
            if (!validEndpoint(*value)) {
                return Error::invalidArgument(field + ": endpoint '" + *value + "' is not an http(s)://host[:port] origin");
            }
            location.endpoint = *value;
        } else {
            return Error::invalidArgument(field + ": unknown parameter '" + name + "' (an s3:// URL takes region and endpoint)");
        }
    }
    return location;
}

std::string S3Location::httpUrl() const {
    std::string path;
    for (size_t start = 0;;) {
        size_t end = key.find('/', start);
        path += urlEncode(std::string_view(key).substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        path += '/';
        start = end + 1;
    }
    if (!endpoint.empty()) return endpoint + "/" + bucket + "/" + path;
    if (bucket.find('.') != std::string::npos) return "https://s3." + region + ".amazonaws.com/" + bucket + "/" + path;
    return "https://" + bucket + ".s3." + region + ".amazonaws.com/" + path;
}

std::string S3Location::signingScope() const { return "aws:amz:" + region + ":s3"; }

}  // namespace svc
