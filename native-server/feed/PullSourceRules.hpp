#pragma once
// The rules a pull source must meet, shared by `svc-server feed source add` and the operator
// API (console Feeds page), so both refuse the same sources with the same words; only the names
// of the fields differ (CLI options or JSON members).
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

// What the operator asks for. Credentials appear only as whether they are given: their values
// are checked by their owners (the CLI reads files and the environment).
struct PullSourceRequest {
    std::string feed = "default";
    std::string url;
    std::optional<std::string> every;  // "15m", "6h", "1d"; nullopt: the default for the feed's kind
    bool delta = false;
    std::string identifier = "sku";
    std::string delimiter = ";";
    std::string username;
    bool hasPassword = false;
    bool hasPrivateKey = false;
    std::string hostKey;
};

// How each field is called where the request came from.
struct PullSourceFieldNames {
    std::string feed, url, every, identifier, delimiter, username, password, privateKey, hostKey;
    static PullSourceFieldNames cli();
    static PullSourceFieldNames api();
};

struct CheckedPullSource {
    int64_t intervalSeconds = 0;  // valid only when `errors` is empty
    std::vector<Error> errors;    // every problem, in a fixed order; each names its field
};

class PullSourceRules {
public:
    static CheckedPullSource check(const PullSourceRequest& request, const PullSourceFieldNames& names);
    // An SSH private key as text, checked for its form only (libssh2 reads it at pull time).
    static Status checkPrivateKey(const std::string& key, const std::string& field, const std::string& what);
};

}  // namespace svc
