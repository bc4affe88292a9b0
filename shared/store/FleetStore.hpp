#pragma once
// What the fleet view (the console's tenants page, docs/adr/0066) reads about every tenant at
// once: a bounded number of aggregate queries, never one query per tenant, so a page of a fleet
// of thousands of shops costs the same few queries as a fleet of ten.
//
// Contract (tests/store/FleetStoreContractTest.cpp): months are UTC months of arrival (events)
// and of booking (commission); lines set aside count from `quarantineSince` on, inclusive; a feed
// whose only imports are held or queued is no feed here (held imports count in heldImports).
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/Result.hpp"

namespace svc {

// One feed of a tenant: one with a pull source, or one that ever finished an import.
struct FleetFeedFacts {
    std::string feed;
    int64_t lastAppliedAt = 0;                   // 0: never applied
    std::string lastStatus;                      // the newest finished import's: "applied", "failed" or "" (none)
    std::string lastMessage;                     // why it failed
    int64_t lastFinishedAt = 0;
    std::optional<int64_t> pullIntervalSeconds;  // nullopt: pushed
    int64_t lastPullAt = 0;
    std::string lastPullResult;                  // the pull source's, e.g. "applied", "unchanged", "failed: ..."
};

struct TenantFleetFacts {
    std::string country;
    std::vector<std::string> shopUrls;  // registered by shop plugins (searchable by domain)
    std::vector<FleetFeedFacts> feeds;
    int64_t heldImports = 0;
    int64_t quarantinedLines = 0;  // purchase lines set aside since `quarantineSince` (docs/adr/0055)
    int64_t waitingPurchases = 0;  // claims not booked yet
    int64_t oldestWaitingAt = 0;   // when the oldest of them arrived
    int64_t widgetEventsThisMonth = 0, widgetEventsLastMonth = 0;
    int64_t purchasesThisMonth = 0, purchasesLastMonth = 0;
    int64_t commissionThisMonth = 0, commissionLastMonth = 0;  // cents, booked in that UTC month
};

struct FleetPeriod {
    int thisMonth = 0;  // YYYYMM (UTC)
    int lastMonth = 0;
    int64_t quarantineSince = 0;
};

class FleetStore {
public:
    virtual ~FleetStore() = default;
    // The facts of every tenant that has any, by tenant id; tenants without any are absent.
    virtual Result<std::unordered_map<int64_t, TenantFleetFacts>> facts(const FleetPeriod& period) = 0;
};

}  // namespace svc
