#pragma once
// A tenant's performance for a period: impressions, clicks, add-to-carts, attributed orders,
// revenue and commission, by widget type, by touchpoint and by test group and engine variant,
// with conversion (attributed orders per click) and its 95% interval, so an A/B comparison
// shows whether a difference is more than noise. Pure: built from what the ledger store read.
// Money adds up in checked Cents: a period whose sums would leave 64 bits is refused, naming
// the figure, instead of showing a wrapped (negative) revenue (docs/adr/0055).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"
#include "money/Cents.hpp"
#include "tracking/ConversionInterval.hpp"
#include "tracking/LedgerEntry.hpp"

namespace svc {

struct ReportRow {
    std::string key;  // the group's value, e.g. "SET", "product", "B / v2"
    int64_t impressions = 0, clicks = 0, addToCarts = 0;
    int64_t orders = 0;               // distinct orders with an attributed sale in the group
    Cents attributedRevenue;          // net of returns and reversals booked in the period
    Cents commission;                 // net of returns and reversals booked in the period
    ConversionInterval conversion;    // orders per click
};

class CommissionReport {
public:
    static Result<CommissionReport> build(int64_t from, int64_t to, const std::vector<EventCount>& events,
                                          const std::vector<LedgerEntry>& entries);

    const std::vector<ReportRow>& byWidget() const { return byWidget_; }
    const std::vector<ReportRow>& byTouchpoint() const { return byTouchpoint_; }
    const std::vector<ReportRow>& byTestGroup() const { return byTestGroup_; }
    const ReportRow& total() const { return total_; }
    // Orders booked in the period, attributed or not, and their gross revenue (for the share
    // the widgets earned): each order once, as its earning claim says (docs/adr/0056).
    int64_t allOrders() const { return allOrders_; }
    Cents allRevenue() const { return allRevenue_; }
    // The part of those that came without a visitor id (no consent, docs/adr/0083): booked and
    // in the figures above like any other order, never attributed, so counted apart.
    int64_t ordersWithoutConsent() const { return ordersWithoutConsent_; }
    Cents revenueWithoutConsent() const { return revenueWithoutConsent_; }
    // Orders with a claim booked in the period that earns nothing because it disagrees with
    // another claim or with the shop's confirmation (claim_status disputed or conflict).
    int64_t conflicts() const { return conflicts_; }

    nlohmann::ordered_json toJson() const;

    // The per-line ledger as CSV (RFC 4180, a header row, one row per entry).
    static std::string ledgerCsv(const std::vector<LedgerEntry>& entries);

private:
    CommissionReport(int64_t from, int64_t to) : from_(from), to_(to) {}

    int64_t from_, to_;
    std::vector<ReportRow> byWidget_, byTouchpoint_, byTestGroup_;
    ReportRow total_;
    int64_t allOrders_ = 0, conflicts_ = 0, ordersWithoutConsent_ = 0;
    Cents allRevenue_, revenueWithoutConsent_;
};

}  // namespace svc
