#pragma once
// The one way reports read the ledger, for the shop's reports (ReportRoutes, tenant
// credentials) and the operator console's (OperatorReportRoutes): book what arrived first, so a
// report is current, then read the period's event counts and ledger entries once and build the
// summary, the per-day series or the ledger CSV from them (docs/adr/0047).
#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "store/LedgerStore.hpp"
#include "tracking/Attributor.hpp"
#include "tracking/CommissionReport.hpp"
#include "tracking/PerformanceSeries.hpp"

namespace svc {

class ReportQuery {
public:
    ReportQuery(LedgerStore& ledger, Attributor& attributor) : ledger_(ledger), attributor_(attributor) {}

    // [from, to) in Unix seconds, whole UTC days.
    Result<CommissionReport> summary(int64_t tenantId, int64_t from, int64_t to);
    Result<PerformanceSeries> series(int64_t tenantId, int64_t from, int64_t to, PerformanceDimension by);
    // One row per ledger entry booked in the period (CommissionReport::ledgerCsv).
    Result<std::string> ledgerCsv(int64_t tenantId, int64_t from, int64_t to);

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
