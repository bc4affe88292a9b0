#pragma once
// One line of a tenant's commission ledger: every line of every claim on an order is booked
// once as a sale (attributed or not, earning or not, so the shop can check each line of each
// order), each reported return of it as a return with negative amount, revenue and commission,
// and, when a claim stops earning (disputed, replaced by the shop's confirmation, rejected),
// what it still earned as one reversal per line (docs/adr/0056). Money is Cents (docs/adr/0055).
#include <cstdint>
#include <optional>
#include <string>

#include "money/Cents.hpp"
#include "tracking/AttributionRule.hpp"
#include "tracking/OrderClaim.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {

enum class LedgerKind { Sale, Return, Reversal };
// "sale", "return", "reversal".
const char* ledgerKindName(LedgerKind kind);

struct LedgerEntry {
    LedgerKind kind = LedgerKind::Sale;
    int64_t tenantId = 0;
    int64_t orderEvent = 0;  // the claim's sequence in the events file (the purchase, or the shop's confirmation)
    std::string orderId;
    int64_t line = 0;        // the line's index in the order
    std::string sku;
    std::string mainSku;     // empty when the catalog does not know the SKU
    int64_t amount = 0;      // units; negative for a return or reversal
    Cents price;             // gross unit price
    Cents revenue;           // attributed gross revenue (0 when not attributed); negative for a return or reversal
    Cents commission;        // negative for a return or reversal
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
    ClaimSource claimSource = ClaimSource::Browser;
    // Sales: the claim's status when it was booked (only claimed and confirmed sales count as the
    // order); returns: the sale's; reversals: why the claim stopped earning.
    ClaimStatus claimStatus = ClaimStatus::Claimed;
    // No claim of the order names a visitor (_svc_cid): the browser sent the purchase without
    // consent (docs/adr/0083), or sent none, and the shop's confirmation named none either.
    // The order's, not the line's: the store reads it from the order's claims with the ledger.
    bool withoutConsent = false;
};

// A line of a claim that could not be booked (its money cannot be represented within the
// limits svc books), set aside with the reason instead of stopping every later booking.
struct QuarantinedLine {
    int64_t tenantId = 0;
    int64_t orderEvent = 0;  // the claim
    std::string orderId;
    int64_t line = 0;
    std::string sku;
    int64_t amount = 0;
    Cents price;
    std::string reason;
    int64_t at = 0;  // the claim's arrival, Unix seconds
};

// Widget events counted for reports, per UTC day and group. One query serves the summary (which
// adds the days up) and the console's series (which keeps them apart).
struct EventCount {
    std::string widget, touchpoint, testGroup, variant;
    int64_t views = 0, clicks = 0, addToCarts = 0;
    int64_t day = 0;  // the UTC day the events arrived, as Unix seconds at 00:00
};

}  // namespace svc
