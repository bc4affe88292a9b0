#include "store/MemoryRateLimitStore.hpp"

namespace svc {

Result<TokenTake> MemoryRateLimitStore::take(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) {
    if (limit.perSecond <= 0) return TokenTake{};
    std::lock_guard lock(mutex_);
    auto found = buckets_.find(key);
    if (found == buckets_.end()) {
        if (buckets_.size() >= maxKeys_ && nowMillis - lastSweepMillis_ >= 1000) {
            // At most once a second: a table full of active clients must not cost a scan per request.
            lastSweepMillis_ = nowMillis;
            forgetFullLocked(nowMillis);
        }
        if (buckets_.size() >= maxKeys_) return TokenTake{true, limit.burst, 0};
        found = buckets_.emplace(key, Kept{TokenBucket::full(limit, nowMillis), nowMillis}).first;
    }
    TokenTake result = found->second.bucket.take(tokens, limit, nowMillis);
    found->second.fullAtMillis = found->second.bucket.fullAtMillis(limit);
    return result;
}

Status MemoryRateLimitStore::giveBack(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) {
    std::lock_guard lock(mutex_);
    auto found = buckets_.find(key);
    if (found == buckets_.end()) return Status::success();  // not kept: full already
    found->second.bucket.giveBack(tokens, limit, nowMillis);
    found->second.fullAtMillis = found->second.bucket.fullAtMillis(limit);
    return Status::success();
}

Result<int64_t> MemoryRateLimitStore::forgetFull(int64_t nowMillis) {
    std::lock_guard lock(mutex_);
    return forgetFullLocked(nowMillis);
}

int64_t MemoryRateLimitStore::forgetFullLocked(int64_t nowMillis) {
    // A bucket that has refilled completely behaves exactly like a new one: forgetting it changes nothing.
    return static_cast<int64_t>(std::erase_if(buckets_, [nowMillis](const auto& entry) { return entry.second.fullAtMillis <= nowMillis; }));
}

size_t MemoryRateLimitStore::size() {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

}  // namespace svc
