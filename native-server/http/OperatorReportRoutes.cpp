#include "http/OperatorReportRoutes.hpp"

#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "http/ReportRoutes.hpp"
#include "http/ResponseCompression.hpp"

namespace svc {
namespace {

constexpr int64_t kDay = 86400;
constexpr const char* kTenant = "/operator/api/tenants/([A-Za-z0-9-]{1,64})";

}  // namespace

PerformanceRange performanceRange(const std::string& from, const std::string& to, const std::string& by, int64_t now) {
    PerformanceRange range;
    int64_t today = now - now % kDay;
    range.to = today + kDay;
    bool datesValid = true;
    if (!to.empty()) {
        if (auto day = parseReportDay(to, "to")) range.to = *day + kDay;
        else range.errors.push_back(day.error()), datesValid = false;
    }
    range.from = range.to - 30 * kDay;
    if (!from.empty()) {
        if (auto day = parseReportDay(from, "from")) range.from = *day;
        else range.errors.push_back(day.error()), datesValid = false;
    }
    if (datesValid && range.from >= range.to) {
        range.errors.push_back(Error::invalidArgument("from: must not be after to"));
    } else if (datesValid && range.to - range.from > PerformanceRange::kMaxDays * kDay) {
        range.errors.push_back(Error::invalidArgument("from: the range may span at most " + std::to_string(PerformanceRange::kMaxDays) +
                                                      " days; choose a later from or an earlier to"));
    }
    if (!by.empty()) {
        if (auto dimension = performanceDimensionNamed(by)) range.by = *dimension;
        else range.errors.push_back(Error::invalidArgument("by: '" + by + "' is not one of widget, touchpoint, testGroup"));
    }
    return range;
}

void OperatorReportRoutes::registerOn(httplib::Server& server) {
    const std::string tenant = kTenant;
    server.Get(tenant + "/performance", [this](const httplib::Request& q, httplib::Response& r) { performance(q, r); });
    server.Get(tenant + "/performance/ledger\\.csv", [this](const httplib::Request& q, httplib::Response& r) { ledgerCsv(q, r); });
}

void OperatorReportRoutes::performance(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto range = performanceRange(request.get_param_value("from"), request.get_param_value("to"), request.get_param_value("by"),
                                  clock_.nowSeconds());
    if (!range.errors.empty()) return sendFieldErrors(response, range.errors);
    auto series = reports_.series(tenant->id, range.from, range.to, range.by);
    if (!series) return sendError(response, series.error());
    // Lines that could not be booked, with the reason: the operator sees them, and the rest of the
    // figures stand (docs/adr/0055).
    auto notBooked = reports_.notBooked(tenant->id, range.from, range.to);
    if (!notBooked) return sendError(response, notBooked.error());
    auto body = series->toJson(tenant->currency);
    body["notBooked"] = notBooked->toJson();
    sendJson(response, 200, body, JsonCaching::NoStore);
}

void OperatorReportRoutes::ledgerCsv(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto range = performanceRange(request.get_param_value("from"), request.get_param_value("to"), "", clock_.nowSeconds());
    if (!range.errors.empty()) return sendFieldErrors(response, range.errors);
    // The shop's ledger, row for row: the same writer and its guard against spreadsheet formulas.
    auto csv = reports_.ledgerCsv(tenant->id, range.from, range.to);
    if (!csv) return sendError(response, csv.error());
    response.set_header("Cache-Control", "no-store");
    response.set_header("Content-Disposition", "attachment; filename=\"ledger-" + PerformanceSeries::dayName(range.from) + "-to-" +
                                                   PerformanceSeries::dayName(range.to - 1) + ".csv\"");
    ResponseCompression::setBody(request, response, *csv, "text/csv; charset=utf-8");
}

}  // namespace svc
