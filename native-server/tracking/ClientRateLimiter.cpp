#include "tracking/ClientRateLimiter.hpp"

#include <algorithm>
#include <cmath>

namespace svc {

std::optional<int> ClientRateLimiter::takeTokens(const std::string& client, int tokens, Clock::time_point now) {
    if (limit_.perSecond <= 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    auto found = buckets_.find(client);
    if (found == buckets_.end()) {
        if (buckets_.size() >= limit_.maxClients) sweep(now);
        // Still full after dropping idle clients: this many distinct addresses at once is a
        // distributed flood that a per-client limit cannot stop anyway, and refusing newcomers
        // would lock out real shoppers; they go unmetered until buckets drain.
        if (buckets_.size() >= limit_.maxClients) return std::nullopt;
        found = buckets_.emplace(client, Bucket{limit_.burst, now}).first;
    }
    Bucket& bucket = found->second;
    double elapsed = std::chrono::duration<double>(now - bucket.updated).count();
    if (elapsed > 0) {
        bucket.tokens = std::min(limit_.burst, bucket.tokens + elapsed * limit_.perSecond);
        bucket.updated = now;
    }
    double wanted = std::min(static_cast<double>(tokens), limit_.burst);
    if (bucket.tokens >= tokens) {
        bucket.tokens -= tokens;
        return std::nullopt;
    }
    double wait = (wanted - bucket.tokens) / limit_.perSecond;
    return std::max(1, static_cast<int>(std::ceil(wait)));
}

void ClientRateLimiter::sweep(Clock::time_point now) {
    // At most once a second: a table full of active clients must not cost a scan per request.
    if (now - lastSweep_ < std::chrono::seconds(1)) return;
    lastSweep_ = now;
    // A bucket that has refilled completely behaves exactly like a new one: forgetting it changes nothing.
    double refillSeconds = limit_.burst / limit_.perSecond;
    std::erase_if(buckets_, [&](const auto& entry) {
        return std::chrono::duration<double>(now - entry.second.updated).count() >= refillSeconds;
    });
}

}  // namespace svc
