#pragma once
// The one way reports read the ledger, for the shop's reports (ReportRoutes, tenant
// credentials) and the operator console's (OperatorReportRoutes): book what arrived first, so a
// report is current, then read the period's event counts and ledger entries once and build the
// summary, the per-day series or the ledger CSV from them (docs/adr/0047). Only the asking
// tenant's claims are booked, and a booking that fails leaves the report to what was booked
// before: one tenant's trouble never answers another tenant's report (docs/adr/0055).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"
#include "store/LedgerStore.hpp"
#include "tracking/Attributor.hpp"
#include "tracking/CommissionReport.hpp"
#include "tracking/PerformanceSeries.hpp"

namespace svc {

// Lines set aside in a period, the first `kListed` of them, and how many there are.
struct NotBooked {
    static constexpr size_t kListed = 100;
    std::vector<QuarantinedLine> lines;
    int64_t count = 0;

    // {"count": N, "lines": [{orderid, claim, line, sku, amount, price, reason, at}]}
    nlohmann::ordered_json toJson() const;
};

class ReportQuery {
public:
    ReportQuery(LedgerStore& ledger, Attributor& attributor) : ledger_(ledger), attributor_(attributor) {}

    // [from, to) in Unix seconds, whole UTC days.
    Result<CommissionReport> summary(int64_t tenantId, int64_t from, int64_t to);
    Result<PerformanceSeries> series(int64_t tenantId, int64_t from, int64_t to, PerformanceDimension by);
    // One row per ledger entry booked in the period (CommissionReport::ledgerCsv).
    Result<std::string> ledgerCsv(int64_t tenantId, int64_t from, int64_t to);
    // Lines of claims that arrived in the period and could not be booked, with the reason.
    Result<NotBooked> notBooked(int64_t tenantId, int64_t from, int64_t to);

private:
    struct Period {
        std::vector<EventCount> events;
        std::vector<LedgerEntry> entries;
    };
    Result<Period> read(int64_t tenantId, int64_t from, int64_t to, bool withEvents);

    LedgerStore& ledger_;
    Attributor& attributor_;
};

}  // namespace svc
