#pragma once
// What needs an operator's attention at a tenant, and how much (docs/adr/0066, "Attention
// score"): each finding has points; the score is their sum and orders the fleet view. The
// points rank what loses a shop money or trust first: a feed that fails or went stale (the
// widgets show yesterday's prices and stock) before purchases not booked (commission missing
// from reports) before held imports (waiting for a decision) before widget errors and a drop
// in traffic (symptoms worth a look).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/FleetStore.hpp"

namespace svc {

enum class AttentionKind { FeedFailing, FeedStale, PurchasesQuarantined, PurchasesWaiting, HeldImports, WidgetErrors, TrafficDrop };

struct AttentionReason {
    AttentionKind kind;
    int points = 0;
    std::string detail;  // e.g. the feed's name, "3 imports"
};

struct WidgetErrorFacts {
    int64_t lastDay = 0;  // content requests answered with an error in the last 24 hours
    std::string lastMessage;
};

struct TenantAttentionInput {
    const TenantFleetFacts* facts = nullptr;  // nullptr: the tenant has none yet
    WidgetErrorFacts widgetErrors;
    bool disabled = false;
    int64_t now = 0;
    int64_t monthStart = 0, monthEnd = 0;  // this UTC month, for the traffic pace
};

struct TenantAttention {
    static constexpr int kFeedFailing = 40;          // per feed, at most kMaxCounted feeds
    static constexpr int kFeedStale = 30;            // per feed not also failing
    static constexpr int kPurchasesQuarantined = 30;
    static constexpr int kPurchasesWaiting = 20;     // only once the oldest waited kWaitingAfter
    static constexpr int kHeldImport = 25;           // per held import, at most kMaxCounted
    static constexpr int kWidgetErrors = 10;         // 20 from kManyWidgetErrors on
    static constexpr int kTrafficDrop = 10;
    static constexpr int kMaxCounted = 3;
    static constexpr int64_t kWaitingAfter = 15 * 60;  // booking normally follows within seconds
    static constexpr int64_t kManyWidgetErrors = 100;
    static constexpr int64_t kTrafficDropFloor = 1000;  // last month's widget events below this: too few to judge
    static constexpr int64_t kTrafficPaceAfter = 2 * 86400;  // the month's first two days are too short to judge

    int score = 0;
    std::vector<AttentionReason> reasons;  // highest points first

    static TenantAttention of(const TenantAttentionInput& input);
    static std::string_view name(AttentionKind kind);
};

}  // namespace svc
