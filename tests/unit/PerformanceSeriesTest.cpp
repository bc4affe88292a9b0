// The console's per-day series (docs/adr/0047), pure: days named back and forth, events and
// ledger entries put on their UTC day, returns on the day they were reported, and the series'
// totals equal to the CommissionReport of the period; data-driven.
#include <doctest/doctest.h>

#include "core/CivilDate.hpp"
#include "tracking/PerformanceSeries.hpp"

using namespace svc;

namespace {

constexpr int64_t kDay = 86400;
constexpr int64_t kFrom = daysFromCivil(2024, 2, 28) * kDay;  // 28 Feb, 29 Feb (leap), 1 Mar

// SIMILAR traffic is on product pages in group A, SET traffic in the cart in group B.
LedgerEntry sale(int64_t order, const std::string& widget, int64_t at, int64_t revenue, int64_t commission) {
    LedgerEntry entry;
    entry.kind = LedgerKind::Sale;
    entry.orderEvent = order;
    entry.orderId = "O-" + std::to_string(order);
    entry.widget = widget;
    entry.touchpoint = widget == "SET" ? "cart" : "product";
    entry.testGroup = widget == "SET" ? "B" : "A";
    entry.variant = "v1";
    entry.attributed = true;
    entry.amount = 1;
    entry.price = revenue;
    entry.revenue = revenue;
    entry.commission = commission;
    entry.bookedAt = at;
    entry.orderedAt = at;
    return entry;
}

}  // namespace

TEST_CASE("dayName names the UTC day of a Unix time, the inverse of daysFromCivil") {
    struct Case {
        int64_t year, month, day;
        const char* name;
    };
    const std::vector<Case> cases{{1970, 1, 1, "1970-01-01"}, {2000, 2, 29, "2000-02-29"}, {2024, 2, 29, "2024-02-29"},
                                  {2024, 3, 1, "2024-03-01"},   {2026, 12, 31, "2026-12-31"}, {1969, 12, 31, "1969-12-31"},
                                  {2100, 3, 1, "2100-03-01"}};
    for (const auto& c : cases) {
        CAPTURE(c.name);
        int64_t start = daysFromCivil(c.year, c.month, c.day) * kDay;
        CHECK(PerformanceSeries::dayName(start) == c.name);
        CHECK(PerformanceSeries::dayName(start + kDay - 1) == c.name);  // the last second is still that day
    }
    // Every day of four centuries round-trips.
    for (int64_t days = -146097; days < 146097; days += 1) {
        CivilDay civil = civilFromDays(days);
        REQUIRE(daysFromCivil(civil.year, civil.month, civil.day) == days);
    }
}

TEST_CASE("PerformanceSeries puts events and entries on their day; totals are the period's report") {
    const std::vector<EventCount> events{
        {"SIMILAR", "product", "A", "v1", 10, 2, 1, kFrom},
        {"SET", "cart", "B", "v1", 4, 1, 0, kFrom},
        {"SIMILAR", "product", "A", "v1", 6, 0, 0, kFrom + 2 * kDay},
        {"SIMILAR", "product", "A", "v1", 99, 9, 9, kFrom + 3 * kDay},  // after the period: not counted
    };
    std::vector<LedgerEntry> entries{sale(1, "SIMILAR", kFrom + 3600, 5000, 250), sale(2, "SIMILAR", kFrom + kDay + 10, 2000, 100),
                                     sale(2, "SIMILAR", kFrom + kDay + 10, 1000, 50), sale(3, "SET", kFrom + kDay, 4000, 400)};
    LedgerEntry returned = sale(1, "SIMILAR", kFrom + 2 * kDay + 5, -5000, -250);  // reported two days later
    returned.kind = LedgerKind::Return;
    returned.amount = -1;
    entries.push_back(returned);

    struct Case {
        PerformanceDimension by;
        std::string similarKey;
    };
    for (const auto& c : std::vector<Case>{{PerformanceDimension::Widget, "SIMILAR"},
                                           {PerformanceDimension::Touchpoint, "product"},
                                           {PerformanceDimension::TestGroup, "A / v1"}}) {
        std::string by = performanceDimensionName(c.by);
        CAPTURE(by);
        PerformanceSeries series = PerformanceSeries::build(kFrom, kFrom + 3 * kDay, c.by, events, entries).value();
        CHECK(series.days() == std::vector<int64_t>{kFrom, kFrom + kDay, kFrom + 2 * kDay});
        REQUIRE(series.lines().size() == 2);
        const PerformanceLine& similar = series.lines()[0].key == c.similarKey ? series.lines()[0] : series.lines()[1];
        REQUIRE(similar.key == c.similarKey);
        std::vector<int64_t> impressions, orders, commission, revenue;
        for (const auto& day : similar.days) {
            impressions.push_back(day.impressions);
            orders.push_back(day.orders);
            commission.push_back(day.commission.cents());
            revenue.push_back(day.attributedRevenue.cents());
        }
        CHECK(impressions == std::vector<int64_t>{10, 0, 6});
        CHECK(orders == std::vector<int64_t>{1, 1, 0});  // order 2's two lines are one order
        CHECK(revenue == std::vector<int64_t>{5000, 3000, -5000});
        CHECK(commission == std::vector<int64_t>{250, 150, -250});
        // The totals are the period's report, so they equal GET /reports/summary.
        CHECK(similar.total.impressions == 16);
        CHECK(similar.total.commission == 150);
        CHECK(series.period().total().commission == 550);
        CHECK(series.period().total().impressions == 20);
    }
    nlohmann::ordered_json json =
        PerformanceSeries::build(kFrom, kFrom + 3 * kDay, PerformanceDimension::Widget, events, entries).value().toJson("CHF");
    CHECK(json["from"] == "2024-02-28");
    CHECK(json["to"] == "2024-03-01");
    CHECK(json["currency"] == "CHF");
    CHECK(json["days"] == nlohmann::ordered_json::array({"2024-02-28", "2024-02-29", "2024-03-01"}));
    CHECK(json["series"][0]["key"] == "SET");
    CHECK(json["series"][0]["clickRate"] == nlohmann::ordered_json::array({0.25, nullptr, nullptr}));
    CHECK(json["total"]["clickRate"].get<double>() == doctest::Approx(3.0 / 20));
    // An entry booked after the period counts neither on a day nor in the totals.
    entries.push_back(sale(4, "SIMILAR", kFrom + 3 * kDay, 7000, 350));
    PerformanceSeries later = PerformanceSeries::build(kFrom, kFrom + 3 * kDay, PerformanceDimension::Widget, events, entries).value();
    CHECK(later.period().total().commission == 550);
}

TEST_CASE("performanceDimensionNamed knows the three dimensions and nothing else") {
    for (auto dimension : {PerformanceDimension::Widget, PerformanceDimension::Touchpoint, PerformanceDimension::TestGroup}) {
        CHECK(performanceDimensionNamed(performanceDimensionName(dimension)) == dimension);
    }
    for (const char* name : {"", "Widget", "sku", "testgroup", "day"}) CHECK_FALSE(performanceDimensionNamed(name));
}
