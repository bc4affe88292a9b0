#include "http/ReportRoutes.hpp"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/CivilDate.hpp"
#include "http/EventRoutes.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "http/RequestContext.hpp"
#include "http/ResponseCompression.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

using nlohmann::json;
constexpr int64_t kDay = 86400;

json entryJson(const LedgerEntry& entry) {
    return {{"line", entry.line},         {"sku", entry.sku},
            {"amount", entry.amount},     {"revenue", entry.revenue.cents()},
            {"commission", entry.commission.cents()}, {"attributed", entry.attributed}};
}

json linesJson(const std::vector<OrderLine>& lines) {
    json list = json::array();
    for (const auto& line : lines) list.push_back({{"sku", line.sku}, {"amount", line.amount}, {"price", line.price.cents()}});
    return list;
}

// Every claim on the order, what each says, its status and which one earns (docs/adr/0056).
json orderJson(const OrderView& order) {
    json claims = json::array();
    for (size_t i = 0; i < order.claims.size(); ++i) {
        const OrderClaim& claim = order.claims[i];
        json item{{"claim", claim.sequence},
                  {"source", claimSourceName(claim.source)},
                  {"status", claimStatusName(order.settled.statuses[i])},
                  {"receivedAt", claim.receivedAt}};
        if (claim.cid) item["cid"] = *claim.cid;
        if (claim.confirmsClaim) item["confirmsClaim"] = *claim.confirmsClaim;
        if (claim.source != ClaimSource::ShopRejected) item["products"] = linesJson(claim.lines);
        claims.push_back(item);
    }
    json earning = order.settled.earner ? json(order.claims[*order.settled.earner].sequence) : json(nullptr);
    return {{"orderid", order.orderId}, {"state", orderStateName(order.settled.state)}, {"earningClaim", earning}, {"claims", claims}};
}

}  // namespace

Result<int64_t> parseReportDay(const std::string& text, const std::string& field) {
    auto refuse = [&] { return Error::invalidArgument(field + ": '" + text + "' is not a date YYYY-MM-DD"); };
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return refuse();
    auto year = parseInt64(text.substr(0, 4));
    auto month = parseInt64(text.substr(5, 2));
    auto day = parseInt64(text.substr(8, 2));
    if (!year || !month || !day || *month < 1 || *month > 12 || *day < 1) return refuse();
    static const int kDaysInMonth[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
    if (*day > kDaysInMonth[*month - 1] || (*month == 2 && *day == 29 && !leap)) return refuse();
    return daysFromCivil(*year, *month, *day) * kDay;
}

Result<std::pair<int64_t, int64_t>> reportPeriod(const std::string& from, const std::string& to, int64_t now) {
    int64_t today = now - now % kDay;
    int64_t end = today + kDay;
    if (!to.empty()) {
        auto day = parseReportDay(to, "to");
        if (!day) return day.error();
        end = *day + kDay;
    }
    int64_t start = end - 30 * kDay;
    if (!from.empty()) {
        auto day = parseReportDay(from, "from");
        if (!day) return day.error();
        start = *day;
    }
    if (start >= end) return Error::invalidArgument("from: must not be after to");
    return std::pair<int64_t, int64_t>{start, end};
}

Result<ReturnRequest> parseReturnRequest(const std::string& body) {
    auto read = parseJsonObject(body);
    if (!read) return read.error();
    const json& parsed = *read;
    ReturnRequest request;
    for (const auto& [name, value] : parsed.items()) {
        if (name != "returnId" && name != "lines" && name != "cancel") {
            return Error::invalidArgument(name + ": unknown field (returnId, lines, cancel)");
        }
    }
    auto returnId = parsed.find("returnId");
    if (returnId == parsed.end() || !returnId->is_string() || returnId->get<std::string>().empty() ||
        returnId->get<std::string>().size() > 200) {
        return Error::invalidArgument("returnId: a string of 1 to 200 characters is required (it makes a repeated report harmless)");
    }
    request.returnId = returnId->get<std::string>();
    auto cancel = parsed.find("cancel");
    if (cancel != parsed.end()) {
        if (!cancel->is_boolean()) return Error::invalidArgument("cancel: must be true or false");
        request.cancel = cancel->get<bool>();
    }
    auto lines = parsed.find("lines");
    if (lines != parsed.end()) {
        if (!lines->is_array() || lines->empty() || lines->size() > 1000) {
            return Error::invalidArgument("lines: must be an array of 1 to 1000 lines");
        }
        for (size_t i = 0; i < lines->size(); ++i) {
            const json& line = (*lines)[i];
            std::string field = "lines[" + std::to_string(i) + "]";
            if (!line.is_object()) return Error::invalidArgument(field + ": must be an object {sku, amount}");
            for (const auto& [name, value] : line.items()) {
                if (name != "sku" && name != "amount") return Error::invalidArgument(field + "." + name + ": unknown field (sku, amount)");
            }
            auto sku = line.find("sku");
            if (sku == line.end() || !sku->is_string() || sku->get<std::string>().empty()) {
                return Error::invalidArgument(field + ".sku: a non-empty string is required");
            }
            auto amount = line.find("amount");
            if (amount == line.end() || !amount->is_number_integer() || amount->get<int64_t>() < 1) {
                return Error::invalidArgument(field + ".amount: an integer of at least 1 is required");
            }
            request.lines.push_back({sku->get<std::string>(), amount->get<int64_t>()});
        }
    }
    if (request.cancel == !request.lines.empty()) {
        return Error::invalidArgument("lines: give either lines (a return) or \"cancel\": true (the whole order), not both");
    }
    return request;
}

void ReportRoutes::registerOn(httplib::Server& server) {
    server.Get("/reports/summary", [this](const httplib::Request& request, httplib::Response& response) { summary(request, response); });
    server.Get("/reports/ledger", [this](const httplib::Request& request, httplib::Response& response) { ledgerCsv(request, response); });
    server.Post(R"(/orders/([^/]{1,200})/returns)",
                [this](const httplib::Request& request, httplib::Response& response) { returns(request, response); });
    server.Put(R"(/orders/([^/]{1,200}))", [this](const httplib::Request& request, httplib::Response& response) { putOrder(request, response); });
    server.Get(R"(/orders/([^/]{1,200}))", [this](const httplib::Request& request, httplib::Response& response) { getOrder(request, response); });
}

void ReportRoutes::summary(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto period = reportPeriod(request.get_param_value("from"), request.get_param_value("to"), clock_.nowSeconds());
    if (!period) return sendError(response, period.error());
    auto report = reports_.summary(tenant->id, period->first, period->second);
    if (!report) return sendError(response, report.error());
    auto notBooked = reports_.notBooked(tenant->id, period->first, period->second);
    if (!notBooked) return sendError(response, notBooked.error());
    auto body = report->toJson();
    body["notBooked"] = notBooked->toJson();
    response.set_header("Cache-Control", "no-store");
    response.set_content(body.dump(), "application/json");
}

void ReportRoutes::ledgerCsv(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto period = reportPeriod(request.get_param_value("from"), request.get_param_value("to"), clock_.nowSeconds());
    if (!period) return sendError(response, period.error());
    auto csv = reports_.ledgerCsv(tenant->id, period->first, period->second);
    if (!csv) return sendError(response, csv.error());
    response.set_header("Cache-Control", "no-store");
    response.set_header("Content-Disposition", "attachment; filename=\"ledger.csv\"");
    ResponseCompression::setBody(request, response, *csv, "text/csv; charset=utf-8");
}

void ReportRoutes::returns(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto parsed = parseReturnRequest(request.body);
    if (!parsed) return sendError(response, parsed.error());
    std::string orderId = request.matches[1];
    auto outcome = attributor_.bookReturn(tenant->id, orderId, *parsed);
    if (!outcome) return sendError(response, outcome.error());
    json body{{"orderid", orderId}, {"returnId", parsed->returnId}, {"duplicate", outcome->duplicate}};
    json entries = json::array();
    std::optional<Cents> commission = Cents(0);
    for (const auto& entry : outcome->entries) {
        entries.push_back(entryJson(entry));
        if (commission) commission = commission->plus(entry.commission);
    }
    // Each entry is at most one booked line's commission; their sum fits unless a ledger was forged.
    if (!commission) return sendError(response, Error::invalidArgument("commission: the return's sum does not fit in 64 bits"));
    body["entries"] = entries;
    body["commission"] = commission->cents();
    sendJson(response, outcome->duplicate ? 200 : 201, body);
}

void ReportRoutes::putOrder(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto parsed = parseOrderConfirmation(request.body);
    if (!parsed.ok()) return sendJson(response, 400, eventProblemsBody(parsed.problems, parsed.problemCount));
    std::string orderId = request.matches[1];
    bool control = std::any_of(orderId.begin(), orderId.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
    if (control) return sendError(response, Error::invalidArgument("orderid: contains a control character"));
    auto order = orders_.settle(tenant->id, orderId, parsed.confirmation);
    if (!order) return sendError(response, order.error());
    json body = orderJson(*order);
    body["changed"] = order->changed;
    response.set_header("Cache-Control", "no-store");
    sendJson(response, 200, body);
}

void ReportRoutes::getOrder(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    std::string orderId = request.matches[1];
    // Current: claims that arrived are booked first, as for reports.
    (void)attributor_.catchUp(tenant->id);
    auto order = orders_.view(tenant->id, orderId);
    if (!order) return sendError(response, order.error());
    response.set_header("Cache-Control", "no-store");
    sendJson(response, 200, orderJson(*order));
}

}  // namespace svc
