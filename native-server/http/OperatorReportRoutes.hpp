#pragma once
// The console's Performance page over the operator API (docs/api/operator.openapi.yaml,
// docs/adr/0047): a tenant's figures per UTC day by widget type, touchpoint or test group, and
// its commission ledger as CSV, read by the same ReportQuery as the shop's GET /reports/summary
// and /reports/ledger, so the console and the shop's reports never disagree.
//   GET /operator/api/tenants/<apiId>/performance?from=YYYY-MM-DD&to=YYYY-MM-DD&by=widget|touchpoint|testGroup
//       (with the lines that could not be booked, "notBooked", and the count of conflicting orders)
//   GET /operator/api/tenants/<apiId>/performance/ledger.csv?from=...&to=...
#include <httplib.h>

#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "core/Error.hpp"
#include "http/OperatorAuth.hpp"
#include "store/LedgerStore.hpp"
#include "tracking/Attributor.hpp"
#include "tracking/PerformanceSeries.hpp"
#include "tracking/ReportQuery.hpp"

namespace svc {

// A period of whole UTC days [from, to) and a dimension from the query string. Every bad
// parameter is in `errors`, each naming its field (the page shows it next to the control).
struct PerformanceRange {
    static constexpr int64_t kMaxDays = 366;  // a year and a leap day: one chart stays readable
    int64_t from = 0, to = 0;
    PerformanceDimension by = PerformanceDimension::Widget;
    std::vector<Error> errors;
};
// Without `from`/`to`: the 30 days up to today (as GET /reports/summary).
PerformanceRange performanceRange(const std::string& from, const std::string& to, const std::string& by, int64_t now);

class OperatorReportRoutes {
public:
    OperatorReportRoutes(OperatorAuth& auth, LedgerStore& ledger, Attributor& attributor, const Clock& clock)
        : auth_(auth), reports_(ledger, attributor), clock_(clock) {}
    void registerOn(httplib::Server& server);

private:
    void performance(const httplib::Request& request, httplib::Response& response);
    void ledgerCsv(const httplib::Request& request, httplib::Response& response);

    OperatorAuth& auth_;
    ReportQuery reports_;
    const Clock& clock_;
};

}  // namespace svc
