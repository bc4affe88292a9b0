#include "tracking/CommissionReport.hpp"

#include <set>

namespace svc {
namespace {

std::string testGroupKey(const std::string& testGroup, const std::string& variant) {
    return (testGroup.empty() ? "-" : testGroup) + " / " + (variant.empty() ? "-" : variant);
}

// A sum of the period that does not fit: this report is refused, no other tenant's.
Error tooLarge(const std::string& figure) {
    return Error::invalidArgument(figure + ": the period's sum exceeds " + Cents::max().text() +
                                  " cents and cannot be reported; ask for a shorter period");
}

struct Accumulator {
    std::map<std::string, ReportRow> rows;
    // Distinct orders by order id: an order's claims (a browser's, the shop's confirmation) are one order.
    std::map<std::string, std::set<std::string>> orders;

    ReportRow& row(const std::string& key) {
        auto& found = rows[key];
        found.key = key;
        return found;
    }
    void addEvents(const std::string& key, const EventCount& count) {
        ReportRow& target = row(key);
        target.impressions += count.views;
        target.clicks += count.clicks;
        target.addToCarts += count.addToCarts;
    }
    Status addEntry(const std::string& key, const LedgerEntry& entry) {
        ReportRow& target = row(key);
        auto revenue = target.attributedRevenue.plus(entry.revenue);
        if (!revenue) return tooLarge("attributedRevenue (" + key + ")");
        auto commission = target.commission.plus(entry.commission);
        if (!commission) return tooLarge("commission (" + key + ")");
        target.attributedRevenue = *revenue;
        target.commission = *commission;
        if (entry.kind == LedgerKind::Sale) orders[key].insert(entry.orderId);
        return {};
    }
    std::vector<ReportRow> finish() {
        std::vector<ReportRow> finished;
        for (auto& [key, row] : rows) {
            row.orders = static_cast<int64_t>(orders[key].size());
            row.conversion = ConversionInterval::wilson(std::min(row.orders, row.clicks), row.clicks);
            finished.push_back(row);
        }
        return finished;
    }
};

nlohmann::ordered_json rowJson(const ReportRow& row) {
    nlohmann::ordered_json json;
    json["key"] = row.key;
    json["impressions"] = row.impressions;
    json["clicks"] = row.clicks;
    json["addToCarts"] = row.addToCarts;
    json["orders"] = row.orders;
    json["attributedRevenue"] = row.attributedRevenue.cents();
    json["commission"] = row.commission.cents();
    json["conversion"] = {{"rate", row.conversion.rate}, {"low", row.conversion.low}, {"high", row.conversion.high}};
    return json;
}

// RFC 4180: quoted when it holds a comma, quote or line break; a leading = + - @ is
// prefixed with ' so that a spreadsheet never runs a SKU as a formula.
std::string csvField(const std::string& text) {
    std::string value = text;
    if (!value.empty() && (value[0] == '=' || value[0] == '+' || value[0] == '-' || value[0] == '@')) value = "'" + value;
    if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
    std::string quoted = "\"";
    for (char c : value) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

}  // namespace

Result<CommissionReport> CommissionReport::build(int64_t from, int64_t to, const std::vector<EventCount>& events,
                                                 const std::vector<LedgerEntry>& entries) {
    CommissionReport report(from, to);
    Accumulator widgets, touchpoints, testGroups, total;
    for (const auto& count : events) {
        widgets.addEvents(count.widget, count);
        touchpoints.addEvents(count.touchpoint, count);
        testGroups.addEvents(testGroupKey(count.testGroup, count.variant), count);
        total.addEvents("total", count);
    }
    std::set<std::string> allOrders, conflicts, withoutConsent;
    for (const auto& entry : entries) {
        if (entry.claimStatus == ClaimStatus::Disputed || entry.claimStatus == ClaimStatus::Conflict) conflicts.insert(entry.orderId);
        // A claim that does not earn is in the ledger for the shop to check, not in the order's
        // revenue: that is its earning claim's. Returns and reversals of earning claims count.
        if (entry.kind == LedgerKind::Sale && !claimStatusEarns(entry.claimStatus)) continue;
        if (entry.kind == LedgerKind::Sale) allOrders.insert(entry.orderId);
        auto gross = entry.price.times(entry.amount);  // a negative amount: a return or reversal
        auto revenue = gross ? report.allRevenue_.plus(*gross) : std::nullopt;
        if (!revenue) return tooLarge("revenue");
        report.allRevenue_ = *revenue;
        if (entry.withoutConsent) {
            if (entry.kind == LedgerKind::Sale) withoutConsent.insert(entry.orderId);
            auto part = report.revenueWithoutConsent_.plus(*gross);
            if (!part) return tooLarge("revenueWithoutConsent");
            report.revenueWithoutConsent_ = *part;
        }
        if (!entry.attributed) continue;
        for (auto [accumulator, key] : {std::pair{&widgets, entry.widget}, {&touchpoints, entry.touchpoint},
                                        {&testGroups, testGroupKey(entry.testGroup, entry.variant)}, {&total, std::string("total")}}) {
            if (auto status = accumulator->addEntry(key, entry); !status) return status.error();
        }
    }
    report.allOrders_ = static_cast<int64_t>(allOrders.size());
    report.ordersWithoutConsent_ = static_cast<int64_t>(withoutConsent.size());
    report.conflicts_ = static_cast<int64_t>(conflicts.size());
    report.byWidget_ = widgets.finish();
    report.byTouchpoint_ = touchpoints.finish();
    report.byTestGroup_ = testGroups.finish();
    auto totals = total.finish();
    if (!totals.empty()) report.total_ = totals.front();
    report.total_.key = "total";
    return report;
}

nlohmann::ordered_json CommissionReport::toJson() const {
    nlohmann::ordered_json json;
    json["from"] = from_;
    json["to"] = to_;
    json["total"] = rowJson(total_);
    json["orders"] = allOrders_;
    json["revenue"] = allRevenue_.cents();
    json["ordersWithoutConsent"] = ordersWithoutConsent_;
    json["revenueWithoutConsent"] = revenueWithoutConsent_.cents();
    json["conflicts"] = conflicts_;
    for (const auto& [name, rows] : {std::pair{"byWidget", &byWidget_}, {"byTouchpoint", &byTouchpoint_}, {"byTestGroup", &byTestGroup_}}) {
        auto list = nlohmann::ordered_json::array();
        for (const auto& row : *rows) list.push_back(rowJson(row));
        json[name] = list;
    }
    return json;
}

std::string CommissionReport::ledgerCsv(const std::vector<LedgerEntry>& entries) {
    // The claim columns came last (docs/adr/0056): scripts reading columns by position still work.
    std::string csv =
        "kind,order_id,line,sku,main_sku,amount,unit_price_cents,revenue_cents,rate_bp,commission_cents,attributed,reason,"
        "interaction_type,widget,touchpoint,set_id,test_group,variant,interaction_at,ordered_at,booked_at,return_id,"
        "claim,claim_source,claim_status\r\n";
    for (const auto& entry : entries) {
        // Numbers are ours, negative ones included, never formulas: only text gets the guard.
        auto number = [](int64_t value) { return std::to_string(value); };
        const std::string fields[] = {ledgerKindName(entry.kind),
                                      csvField(entry.orderId),
                                      number(entry.line),
                                      csvField(entry.sku),
                                      csvField(entry.mainSku),
                                      number(entry.amount),
                                      entry.price.text(),
                                      entry.revenue.text(),
                                      number(entry.rateBasisPoints),
                                      entry.commission.text(),
                                      entry.attributed ? "yes" : "no",
                                      entry.reason ? std::string(attributionReasonName(*entry.reason)) : "",
                                      csvField(entry.interactionType),
                                      csvField(entry.widget),
                                      csvField(entry.touchpoint),
                                      csvField(entry.setId),
                                      csvField(entry.testGroup),
                                      csvField(entry.variant),
                                      entry.attributed ? number(entry.interactionAt) : "",
                                      number(entry.orderedAt),
                                      number(entry.bookedAt),
                                      csvField(entry.returnId),
                                      number(entry.orderEvent),
                                      std::string(claimSourceName(entry.claimSource)),
                                      std::string(claimStatusName(entry.claimStatus))};
        for (size_t i = 0; i < std::size(fields); ++i) {
            if (i) csv += ',';
            csv += fields[i];
        }
        csv += "\r\n";
    }
    return csv;
}

}  // namespace svc
