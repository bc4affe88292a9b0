#pragma once
// Commission reports and returns over HTTP, with tenant credentials (x-api-id, x-api-secret);
// the CLI offers the same reports (`svc-server report ...`). docs/adr/0021.
//   GET  /reports/summary?from=YYYY-MM-DD&to=YYYY-MM-DD   JSON, by widget, touchpoint, test group
//   GET  /reports/ledger?from=...&to=...                  CSV, one row per ledger entry
//   POST /orders/:orderid/returns  {"returnId", "lines": [{"sku", "amount"}]} or {"returnId", "cancel": true}
//   PUT  /orders/:orderid          the shop's word on an order: {"status": "confirmed", "products": [...], "cid"?},
//                                  {"status": "confirmed", "claim": N} or {"status": "rejected"} (docs/adr/0056)
//   GET  /orders/:orderid          every claim on the order and which one earns
// `from` and `to` are UTC days, both included; without them the last 30 days up to today.
#include <httplib.h>

#include "core/Clock.hpp"
#include "store/EventStore.hpp"
#include "store/LedgerStore.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/Attributor.hpp"
#include "tracking/OrderConfirmations.hpp"
#include "tracking/ReportQuery.hpp"

namespace svc {

// "YYYY-MM-DD" as Unix seconds at 00:00 UTC; errors name `field` (also the operator's reports).
Result<int64_t> parseReportDay(const std::string& text, const std::string& field);
// The period [from, to) in Unix seconds from the request's `from` and `to` days.
Result<std::pair<int64_t, int64_t>> reportPeriod(const std::string& from, const std::string& to, int64_t now);
// A return or cancellation from its JSON body; errors name the field.
Result<ReturnRequest> parseReturnRequest(const std::string& body);

class ReportRoutes {
public:
    ReportRoutes(TenantService& tenants, EventStore& events, LedgerStore& ledger, Attributor& attributor, const Clock& clock)
        : tenants_(tenants), attributor_(attributor), reports_(ledger, attributor), orders_(events, ledger, attributor, clock), clock_(clock) {}
    void registerOn(httplib::Server& server);

private:
    void summary(const httplib::Request& request, httplib::Response& response);
    void ledgerCsv(const httplib::Request& request, httplib::Response& response);
    void returns(const httplib::Request& request, httplib::Response& response);
    void putOrder(const httplib::Request& request, httplib::Response& response);
    void getOrder(const httplib::Request& request, httplib::Response& response);

    TenantService& tenants_;
    Attributor& attributor_;
    ReportQuery reports_;
    OrderConfirmations orders_;
    const Clock& clock_;
};

}  // namespace svc
