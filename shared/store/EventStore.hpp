#pragma once
// Storage of tracking events, owned by the tracking domain: the events endpoint appends,
// the recommendation engine (co-purchase learning) and later attribution read.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.hpp"
#include "tracking/TrackingEvent.hpp"

namespace svc {

// The events of one request, for one tenant.
struct EventAppend {
    int64_t tenantId = 0;
    std::span<const TrackingEvent> events;
};

enum class AppendOutcome {
    Stored,
    Duplicate,  // a purchase whose (tenant, orderid) was stored before: kept as it was, this one dropped
};

class EventStore {
public:
    virtual ~EventStore() = default;
    // Appends the events of every request in one transaction, all or nothing, durable when
    // this returns: the group commit of the events endpoint. One outcome per event, in the
    // order of `requests` and their events. `receivedAt` is Unix seconds.
    virtual Result<std::vector<std::vector<AppendOutcome>>> append(std::span<const EventAppend> requests, int64_t receivedAt) = 0;
    // The tenant's purchases with a sequence above `afterSequence`, in sequence order, at most
    // `limit`. Sequences only grow and a reader never sees a gap fill in later, so the last
    // sequence returned is a cursor that misses nothing.
    virtual Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) = 0;
};

}  // namespace svc
