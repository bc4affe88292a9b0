#pragma once
// A tenant's performance for a period: impressions, clicks, add-to-carts, attributed orders,
// revenue and commission, by widget type, by touchpoint and by test group and engine variant,
// with conversion (attributed orders per click) and its 95% interval, so an A/B comparison
// shows whether a difference is more than noise. Pure: built from what the ledger store read.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tracking/ConversionInterval.hpp"
#include "tracking/LedgerEntry.hpp"

namespace svc {

struct ReportRow {
    std::string key;  // the group's value, e.g. "SET", "product", "B / v2"
    int64_t impressions = 0, clicks = 0, addToCarts = 0;
    int64_t orders = 0;               // distinct orders with an attributed line in the group
    int64_t attributedRevenue = 0;    // cents, net of returns booked in the period
    int64_t commission = 0;           // cents, net of returns booked in the period
    ConversionInterval conversion;    // orders per click
};

class CommissionReport {
public:
    CommissionReport(int64_t from, int64_t to, const std::vector<EventCount>& events, const std::vector<LedgerEntry>& entries);

    const std::vector<ReportRow>& byWidget() const { return byWidget_; }
    const std::vector<ReportRow>& byTouchpoint() const { return byTouchpoint_; }
    const std::vector<ReportRow>& byTestGroup() const { return byTestGroup_; }
    const ReportRow& total() const { return total_; }
    // Orders booked in the period, attributed or not, and their gross revenue (for the share
    // the widgets earned).
    int64_t allOrders() const { return allOrders_; }
    int64_t allRevenue() const { return allRevenue_; }

    nlohmann::ordered_json toJson() const;

    // The per-line ledger as CSV (RFC 4180, a header row, one row per entry).
    static std::string ledgerCsv(const std::vector<LedgerEntry>& entries);

private:
    int64_t from_, to_;
    std::vector<ReportRow> byWidget_, byTouchpoint_, byTestGroup_;
    ReportRow total_;
    int64_t allOrders_ = 0, allRevenue_ = 0;
};

}  // namespace svc
