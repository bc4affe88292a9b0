#include "feed/FeedFreshness.hpp"

#include <algorithm>

namespace svc {

FeedFreshnessState FeedFreshness::of(const FeedFreshnessInput& feed, int64_t now) {
    FeedFreshnessState result;
    result.staleAfterSeconds = feed.pullIntervalSeconds ? 2 * *feed.pullIntervalSeconds : kPushedStaleAfter;
    if (feed.lastAppliedAt <= 0) return result;
    // A clock set back is not a reason to call a feed stale: its age is at least 0.
    result.ageSeconds = std::max<int64_t>(0, now - feed.lastAppliedAt);
    result.state = result.ageSeconds > result.staleAfterSeconds ? FeedState::Stale : FeedState::Fresh;
    return result;
}

std::string_view FeedFreshness::name(FeedState state) {
    switch (state) {
        case FeedState::Fresh: return "fresh";
        case FeedState::Stale: return "stale";
        case FeedState::Never: return "never";
    }
    return "never";
}

}  // namespace svc
