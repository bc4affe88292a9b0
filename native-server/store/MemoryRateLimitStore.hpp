#pragma once
// RateLimitStore in this process's memory (docs/adr/0094): the rate limits of a deployment that
// one process serves (a data dir has one server: its lock), and the per-node limiters. Bounded:
// at `maxKeys` buckets the full ones are forgotten (at most once a second); if that frees
// nothing, a new key goes unmetered until buckets drain: that many distinct clients at once is a
// distributed flood a per-client limit cannot stop anyway, and refusing newcomers would lock out
// real shoppers.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "store/RateLimitStore.hpp"

namespace svc {

class MemoryRateLimitStore : public RateLimitStore {
public:
    explicit MemoryRateLimitStore(size_t maxKeys = 100'000) : maxKeys_(maxKeys) {}

    Result<TokenTake> take(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) override;
    Status giveBack(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) override;
    Result<int64_t> forgetFull(int64_t nowMillis) override;

    size_t size();

private:
    struct Kept {
        TokenBucket bucket;
        int64_t fullAtMillis = 0;
    };
    int64_t forgetFullLocked(int64_t nowMillis);

    const size_t maxKeys_;
    std::mutex mutex_;
    std::unordered_map<std::string, Kept> buckets_;
    int64_t lastSweepMillis_ = 0;
};

}  // namespace svc
