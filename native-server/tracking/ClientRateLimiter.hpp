#pragma once
// A token bucket per client (an address, or a visitor id for purchases), so that one browser or
// script flooding the events endpoint is refused (429) before its requests cost a body read, a
// tenant lookup or a place in a commit, while everybody else goes on.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace svc {

struct RateLimit {
    double perSecond = 100;  // sustained requests per client; 0 switches the limiter off
    double burst = 400;      // requests a client may send at once after being idle
    size_t maxClients = 100'000;  // bounds the memory of the table (~100 bytes per client)
};

class ClientRateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    explicit ClientRateLimiter(RateLimit limit) : limit_(limit) {}

    // Takes one token from the client's bucket: nullopt when allowed, else the whole
    // seconds (>= 1) until the next token, for Retry-After.
    std::optional<int> take(const std::string& client, Clock::time_point now = Clock::now()) { return takeTokens(client, 1, now); }
    // Takes `tokens` at once (a request's purchases), all or none; the wait is until enough
    // have come back (more than the burst never will: refused with the wait for a full bucket).
    std::optional<int> takeTokens(const std::string& client, int tokens, Clock::time_point now = Clock::now());

private:
    struct Bucket {
        double tokens = 0;
        Clock::time_point updated;
    };
    void sweep(Clock::time_point now);

    RateLimit limit_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
    Clock::time_point lastSweep_{};
};

}  // namespace svc
