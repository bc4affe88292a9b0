#pragma once
// A token bucket's arithmetic (docs/adr/0094): a bucket holds at most `burst` tokens, refills at
// `perSecond`, and a request either takes its tokens or learns how long to wait. In one place for
// every limiter whose buckets live in memory (tracking/ClientRateLimiter, the rate limits of a
// one-process deployment); the PostgreSQL store computes the same in its statement.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace svc {

struct TokenBucketLimit {
    double perSecond = 0;  // sustained rate; 0 or less: no limit
    double burst = 0;      // tokens a client may spend at once after being idle
};

// What one take found.
struct TokenTake {
    bool taken = true;
    double left = 0;            // tokens in the bucket afterwards
    int retryAfterSeconds = 0;  // when refused: whole seconds (>= 1) until the tokens asked for are there
};

// Whole seconds (at least 1) until `missing` tokens have come back at `perSecond`: Retry-After.
inline int retryAfterSeconds(double missing, double perSecond) {
    double wait = perSecond > 0 ? missing / perSecond : 1;
    return std::max(1, static_cast<int>(std::ceil(wait)));
}

struct TokenBucket {
    double tokens = 0;
    int64_t updatedMillis = 0;

    // A bucket never seen: full.
    static TokenBucket full(TokenBucketLimit limit, int64_t nowMillis) { return {limit.burst, nowMillis}; }

    // Tokens come back for the time since the last update, up to the burst. A clock that went back
    // (another node's, a step of NTP) refills nothing and never moves the update time back.
    void refill(TokenBucketLimit limit, int64_t nowMillis) {
        if (nowMillis <= updatedMillis) return;
        tokens = std::min(limit.burst, tokens + static_cast<double>(nowMillis - updatedMillis) * limit.perSecond / 1000.0);
        updatedMillis = nowMillis;
    }

    // Takes `wanted` tokens, all or none. More than the burst is never there: refused, with the
    // wait until the bucket is full.
    TokenTake take(double wanted, TokenBucketLimit limit, int64_t nowMillis) {
        refill(limit, nowMillis);
        if (wanted <= tokens) {
            tokens -= wanted;
            return {true, tokens, 0};
        }
        return {false, tokens, retryAfterSeconds(std::min(wanted, limit.burst) - tokens, limit.perSecond)};
    }

    // Puts tokens back (an attempt that turned out not to count), never above the burst.
    void giveBack(double given, TokenBucketLimit limit, int64_t nowMillis) {
        refill(limit, nowMillis);
        tokens = std::min(limit.burst, tokens + given);
    }

    // From this time on the bucket is full again and behaves exactly as a new one: it may be forgotten.
    int64_t fullAtMillis(TokenBucketLimit limit) const {
        if (limit.perSecond <= 0 || tokens >= limit.burst) return updatedMillis;
        return updatedMillis + static_cast<int64_t>(std::ceil((limit.burst - tokens) * 1000.0 / limit.perSecond));
    }
};

}  // namespace svc
