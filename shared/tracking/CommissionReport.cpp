#include "tracking/CommissionReport.hpp"

#include <set>

namespace svc {
namespace {

std::string testGroupKey(const std::string& testGroup, const std::string& variant) {
    return (testGroup.empty() ? "-" : testGroup) + " / " + (variant.empty() ? "-" : variant);
}

struct Accumulator {
    std::map<std::string, ReportRow> rows;
    std::map<std::string, std::set<int64_t>> orders;

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
    void addEntry(const std::string& key, const LedgerEntry& entry) {
        ReportRow& target = row(key);
        target.attributedRevenue += entry.revenue;
        target.commission += entry.commission;
        if (entry.kind == LedgerKind::Sale) orders[key].insert(entry.orderEvent);
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
    json["attributedRevenue"] = row.attributedRevenue;
    json["commission"] = row.commission;
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

CommissionReport::CommissionReport(int64_t from, int64_t to, const std::vector<EventCount>& events, const std::vector<LedgerEntry>& entries)
    : from_(from), to_(to) {
    Accumulator widgets, touchpoints, testGroups, total;
    for (const auto& count : events) {
        widgets.addEvents(count.widget, count);
        touchpoints.addEvents(count.touchpoint, count);
        testGroups.addEvents(testGroupKey(count.testGroup, count.variant), count);
        total.addEvents("total", count);
    }
    std::set<int64_t> allOrders;
    for (const auto& entry : entries) {
        if (entry.kind == LedgerKind::Sale) {
            allOrders.insert(entry.orderEvent);
            allRevenue_ += entry.price * entry.amount;
        } else {
            allRevenue_ += entry.price * entry.amount;  // negative amount: a return
        }
        if (!entry.attributed) continue;
        widgets.addEntry(entry.widget, entry);
        touchpoints.addEntry(entry.touchpoint, entry);
        testGroups.addEntry(testGroupKey(entry.testGroup, entry.variant), entry);
        total.addEntry("total", entry);
    }
    allOrders_ = static_cast<int64_t>(allOrders.size());
    byWidget_ = widgets.finish();
    byTouchpoint_ = touchpoints.finish();
    byTestGroup_ = testGroups.finish();
    auto totals = total.finish();
    if (!totals.empty()) total_ = totals.front();
    total_.key = "total";
}

nlohmann::ordered_json CommissionReport::toJson() const {
    nlohmann::ordered_json json;
    json["from"] = from_;
    json["to"] = to_;
    json["total"] = rowJson(total_);
    json["orders"] = allOrders_;
    json["revenue"] = allRevenue_;
    for (const auto& [name, rows] : {std::pair{"byWidget", &byWidget_}, {"byTouchpoint", &byTouchpoint_}, {"byTestGroup", &byTestGroup_}}) {
        auto list = nlohmann::ordered_json::array();
        for (const auto& row : *rows) list.push_back(rowJson(row));
        json[name] = list;
    }
    return json;
}

std::string CommissionReport::ledgerCsv(const std::vector<LedgerEntry>& entries) {
    std::string csv =
        "kind,order_id,line,sku,main_sku,amount,unit_price_cents,revenue_cents,rate_bp,commission_cents,attributed,reason,"
        "interaction_type,widget,touchpoint,set_id,test_group,variant,interaction_at,ordered_at,booked_at,return_id\r\n";
    for (const auto& entry : entries) {
        std::vector<std::string> fields{entry.kind == LedgerKind::Sale ? "sale" : "return",
                                        entry.orderId,
                                        std::to_string(entry.line),
                                        entry.sku,
                                        entry.mainSku,
                                        std::to_string(entry.amount),
                                        std::to_string(entry.price),
                                        std::to_string(entry.revenue),
                                        std::to_string(entry.rateBasisPoints),
                                        std::to_string(entry.commission),
                                        entry.attributed ? "yes" : "no",
                                        entry.reason ? std::string(attributionReasonName(*entry.reason)) : "",
                                        entry.interactionType,
                                        entry.widget,
                                        entry.touchpoint,
                                        entry.setId,
                                        entry.testGroup,
                                        entry.variant,
                                        entry.attributed ? std::to_string(entry.interactionAt) : "",
                                        std::to_string(entry.orderedAt),
                                        std::to_string(entry.bookedAt),
                                        entry.returnId};
        for (size_t i = 0; i < fields.size(); ++i) {
            if (i) csv += ',';
            // Negative numbers are ours, not formulas: only text fields get the guard.
            bool numeric = i == 2 || (i >= 5 && i <= 9) || i >= 18;
            csv += numeric && i != 21 ? fields[i] : csvField(fields[i]);
        }
        csv += "\r\n";
    }
    return csv;
}

}  // namespace svc
