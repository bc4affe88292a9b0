#pragma once
// A tenant's performance per UTC day for the console's charts (docs/adr/0047): the figures of
// the commission report (impressions, clicks, add-to-carts, attributed orders, revenue and
// commission) for each day of a period and each value of one dimension (widget type,
// touchpoint or test group). Each day is a CommissionReport of that day's events and ledger
// entries, and the totals are the CommissionReport of the whole period, so a series always
// adds up to what GET /reports/summary says. Pure: built from what the ledger store read.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tracking/CommissionReport.hpp"

namespace svc {

enum class PerformanceDimension { Widget, Touchpoint, TestGroup };

// "widget", "touchpoint", "testGroup"; nullopt for anything else.
std::optional<PerformanceDimension> performanceDimensionNamed(std::string_view name);
const char* performanceDimensionName(PerformanceDimension dimension);

struct PerformanceLine {
    std::string key;              // the dimension's value, e.g. "SIMILAR", "product", "A / v1"
    ReportRow total;              // the whole period
    std::vector<ReportRow> days;  // one per day of the period, zero where nothing happened
};

class PerformanceSeries {
public:
    // `from` and `to` are whole UTC days as Unix seconds, [from, to). Refused like the
    // period's CommissionReport when its money does not add up within 64 bits.
    static Result<PerformanceSeries> build(int64_t from, int64_t to, PerformanceDimension by, const std::vector<EventCount>& events,
                                           const std::vector<LedgerEntry>& entries);

    const std::vector<int64_t>& days() const { return days_; }  // each day's start, Unix seconds
    const std::vector<PerformanceLine>& lines() const { return lines_; }
    const CommissionReport& period() const { return period_; }

    // Money in minor units of `currency` (the tenant's); click rate is clicks per impression,
    // null where there was no impression.
    nlohmann::ordered_json toJson(const std::string& currency) const;

    // "YYYY-MM-DD" of a Unix time's UTC day.
    static std::string dayName(int64_t unixSeconds);

private:
    PerformanceSeries(int64_t from, int64_t to, PerformanceDimension by, CommissionReport period)
        : from_(from), to_(to), by_(by), period_(std::move(period)) {}

    int64_t from_, to_;
    PerformanceDimension by_;
    CommissionReport period_;
    std::vector<int64_t> days_;
    std::vector<PerformanceLine> lines_;
};

}  // namespace svc
