#include "tracking/PerformanceSeries.hpp"

#include <cstdio>
#include <map>

#include "core/CivilDate.hpp"

namespace svc {
namespace {

constexpr int64_t kDay = 86400;

const std::vector<ReportRow>& rowsOf(const CommissionReport& report, PerformanceDimension by) {
    switch (by) {
        case PerformanceDimension::Touchpoint: return report.byTouchpoint();
        case PerformanceDimension::TestGroup: return report.byTestGroup();
        case PerformanceDimension::Widget: break;
    }
    return report.byWidget();
}

nlohmann::ordered_json clickRate(const ReportRow& row) {
    if (row.impressions == 0) return nullptr;
    return static_cast<double>(row.clicks) / static_cast<double>(row.impressions);
}

nlohmann::ordered_json totalsJson(const ReportRow& row) {
    nlohmann::ordered_json json;
    json["impressions"] = row.impressions;
    json["clicks"] = row.clicks;
    json["clickRate"] = clickRate(row);
    json["addToCarts"] = row.addToCarts;
    json["orders"] = row.orders;
    json["attributedRevenue"] = row.attributedRevenue.cents();
    json["commission"] = row.commission.cents();
    return json;
}

// Only what falls in [from, to): the period's report and its days must cover the same.
template <typename Item, typename At>
std::vector<Item> within(const std::vector<Item>& items, int64_t from, int64_t to, At at) {
    std::vector<Item> kept;
    for (const auto& item : items) {
        if (at(item) >= from && at(item) < to) kept.push_back(item);
    }
    return kept;
}

std::vector<EventCount> eventsWithin(const std::vector<EventCount>& events, int64_t from, int64_t to) {
    return within(events, from, to, [](const EventCount& count) { return count.day; });
}

std::vector<LedgerEntry> entriesWithin(const std::vector<LedgerEntry>& entries, int64_t from, int64_t to) {
    return within(entries, from, to, [](const LedgerEntry& entry) { return entry.bookedAt; });
}

}  // namespace

std::optional<PerformanceDimension> performanceDimensionNamed(std::string_view name) {
    if (name == "widget") return PerformanceDimension::Widget;
    if (name == "touchpoint") return PerformanceDimension::Touchpoint;
    if (name == "testGroup") return PerformanceDimension::TestGroup;
    return std::nullopt;
}

const char* performanceDimensionName(PerformanceDimension dimension) {
    switch (dimension) {
        case PerformanceDimension::Touchpoint: return "touchpoint";
        case PerformanceDimension::TestGroup: return "testGroup";
        case PerformanceDimension::Widget: break;
    }
    return "widget";
}

std::string PerformanceSeries::dayName(int64_t unixSeconds) {
    int64_t days = unixSeconds / kDay - (unixSeconds % kDay < 0 ? 1 : 0);
    CivilDay civil = civilFromDays(days);
    char text[64];
    std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(civil.year), static_cast<long long>(civil.month),
                  static_cast<long long>(civil.day));
    return text;
}

Result<PerformanceSeries> PerformanceSeries::build(int64_t from, int64_t to, PerformanceDimension by, const std::vector<EventCount>& events,
                                                   const std::vector<LedgerEntry>& entries) {
    auto period = CommissionReport::build(from, to, eventsWithin(events, from, to), entriesWithin(entries, from, to));
    if (!period) return period.error();
    PerformanceSeries series(from, to, by, std::move(*period));
    size_t dayCount = to > from ? static_cast<size_t>((to - from + kDay - 1) / kDay) : 0;
    for (size_t i = 0; i < dayCount; ++i) series.days_.push_back(from + static_cast<int64_t>(i) * kDay);
    // Each day's events and entries, then that day's report: the same aggregation as the period's.
    std::vector<std::vector<EventCount>> dayEvents(dayCount);
    std::vector<std::vector<LedgerEntry>> dayEntries(dayCount);
    auto dayIndex = [&](int64_t at) -> std::optional<size_t> {
        if (at < from || at >= to) return std::nullopt;
        return static_cast<size_t>((at - from) / kDay);
    };
    for (const auto& count : events) {
        if (auto index = dayIndex(count.day)) dayEvents[*index].push_back(count);
    }
    for (const auto& entry : entries) {
        if (auto index = dayIndex(entry.bookedAt)) dayEntries[*index].push_back(entry);
    }
    std::map<std::string, size_t> lineOf;
    for (const auto& row : rowsOf(series.period_, by)) {
        lineOf[row.key] = series.lines_.size();
        PerformanceLine line{row.key, row, std::vector<ReportRow>(dayCount)};
        for (auto& day : line.days) day.key = row.key;
        series.lines_.push_back(std::move(line));
    }
    for (size_t i = 0; i < dayCount; ++i) {
        if (dayEvents[i].empty() && dayEntries[i].empty()) continue;
        auto day = CommissionReport::build(series.days_[i], series.days_[i] + kDay, dayEvents[i], dayEntries[i]);
        if (!day) return day.error();
        for (const auto& row : rowsOf(*day, by)) {
            auto found = lineOf.find(row.key);
            if (found != lineOf.end()) series.lines_[found->second].days[i] = row;
        }
    }
    return series;
}

nlohmann::ordered_json PerformanceSeries::toJson(const std::string& currency) const {
    nlohmann::ordered_json json;
    json["from"] = dayName(from_);
    json["to"] = dayName(to_ - 1);
    json["by"] = performanceDimensionName(by_);
    json["currency"] = currency;
    auto days = nlohmann::ordered_json::array();
    for (int64_t day : days_) days.push_back(dayName(day));
    json["days"] = days;
    json["total"] = totalsJson(period_.total());
    // Every order and its gross revenue, attributed or not: the share the widgets earned.
    json["allOrders"] = period_.allOrders();
    json["allRevenue"] = period_.allRevenue().cents();
    // Of those, what came without a visitor id (docs/adr/0083): never attributable.
    json["ordersWithoutConsent"] = period_.ordersWithoutConsent();
    json["revenueWithoutConsent"] = period_.revenueWithoutConsent().cents();
    json["conflicts"] = period_.conflicts();
    auto series = nlohmann::ordered_json::array();
    for (const auto& line : lines_) {
        nlohmann::ordered_json item;
        item["key"] = line.key;
        item["total"] = totalsJson(line.total);
        // Columns, one value per day: what a chart draws.
        auto column = [&](auto value) {
            auto values = nlohmann::ordered_json::array();
            for (const auto& day : line.days) values.push_back(value(day));
            return values;
        };
        item["impressions"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.impressions); });
        item["clicks"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.clicks); });
        item["clickRate"] = column([](const ReportRow& row) { return clickRate(row); });
        item["addToCarts"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.addToCarts); });
        item["orders"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.orders); });
        item["attributedRevenue"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.attributedRevenue.cents()); });
        item["commission"] = column([](const ReportRow& row) { return nlohmann::ordered_json(row.commission.cents()); });
        series.push_back(item);
    }
    json["series"] = series;
    return json;
}

}  // namespace svc
