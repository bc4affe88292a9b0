#pragma once
// Storage of attribution and the commission ledger, owned by the tracking domain. It lives
// with the events (one file, one sequence): attribution reads interactions and claims on
// orders and books ledger entries, one tenant at a time (docs/adr/0056).
//
// Contract (tests/store/LedgerStoreContractTest.cpp):
// - a retried booking stores nothing twice: a sale or a reversal of a claim's line is kept once,
//   and a tenant's cursor never moves back (booking through an earlier sequence leaves it).
// - ranges [from, to) include `from` and exclude `to`; reads of one tenant never return another's.
// - money up to kMaxOrderTotal (tracking/Commission.hpp) and its negation is read back exactly;
//   lines set aside keep any int64 amount and price.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/Result.hpp"
#include "tracking/AttributionRule.hpp"
#include "tracking/LedgerEntry.hpp"
#include "tracking/OrderClaim.hpp"

namespace svc {

class LedgerStore {
public:
    virtual ~LedgerStore() = default;
    // Tenants with claims (purchases, the shop's words) not booked yet.
    virtual Result<std::vector<int64_t>> tenantsWithPendingClaims() = 0;
    // One tenant's claims not booked yet, in arrival order, at most `limit`, each with its lines.
    virtual Result<std::vector<OrderClaim>> claimsToBook(int64_t tenantId, size_t limit) = 0;
    // Every claim on one order up to `throughSequence` (booked or not), in arrival order.
    virtual Result<std::vector<OrderClaim>> orderClaims(int64_t tenantId, const std::string& orderId, int64_t throughSequence) = 0;
    // The cid's clicks and add-to-carts of one tenant that arrived before `beforeSequence`,
    // received at `since` or later, in arrival order.
    virtual Result<std::vector<Interaction>> interactions(int64_t tenantId, const std::string& cid, int64_t beforeSequence,
                                                          int64_t since) = 0;
    // Books one tenant's entries and the lines set aside, and moves that tenant's cursor to
    // `throughSequence`, in one transaction: a crash in between books nothing twice and skips
    // nothing, and no other tenant waits for it.
    virtual Status book(int64_t tenantId, const std::vector<LedgerEntry>& entries, const std::vector<QuarantinedLine>& quarantined,
                        int64_t throughSequence) = 0;
    // The ledger entries of one order (every claim's sales, returns, reversals), in booking order.
    virtual Result<std::vector<LedgerEntry>> orderEntries(int64_t tenantId, const std::string& orderId) = 0;
    // Books a return's entries; false (and nothing booked) when `returnId` was booked before.
    virtual Result<bool> bookReturn(int64_t tenantId, const std::string& returnId, const std::vector<LedgerEntry>& entries) = 0;
    // Entries booked in [from, to) (Unix seconds), in booking order.
    virtual Result<std::vector<LedgerEntry>> entries(int64_t tenantId, int64_t from, int64_t to) = 0;
    // Lines set aside whose claims arrived in [from, to), oldest first, at most `limit`, and how many there are.
    virtual Result<std::pair<std::vector<QuarantinedLine>, int64_t>> quarantined(int64_t tenantId, int64_t from, int64_t to,
                                                                                 size_t limit) = 0;
    // Widget events received in [from, to), counted per UTC day, widget, touchpoint, test group
    // and variant (by day first).
    virtual Result<std::vector<EventCount>> eventCounts(int64_t tenantId, int64_t from, int64_t to) = 0;
    // Claims not booked yet: attribution's backlog (all tenants, or one).
    virtual Result<int64_t> pendingPurchases() = 0;
    virtual Result<int64_t> pendingPurchases(int64_t tenantId) = 0;
};

}  // namespace svc
