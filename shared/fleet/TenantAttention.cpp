#include "fleet/TenantAttention.hpp"

#include <algorithm>

#include "feed/FeedFreshness.hpp"

namespace svc {

std::string_view TenantAttention::name(AttentionKind kind) {
    switch (kind) {
        case AttentionKind::FeedFailing: return "feed-failing";
        case AttentionKind::FeedStale: return "feed-stale";
        case AttentionKind::PurchasesQuarantined: return "purchases-quarantined";
        case AttentionKind::PurchasesWaiting: return "purchases-waiting";
        case AttentionKind::HeldImports: return "held-imports";
        case AttentionKind::WidgetErrors: return "widget-errors";
        case AttentionKind::TrafficDrop: return "traffic-drop";
    }
    return "unknown";
}

TenantAttention TenantAttention::of(const TenantAttentionInput& input) {
    TenantAttention attention;
    // A disabled tenant serves nothing: nothing of it needs attention until it is enabled again.
    if (input.disabled) return attention;
    auto add = [&](AttentionKind kind, int points, std::string detail) {
        attention.reasons.push_back(AttentionReason{kind, points, std::move(detail)});
        attention.score += points;
    };
    if (input.facts) {
        const TenantFleetFacts& facts = *input.facts;
        int failing = 0, stale = 0;
        for (const auto& feed : facts.feeds) {
            bool pullFailed = feed.lastPullResult.rfind("failed", 0) == 0;
            if (feed.lastStatus == "failed" || pullFailed) {
                if (++failing <= kMaxCounted) add(AttentionKind::FeedFailing, kFeedFailing, feed.feed);
                continue;
            }
            FeedFreshnessInput freshness{feed.lastAppliedAt, feed.pullIntervalSeconds};
            if (FeedFreshness::of(freshness, input.now).state != FeedState::Fresh) {
                if (++stale <= kMaxCounted) add(AttentionKind::FeedStale, kFeedStale, feed.feed);
            }
        }
        if (facts.quarantinedLines > 0) {
            add(AttentionKind::PurchasesQuarantined, kPurchasesQuarantined, std::to_string(facts.quarantinedLines) + " lines");
        }
        if (facts.waitingPurchases > 0 && input.now - facts.oldestWaitingAt >= kWaitingAfter) {
            add(AttentionKind::PurchasesWaiting, kPurchasesWaiting, std::to_string(facts.waitingPurchases) + " purchases");
        }
        if (facts.heldImports > 0) {
            int counted = static_cast<int>(std::min<int64_t>(facts.heldImports, kMaxCounted));
            add(AttentionKind::HeldImports, kHeldImport * counted,
                std::to_string(facts.heldImports) + (facts.heldImports == 1 ? " import" : " imports"));
        }
        // This month's pace (events per elapsed second, projected onto the whole month) under
        // half of last month's total.
        int64_t elapsed = input.now - input.monthStart, length = input.monthEnd - input.monthStart;
        if (facts.widgetEventsLastMonth >= kTrafficDropFloor && elapsed >= kTrafficPaceAfter && length > 0) {
            double projected = static_cast<double>(facts.widgetEventsThisMonth) * static_cast<double>(length) / static_cast<double>(elapsed);
            if (projected * 2 < static_cast<double>(facts.widgetEventsLastMonth)) {
                add(AttentionKind::TrafficDrop, kTrafficDrop,
                    std::to_string(static_cast<int64_t>(projected)) + " projected vs " + std::to_string(facts.widgetEventsLastMonth));
            }
        }
    }
    if (input.widgetErrors.lastDay > 0) {
        add(AttentionKind::WidgetErrors, input.widgetErrors.lastDay >= kManyWidgetErrors ? 2 * kWidgetErrors : kWidgetErrors,
            std::to_string(input.widgetErrors.lastDay) + " in 24 h");
    }
    std::stable_sort(attention.reasons.begin(), attention.reasons.end(),
                     [](const AttentionReason& a, const AttentionReason& b) { return a.points > b.points; });
    return attention;
}

}  // namespace svc
