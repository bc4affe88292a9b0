#pragma once
// One line of a tenant's commission ledger: every order line is booked once as a sale
// (attributed or not, so the shop can check each line of each order), and each reported
// return of it as a return with negative amount, revenue and commission.
#include <cstdint>
#include <optional>
#include <string>

#include "tracking/AttributionRule.hpp"

namespace svc {

enum class LedgerKind { Sale, Return };

struct LedgerEntry {
    LedgerKind kind = LedgerKind::Sale;
    int64_t tenantId = 0;
    int64_t orderEvent = 0;  // the purchase's sequence in the events file
    std::string orderId;
    int64_t line = 0;        // the line's index in the order
    std::string sku;
    std::string mainSku;     // empty when the catalog does not know the SKU
    int64_t amount = 0;      // units; negative for a return
    int64_t price = 0;       // gross unit price in cents
    int64_t revenue = 0;     // attributed gross revenue in cents (0 when not attributed); negative for a return
    int64_t commission = 0;  // cents; negative for a return
    int64_t rateBasisPoints = 0;  // the rate applied, kept: a later change of the contract rewrites no history
    bool attributed = false;
    // Why, when attributed: the interaction that earned the line.
    std::optional<AttributionReason> reason;
    int64_t interaction = 0;  // its sequence
    std::string interactionType, widget, touchpoint, setId, testGroup, variant;
    int64_t interactionAt = 0;
    int64_t orderedAt = 0;   // the order's arrival, Unix seconds
    int64_t bookedAt = 0;    // sales: the order's arrival; returns: when the return was reported
    std::string returnId;    // returns only
};

// Widget events counted for reports, per UTC day and group. One query serves the summary (which
// adds the days up) and the console's series (which keeps them apart).
struct EventCount {
    std::string widget, touchpoint, testGroup, variant;
    int64_t views = 0, clicks = 0, addToCarts = 0;
    int64_t day = 0;  // the UTC day the events arrived, as Unix seconds at 00:00
};

}  // namespace svc
