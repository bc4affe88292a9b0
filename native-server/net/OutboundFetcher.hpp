#pragma once
// The one way the service fetches from addresses that shops give it (feed pulls; later
// shop plugins and images). libcurl with the same safety rules for every caller:
// - every connection, including those after redirects, goes only to an address the
//   AddressPolicy accepted: curl resolves, and its open-socket callback checks the very
//   address it is about to connect to (so DNS rebinding between check and connect is impossible);
// - redirects are followed here, hop by hop (scheme re-checked, credentials kept only on the same origin);
//   ftp and sftp only as the URL given, never as a redirect target; sftp only to a pinned host key;
// - connect and total timeouts, a maximum body size counted after decompression (gzip bombs),
//   the body streamed to a file, never held in memory; no proxies from the environment.
#include <cstdint>
#include <string>
#include <vector>

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
    // http, https, ftp (passive) or sftp; for (s)ftp the file time stands in for Last-Modified.
    std::string url;
    std::string username;  // basic auth (HTTP), the login ((s)ftp) or the S3 access key id; never logged
    std::string password;
    // sftp: the server's host key fingerprint, "SHA256:<base64>". Required: a server whose key differs
    // is never sent the password (docs/adr/0033).
    std::string sshHostKeySha256;
    // sftp: a private key (text) to log in with before the password; written 0600 beside bodyPath for
    // libssh2, which reads keys from files only, and removed when the fetch ends.
    std::string sshPrivateKey;
    // When set (with a username): the request is signed with AWS Signature V4 for this scope,
    // "aws:amz:<region>:s3", instead of basic auth (docs/adr/0034).
    std::string awsSigV4;
    // Conditional request: a 304 answer leaves the file empty and sets notModified.
    std::string ifNoneMatch;
    std::string ifModifiedSince;
    std::string bodyPath;  // the body is written here (created 0600, truncated)
    // Extra request headers ("Name: value"), sent like credentials: only to the origin of `url`,
    // never to where it redirects (shop plugins authenticate svc by svc-com-tid/svc-com-fid).
    std::vector<std::string> headers;
    // Tighter limits for this request than the fetcher's (0: the fetcher's own), e.g. the 5 s of
    // a shop plugin call.
    long totalTimeoutMs = 0;
    int64_t maxBodyBytes = 0;
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
enum class FetchFailure { BadUrl, Ssrf, Dns, Refused, Timeout, Tls, HostKey, Auth, NotFound, HttpStatus, TooLarge, Redirects, Other };
std::string_view fetchFailureName(FetchFailure failure);  // "SSRF", "DNS", "refused", "host key", ...

class OutboundFetcher {
public:
    OutboundFetcher(AddressPolicy policy, FetchLimits limits);
    // Errors: InvalidArgument (bad URL), PermissionDenied (SSRF guard), Unauthenticated (auth, SSH host key),
    // NotFound (404/410), ResourceExhausted (too large), Unavailable (DNS, refused, TLS, timeouts, other statuses).
    // The message starts with the failure's name, e.g. "DNS: could not resolve host feeds.example".
    // After an HTTP status failure (auth, not found, other statuses) bodyPath holds the answer's
    // body, which callers may read for the server's own explanation.
    Result<FetchResponse> fetch(const FetchRequest& request) const;
    const FetchLimits& limits() const { return limits_; }

private:
    AddressPolicy policy_;
    FetchLimits limits_;
};

}  // namespace svc
