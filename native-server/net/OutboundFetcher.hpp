#pragma once
// The one way the service fetches from addresses that shops give it (feed pulls; later
// shop plugins and images). libcurl with the same safety rules for every caller:
// - every connection, including those after redirects, goes only to an address the
//   AddressPolicy accepted: curl resolves, and its open-socket callback checks the very
//   address it is about to connect to (so DNS rebinding between check and connect is impossible);
// - redirects are followed here, hop by hop (scheme re-checked, credentials kept only on the same origin);
// - connect and total timeouts, a maximum body size counted after decompression (gzip bombs),
//   the body streamed to a file, never held in memory; no proxies from the environment.
#include <cstdint>
#include <string>

#include "core/Result.hpp"
#include "net/AddressPolicy.hpp"

namespace svc {

struct FetchLimits {
    long connectTimeoutMs = 10'000;
    long totalTimeoutMs = 300'000;
    int64_t maxBodyBytes = int64_t{2} << 30;
    int maxRedirects = 5;
};

struct FetchRequest {
    std::string url;  // http, https or ftp (passive; the file time stands in for Last-Modified)
    std::string username;  // basic auth when not empty; never logged
    std::string password;
    // Conditional request: a 304 answer leaves the file empty and sets notModified.
    std::string ifNoneMatch;
    std::string ifModifiedSince;
    std::string bodyPath;  // the body is written here (created 0600, truncated)
    std::string userAgent;  // "" : svc-feedpull/1.0
    // 429 and 503 come back as a response (status, retryAfter) instead of an error, for callers
    // that wait as the server asks (the image bot).
    bool throttlingAsResponse = false;
};

struct FetchResponse {
    long status = 0;
    bool notModified = false;
    std::string finalUrl;         // after redirects
    std::string contentType;      // as sent
    std::string contentEncoding;  // as sent; the file holds the decoded body
    std::string etag;
    std::string lastModified;
    std::string retryAfter;       // as sent
    int64_t bodyBytes = 0;        // decoded
    int redirects = 0;
};

// Why a fetch failed, for the import history; the Error's message starts with its name.
enum class FetchFailure { BadUrl, Ssrf, Dns, Refused, Timeout, Tls, Auth, NotFound, HttpStatus, TooLarge, Redirects, Other };
std::string_view fetchFailureName(FetchFailure failure);  // "SSRF", "DNS", "refused", ...

class OutboundFetcher {
public:
    OutboundFetcher(AddressPolicy policy, FetchLimits limits);
    // Errors: InvalidArgument (bad URL), PermissionDenied (SSRF guard), Unauthenticated (auth),
    // NotFound (404/410), ResourceExhausted (too large), Unavailable (DNS, refused, TLS, timeouts, other statuses).
    // The message starts with the failure's name, e.g. "DNS: could not resolve host feeds.example".
    Result<FetchResponse> fetch(const FetchRequest& request) const;
    const FetchLimits& limits() const { return limits_; }

private:
    AddressPolicy policy_;
    FetchLimits limits_;
};

}  // namespace svc
