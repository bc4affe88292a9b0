#include "tracking/ReportQuery.hpp"
#include "log/Log.hpp"

#include <iostream>

namespace svc {

nlohmann::ordered_json NotBooked::toJson() const {
    auto list = nlohmann::ordered_json::array();
    for (const auto& line : lines) {
        list.push_back({{"orderid", line.orderId},
                        {"claim", line.orderEvent},
                        {"line", line.line},
                        {"sku", line.sku},
                        {"amount", line.amount},
                        {"price", line.price.cents()},
                        {"reason", line.reason},
                        {"at", line.at}});
    }
    return {{"count", count}, {"lines", list}};
}

Result<ReportQuery::Period> ReportQuery::read(int64_t tenantId, int64_t from, int64_t to, bool withEvents) {
    // Reports are current: this tenant's claims that arrived are booked before reading. When that
    // fails (its store, its contract), the report shows what was booked and the log says why.
    if (auto status = attributor_.catchUp(tenantId); !status) {
        Log::error("booking: " + status.error().message, std::to_string(tenantId));
    }
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
    return CommissionReport::build(from, to, period->events, period->entries);
}

Result<PerformanceSeries> ReportQuery::series(int64_t tenantId, int64_t from, int64_t to, PerformanceDimension by) {
    auto period = read(tenantId, from, to, true);
    if (!period) return period.error();
    return PerformanceSeries::build(from, to, by, period->events, period->entries);
}

Result<std::string> ReportQuery::ledgerCsv(int64_t tenantId, int64_t from, int64_t to) {
    auto period = read(tenantId, from, to, false);
    if (!period) return period.error();
    return CommissionReport::ledgerCsv(period->entries);
}

Result<NotBooked> ReportQuery::notBooked(int64_t tenantId, int64_t from, int64_t to) {
    auto found = ledger_.quarantined(tenantId, from, to, NotBooked::kListed);
    if (!found) return found.error();
    return NotBooked{std::move(found->first), found->second};
}

}  // namespace svc
