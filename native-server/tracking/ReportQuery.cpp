#include "tracking/ReportQuery.hpp"

namespace svc {

Result<ReportQuery::Period> ReportQuery::read(int64_t tenantId, int64_t from, int64_t to, bool withEvents) {
    // Reports are current: purchases that arrived are booked before reading.
    if (auto status = attributor_.catchUp(); !status) return status.error();
    Period period;
    if (withEvents) {
        auto events = ledger_.eventCounts(tenantId, from, to);
        if (!events) return events.error();
        period.events = std::move(*events);
    }
    auto entries = ledger_.entries(tenantId, from, to);
    if (!entries) return entries.error();
    period.entries = std::move(*entries);
    return period;
}

Result<CommissionReport> ReportQuery::summary(int64_t tenantId, int64_t from, int64_t to) {
    auto period = read(tenantId, from, to, true);
    if (!period) return period.error();
    return CommissionReport(from, to, period->events, period->entries);
}

Result<PerformanceSeries> ReportQuery::series(int64_t tenantId, int64_t from, int64_t to, PerformanceDimension by) {
    auto period = read(tenantId, from, to, true);
    if (!period) return period.error();
    return PerformanceSeries(from, to, by, period->events, period->entries);
}

Result<std::string> ReportQuery::ledgerCsv(int64_t tenantId, int64_t from, int64_t to) {
    auto period = read(tenantId, from, to, false);
    if (!period) return period.error();
    return CommissionReport::ledgerCsv(period->entries);
}

}  // namespace svc
