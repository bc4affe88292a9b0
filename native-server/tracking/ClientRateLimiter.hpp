#pragma once
// A token bucket per client (an address), so that one browser or script flooding the events
// endpoint is refused (429) before its requests cost a body read, a tenant lookup or a place in a
// commit, while everybody else goes on. Kept in this node's memory: it runs on every request, so
// on a cluster the balancer counts each client over all nodes instead (docs/adr/0091); the limits
// that must hold over every node are the RateLimitStore's (docs/adr/0094).
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "store/MemoryRateLimitStore.hpp"

namespace svc {

struct RateLimit {
    double perSecond = 100;  // sustained requests per client; 0 switches the limiter off
    double burst = 400;      // requests a client may send at once after being idle
    size_t maxClients = 100'000;  // bounds the memory of the table (~100 bytes per client)

    TokenBucketLimit bucket() const { return {perSecond, burst}; }
};

class ClientRateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    explicit ClientRateLimiter(RateLimit limit) : limit_(limit), buckets_(limit.maxClients) {}

    // Takes one token from the client's bucket: nullopt when allowed, else the whole
    // seconds (>= 1) until the next token, for Retry-After.
    std::optional<int> take(const std::string& client, Clock::time_point now = Clock::now()) { return takeTokens(client, 1, now); }
    // Takes `tokens` at once, all or none; the wait is until enough have come back (more than the
    // burst never will: refused with the wait for a full bucket).
    std::optional<int> takeTokens(const std::string& client, int tokens, Clock::time_point now = Clock::now());

private:
    RateLimit limit_;
    MemoryRateLimitStore buckets_;
};

}  // namespace svc
