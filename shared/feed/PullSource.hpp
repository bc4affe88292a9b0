#pragma once
// Where and how often the service fetches one of a tenant's feeds (spec endpoint 3, pull
// transfer). One source per tenant and feed. Credentials are kept sealed (CredentialCipher);
// only whether they are set ever leaves the store.
#include <cstdint>
#include <optional>
#include <string>

#include "core/Result.hpp"

namespace svc {

// What a source fetches: a feed file, or the products of a registered shop plugin (docs/adr/0035).
constexpr const char* kPullSourceFile = "file";
constexpr const char* kPullSourcePlugin = "plugin";

struct PullSource {
    int64_t id = 0;
    std::string kind = kPullSourceFile;
    int64_t tenantId = 0;
    std::string feed = "default";
    std::string url;
    int64_t intervalSeconds = 0;
    bool delta = false;
    std::string identifier = "sku";
    char delimiter = ';';
    std::string sealedCredentials;  // empty: none
    // Validators of the last imported file, sent back so an unchanged file is not fetched again.
    std::string etag;
    std::string lastModified;
    int64_t nextRunAt = 0;
    int64_t lastRunAt = 0;
    std::string lastResult;  // "applied", "unchanged", "failed: ..."
    int64_t createdAt = 0;
};

// Pull intervals (docs/adr/0026): full feeds at least hourly-spaced, delta (stock and price)
// feeds down to 15 minutes; a full feed every 24 hours and a delta feed hourly by default.
constexpr int64_t kMinimumFullInterval = 3600;
constexpr int64_t kMinimumDeltaInterval = 900;
int64_t defaultPullInterval(bool delta);

// "15m", "2h", "1d" or plain seconds ("900s"); the error names `field`.
Result<int64_t> parsePullInterval(const std::string& text, const std::string& field);
std::string formatPullInterval(int64_t seconds);
// Refuses an interval below the minimum for the feed's kind, naming `field`.
Status validatePullInterval(int64_t seconds, bool delta, const std::string& field);
// Absolute http(s), ftp or sftp URL without user information (credentials go in their own options),
// or an s3:// object (net/S3Location). Names `field`.
Status validatePullUrl(const std::string& url, const std::string& field);
// The URL's scheme, lower case ("https", "sftp", "s3", ...).
std::string pullUrlScheme(const std::string& url);
// An SSH host key fingerprint as `ssh-keygen -lf` prints it: "SHA256:" and 43 base64 characters. Names `field`.
Status validateSshHostKey(const std::string& fingerprint, const std::string& field);
// The URL as the import history shows it: "pull " and the URL with its query values redacted.
std::string pullSourceLabel(const std::string& url);

// Tokens in a feed URL's query ("?token=SECRET") are credentials (issue 18, docs/adr/0061): the
// store keeps the URL with its query values replaced by kRedacted, and the query itself sealed
// with the credentials (Credentials::urlQuery). s3:// URLs are kept whole: their query holds
// the region and endpoint, and their secret is the access key.
constexpr const char* kRedacted = "\u2026";  // "…"
// "https://h/f.csv?a=1&token=x#top" → "https://h/f.csv?a=…&token=…#top"; an item without '=' becomes "…".
std::string redactPullUrl(const std::string& url);
// The query to seal: between '?' and '#'; "" when there is none or for s3://.
std::string pullUrlQuery(const std::string& url);
// `shown` (a stored, redacted URL) with `query` in place of its redacted one; `shown` when `query` is "".
std::string withPullUrlQuery(const std::string& shown, const std::string& query);
// Every http(s), ftp or sftp URL inside `text` (a message, a history entry) redacted as above.
std::string redactUrlsIn(const std::string& text);
// `text` with each value of `query` longer than two characters replaced by kRedacted: a
// message that quotes the URL it fetched (a fetch error, a redirect) keeps no token.
std::string hideQueryValues(const std::string& text, const std::string& query);

}  // namespace svc
