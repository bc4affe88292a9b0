#pragma once
// Storage of attribution and the commission ledger, owned by the tracking domain. It lives
// with the events (one file, one sequence): attribution reads interactions and purchases and
// books ledger entries.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "tracking/AttributionRule.hpp"
#include "tracking/LedgerEntry.hpp"

namespace svc {

struct PurchaseToAttribute {
    int64_t tenantId = 0;
    int64_t sequence = 0;
    std::string orderId;
    std::string cid;  // empty when the purchase carried none (then nothing can be attributed)
    int64_t receivedAt = 0;
    std::vector<OrderLine> lines;
};

class LedgerStore {
public:
    virtual ~LedgerStore() = default;
    // Purchases of every tenant not yet booked, in arrival order, at most `limit`.
    virtual Result<std::vector<PurchaseToAttribute>> purchasesToAttribute(size_t limit) = 0;
    // The cid's clicks and add-to-carts of one tenant that arrived before `beforeSequence`,
    // received at `since` or later.
    virtual Result<std::vector<Interaction>> interactions(int64_t tenantId, const std::string& cid, int64_t beforeSequence,
                                                          int64_t since) = 0;
    // Books the sale entries of purchases and moves the cursor to `throughSequence`, in one
    // transaction: a crash in between books nothing twice and skips nothing.
    virtual Status bookSales(const std::vector<LedgerEntry>& entries, int64_t throughSequence) = 0;
    // The ledger entries of one order (sales and returns), in booking order.
    virtual Result<std::vector<LedgerEntry>> orderEntries(int64_t tenantId, const std::string& orderId) = 0;
    // Whether the purchase exists at all (booked or not yet).
    virtual Result<bool> orderExists(int64_t tenantId, const std::string& orderId) = 0;
    // Books a return's entries; false (and nothing booked) when `returnId` was booked before.
    virtual Result<bool> bookReturn(int64_t tenantId, const std::string& returnId, const std::vector<LedgerEntry>& entries) = 0;
    // Entries booked in [from, to) (Unix seconds), in booking order.
    virtual Result<std::vector<LedgerEntry>> entries(int64_t tenantId, int64_t from, int64_t to) = 0;
    // Widget events received in [from, to), counted per UTC day, widget, touchpoint, test group
    // and variant (by day first).
    virtual Result<std::vector<EventCount>> eventCounts(int64_t tenantId, int64_t from, int64_t to) = 0;
    // Purchases not booked yet (all tenants): attribution's backlog.
    virtual Result<int64_t> pendingPurchases() = 0;
};

}  // namespace svc
