#pragma once
// Whether a feed is up to date (docs/adr/0043): stale once its last applied import is older
// than twice its pull interval, or than 48 hours for a feed the shop pushes (no pull source).
// Twice the interval lets one pull fail or find the file unchanged without raising the alarm.
#include <cstdint>
#include <optional>
#include <string_view>

namespace svc {

enum class FeedState { Fresh, Stale, Never };

struct FeedFreshnessInput {
    int64_t lastAppliedAt = 0;                   // 0: no import was ever applied
    std::optional<int64_t> pullIntervalSeconds;  // nullopt: pushed
};

struct FeedFreshnessState {
    FeedState state = FeedState::Never;
    int64_t ageSeconds = 0;         // since the last applied import (0 when never)
    int64_t staleAfterSeconds = 0;  // the age from which it is stale
};

class FeedFreshness {
public:
    static constexpr int64_t kPushedStaleAfter = 48 * 3600;
    static FeedFreshnessState of(const FeedFreshnessInput& feed, int64_t now);
    static std::string_view name(FeedState state);
};

}  // namespace svc
