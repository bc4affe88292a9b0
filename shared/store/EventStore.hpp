#pragma once
// Storage of tracking events, owned by the tracking domain: the events endpoint appends,
// the recommendation engine (co-purchase learning) and later attribution read.
//
// Contract (tests/store/EventStoreContractTest.cpp):
// - order ids are per tenant: the same id at another tenant is another order, and no read of one
//   tenant returns another's events.
// - amounts and prices are kept as given, any int64: the parser's limits are not the store's
//   (claims beyond what svc books are set aside by the ledger, not refused here).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "tracking/OrderClaim.hpp"
#include "tracking/TrackingEvent.hpp"

namespace svc {

// The events of one request, for one tenant.
struct EventAppend {
    int64_t tenantId = 0;
    std::span<const TrackingEvent> events;
};

enum class AppendOutcome {
    Stored,
    Duplicate,  // a purchase repeating a stored claim exactly (visitor and lines): not stored again
    Conflict,   // a purchase whose order id was claimed before with other lines or another visitor, or
                // that disagrees with the shop's word on it: stored as a claim of its own (docs/adr/0056)
    TooManyClaims,  // the order id has kMaxBrowserClaimsPerOrder claims: nothing of the request is stored
    NotStored,      // another event of the request was refused (TooManyClaims): a request is all or nothing
};

// Browser claims one order id can collect before further differing ones are refused: a
// disputed order waits for the shop's word, and every claim costs its settlement a read.
inline constexpr size_t kMaxBrowserClaimsPerOrder = 20;

struct ShopWordOutcome {
    int64_t sequence = 0;  // the word's claim (the one stored before, when unchanged)
    bool changed = false;  // false: the shop said the same before, nothing was stored
};

class EventStore {
public:
    virtual ~EventStore() = default;
    // Appends the events of every request in one transaction, all or nothing, durable when
    // this returns: the group commit of the events endpoint. One outcome per event, in the
    // order of `requests` and their events. `receivedAt` is Unix seconds.
    virtual Result<std::vector<std::vector<AppendOutcome>>> append(std::span<const EventAppend> requests, int64_t receivedAt) = 0;
    // Records the shop's word on one of its orders (PUT /orders/{orderid}) as a claim of its own,
    // durable when this returns. A confirmation naming a browser claim takes that claim's lines
    // and visitor (NotFound when the order has no such browser claim). The same word as the
    // shop's latest on the order changes nothing.
    virtual Result<ShopWordOutcome> recordShopWord(int64_t tenantId, const std::string& orderId, const OrderConfirmation& word,
                                                   int64_t receivedAt) = 0;
    // The tenant's purchases with a sequence above `afterSequence`, in sequence order, at most
    // `limit` (each with all its lines): each order's first browser claim (what shoppers bought, for co-purchase
    // learning; conflicting claims and the shop's words are left out). Sequences only grow and
    // a reader never sees a gap fill in later, so the last sequence returned is a cursor that
    // misses nothing.
    virtual Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) = 0;
    // Retention, run by the cluster's leader once a day (docs/adr/0092): drops the interactions
    // (clicks, add-to-carts) no tenant's attribution window can reach from `now` any more, never
    // one that can still earn; claims, orders and the ledger stay. How many units went (PostgreSQL:
    // day partitions). SQLite keeps every event (0): its reports count views and clicks from those rows.
    virtual Result<size_t> dropExpiredInteractions(int64_t now) = 0;
};

}  // namespace svc
