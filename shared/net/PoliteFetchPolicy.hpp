#pragma once
// How the image bot treats other people's servers (docs/adr/0038): at most `perHostLimit`
// requests in flight per host, a pause for the whole host when it says 429 or 503 with
// Retry-After, and exponential backoff between attempts at one URL. Pure bookkeeping: the
// caller holds the lock, supplies the time and does the waiting.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace svc {

struct PoliteFetchOptions {
    int perHostLimit = 2;
    int maxAttempts = 4;             // per URL and round, the first included
    int64_t backoffBaseMs = 1'000;   // before the 2nd attempt; doubled for each further one
    int64_t backoffMaxMs = 60'000;
    int64_t maxRetryAfterMs = 600'000;  // a longer Retry-After ends the round (the URL is tried later)
};

class PoliteFetchPolicy {
public:
    explicit PoliteFetchPolicy(PoliteFetchOptions options = {}) : options_(options) {}

    // Takes a slot for `host` when it has one free and is not paused at `nowMs`.
    bool tryAcquire(const std::string& host, int64_t nowMs);
    void release(const std::string& host);
    int inFlight(const std::string& host) const;
    // No request to `host` before `untilMs` (a later pause wins over an earlier one).
    void pauseHost(const std::string& host, int64_t untilMs);
    int64_t pausedUntilMs(const std::string& host) const;

    // Whether the failed attempt number `attempt` (1 = the first) at a URL is retried, and after
    // how many milliseconds: nullopt gives up this round. `status` 0 is a transport failure
    // (timeout, refused); `retryAfter` is the header as sent ("" when absent).
    std::optional<int64_t> retryDelayMs(int attempt, long status, std::string_view retryAfter, int64_t nowUnixSeconds) const;
    int64_t backoffMs(int attempt) const;
    static bool retryableStatus(long status);

    // Retry-After as delay-seconds ("120") or an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"),
    // in milliseconds from now (0 for a date in the past); nullopt when it is neither.
    static std::optional<int64_t> parseRetryAfterMs(std::string_view value, int64_t nowUnixSeconds);
    const PoliteFetchOptions& options() const { return options_; }

private:
    struct Host {
        int inFlight = 0;
        int64_t pausedUntilMs = 0;
    };
    PoliteFetchOptions options_;
    std::map<std::string, Host, std::less<>> hosts_;
};

}  // namespace svc
