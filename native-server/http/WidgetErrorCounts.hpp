#pragma once
// Content requests of known tenants that svc answered with an error (a malformed widget list,
// content not available, a failure), per tenant and hour for the last 24 hours, for the fleet
// view (docs/adr/0066). Kept in memory: a few hundred bytes per tenant that ever had an error
// (unknown API IDs are not counted, so the map is bounded by the tenants), one short lock per
// failed request and nothing on the success path. A restart forgets them: they tell an operator
// "widgets are failing now", the metrics and logs keep the history.
#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "fleet/TenantAttention.hpp"

namespace svc {

class WidgetErrorCounts {
public:
    static constexpr size_t kMaxMessageBytes = 200;

    void record(int64_t tenantId, const std::string& message, int64_t now);
    // The last 24 hours' errors of every tenant that had one.
    std::unordered_map<int64_t, WidgetErrorFacts> lastDay(int64_t now) const;

private:
    struct Hours {
        std::array<uint32_t, 24> counts{};
        int64_t newestHour = 0;  // hours since the epoch of counts[newestHour % 24]
        std::string lastMessage;
    };
    static void advance(Hours& hours, int64_t hour);

    mutable std::mutex mutex_;
    std::unordered_map<int64_t, Hours> tenants_;
};

}  // namespace svc
