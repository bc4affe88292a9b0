#pragma once
// Rate limits that must hold over every node of a deployment (docs/adr/0094): token buckets by
// key (purchases per address and per visitor, shop registrations per address, failed sign-ins
// per address). A client whose requests a balancer spreads over N nodes gets the limit once,
// not N times. The per-request events limit is not kept here: it is the hottest path, so on a
// cluster the balancer counts it (docs/adr/0091).
//
// Contract (tests/store/RateLimitStoreContractTest.cpp):
// - a key never seen, or forgotten, is a full bucket (`burst` tokens); tokens come back at
//   `perSecond` up to the burst; the limit is the caller's and may be given per call.
// - take removes all the tokens asked for or none; refused, it says after how many whole seconds
//   (>= 1) they would be there. More than the burst is always refused.
// - takes from many connections at once never take more than the bucket holds.
// - giveBack returns tokens, never above the burst; a key not kept is full already.
// - forgetFull drops the buckets full again by `nowMillis` (they behave as new ones) and only those.
// - time that goes back (another node's clock) refills nothing; keys are compared byte for byte.
#include <cstdint>
#include <string>

#include "core/Result.hpp"
#include "core/TokenBucket.hpp"

namespace svc {

class RateLimitStore {
public:
    virtual ~RateLimitStore() = default;

    virtual Result<TokenTake> take(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) = 0;
    virtual Status giveBack(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) = 0;
    // The number of buckets forgotten (the cluster's leader calls it now and then; docs/adr/0092).
    virtual Result<int64_t> forgetFull(int64_t nowMillis) = 0;
};

}  // namespace svc
