// Commission arithmetic, the attribution rule, conversion intervals and the ledger CSV:
// the pure core of tracking (docs/adr/0021), data-driven.
#include <doctest/doctest.h>

#include "tracking/AttributionRule.hpp"
#include "tracking/Commission.hpp"
#include "tracking/CommissionReport.hpp"
#include "tracking/ConversionInterval.hpp"

using namespace svc;

TEST_CASE("lineCommission: price x amount x rate, half up to the cent, per line") {
    struct Case {
        int64_t price, amount, basisPoints, expected;
    };
    const std::vector<Case> cases{
        {1999, 2, 500, 200},   // 1.999 -> 2.00
        {3333, 1, 500, 167},   // 1.6665 -> 1.67
        {3333, 2, 500, 333},   // 3.333 -> 3.33
        {1, 1, 5000, 1},       // 0.005 -> 0.01: half up
        {1, 1, 4999, 0},
        {0, 5, 1000, 0},
        {10000, 3, 10000, 30000},
        {12345, 1, 0, 0},
    };
    for (const auto& c : cases) {
        CAPTURE(c.price);
        CAPTURE(c.amount);
        CAPTURE(c.basisPoints);
        CHECK(lineCommission(c.price, c.amount, c.basisPoints).value() == c.expected);
    }
    CHECK_FALSE(lineCommission(-1, 1, 500));
    CHECK_FALSE(lineCommission(1, 1, 10001));
    CHECK_FALSE(lineCommission(std::numeric_limits<int64_t>::max() / 2, 4, 500));  // refused, never wrapped
}

TEST_CASE("commissionReversal: every sequence of returns leaves exactly the commission on what was kept") {
    const int64_t price = 3333, rate = 750;
    for (int64_t amount = 1; amount <= 7; ++amount) {
        int64_t booked = lineCommission(price, amount, rate).value().cents();
        int64_t kept = amount;
        // Return one unit at a time, then check after every step.
        while (kept > 0) {
            booked -= commissionReversal(price, kept, 1, rate).value().cents();
            --kept;
            CHECK(booked == lineCommission(price, kept, rate).value());
        }
    }
    CHECK_FALSE(commissionReversal(price, 2, 3, rate));
}

TEST_CASE("parseRate and CommissionRates: what an operator writes, what the store keeps") {
    const std::vector<std::pair<std::string, int64_t>> valid{{"5%", 500}, {"7.25%", 725}, {"7.5%", 750}, {"0%", 0},
                                                             {"100%", 10000}, {"725bp", 725}, {" 5% ", 500}};
    for (const auto& [text, basisPoints] : valid) {
        CAPTURE(text);
        CHECK(parseRate(text, "--commission-rate").value() == basisPoints);
    }
    for (const std::string text : {"5", "5.123%", "-1%", "101%", "abc", "%", "5.%", "10001bp"}) {
        CAPTURE(text);
        auto rate = parseRate(text, "--commission-rate");
        REQUIRE_FALSE(rate);
        CHECK(rate.error().message.rfind("--commission-rate: '", 0) == 0);
    }
    auto rates = CommissionRates::fromText("500,SET=1000,SIMILAR=250").value();
    CHECK(rates.basisPointsFor(WidgetType::Set) == 1000);
    CHECK(rates.basisPointsFor(WidgetType::SetCustom) == 500);
    CHECK(rates.basisPointsFor(std::nullopt) == 500);
    CHECK(CommissionRates::fromText(rates.toText()).value() == rates);
    CHECK_FALSE(CommissionRates::fromText("500,NOPE=1"));
    CHECK_FALSE(CommissionRates::fromText("20000"));
}

TEST_CASE("AttributionRule: last qualifying touch inside the window and before the order") {
    const int64_t day = 86400, orderedAt = 100 * day, orderSequence = 50;
    auto click = [](int64_t sequence, int64_t at, std::string sku, std::string mainSku, std::string setId = "",
                    WidgetEventType type = WidgetEventType::Click) {
        Interaction interaction;
        interaction.sequence = sequence;
        interaction.receivedAt = at;
        interaction.type = type;
        interaction.sku = std::move(sku);
        interaction.mainSku = std::move(mainSku);
        interaction.setId = std::move(setId);
        return interaction;
    };
    AttributionRule rule(30 * day, [](const std::string& setId, const std::string& mainSku) { return setId == "look" && mainSku == "C"; });
    struct Case {
        std::string name;
        std::vector<Interaction> interactions;
        std::optional<int64_t> sequence;  // the winning interaction
        std::optional<AttributionReason> reason;
    };
    const std::vector<Case> cases{
        {"same SKU", {click(1, orderedAt - day, "A-S", "A")}, 1, AttributionReason::Sku},
        {"main SKU reported", {click(1, orderedAt - day, "A", "A")}, 1, AttributionReason::MainSku},
        {"another size", {click(1, orderedAt - day, "A-M", "A")}, 1, AttributionReason::MainSku},
        {"via a set", {click(1, orderedAt - day, "X-S", "X", "look")}, std::nullopt, std::nullopt},  // the set holds C, not A
        {"at the window's edge", {click(1, orderedAt - 30 * day, "A-S", "A")}, 1, AttributionReason::Sku},
        {"outside the window", {click(1, orderedAt - 30 * day - 1, "A-S", "A")}, std::nullopt, std::nullopt},
        {"after the order", {click(51, orderedAt, "A-S", "A")}, std::nullopt, std::nullopt},
        {"a view", {click(1, orderedAt, "A-S", "A", "", WidgetEventType::View)}, std::nullopt, std::nullopt},
        {"add-to-cart counts", {click(1, orderedAt, "A-S", "A", "", WidgetEventType::AddToCart)}, 1, AttributionReason::Sku},
        {"last touch wins", {click(7, orderedAt - day, "A", "A"), click(3, orderedAt - 2 * day, "A-S", "A")}, 7, AttributionReason::MainSku},
        {"unrelated", {click(1, orderedAt, "B-S", "B")}, std::nullopt, std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto found = rule.attribute("A-S", "A", orderSequence, orderedAt, c.interactions);
        REQUIRE(found.has_value() == c.sequence.has_value());
        if (!found) continue;
        CHECK(found->interaction->sequence == *c.sequence);
        CHECK(found->reason == *c.reason);
    }
    auto viaSet = rule.attribute("C-S", "C", orderSequence, orderedAt, {click(1, orderedAt - day, "X-S", "X", "look")});
    REQUIRE(viaSet);
    CHECK(viaSet->reason == AttributionReason::Set);
}

TEST_CASE("ConversionInterval: Wilson 95% intervals") {
    auto half = ConversionInterval::wilson(5, 10);
    CHECK(half.rate == 0.5);
    CHECK(half.low == doctest::Approx(0.2366).epsilon(0.001));
    CHECK(half.high == doctest::Approx(0.7634).epsilon(0.001));
    auto none = ConversionInterval::wilson(0, 10);
    CHECK(none.low == 0);
    CHECK(none.high == doctest::Approx(0.2775).epsilon(0.001));
    CHECK(ConversionInterval::wilson(0, 0).high == 0);
    // Two groups far apart: the intervals do not overlap; close ones do (noise, not effect).
    CHECK(ConversionInterval::wilson(100, 1000).high < ConversionInterval::wilson(200, 1000).low);
    CHECK(ConversionInterval::wilson(10, 100).high > ConversionInterval::wilson(12, 100).low);
}

TEST_CASE("the ledger CSV quotes what needs it and never lets a SKU become a spreadsheet formula") {
    LedgerEntry entry;
    entry.orderId = "O,1";
    entry.sku = "=HYPERLINK(\"x\")";
    entry.amount = -1;
    entry.commission = -167;
    std::string csv = CommissionReport::ledgerCsv({entry});
    auto row = csv.substr(csv.find("\r\n") + 2);
    CHECK(row.rfind("sale,\"O,1\",0,\"'=HYPERLINK(\"\"x\"\")\",,-1,0,0,0,-167,no,", 0) == 0);
}

TEST_CASE("CommissionReport: a sum that would leave 64 bits refuses the report, naming the figure; it never wraps negative") {
    auto sale = [](int64_t order, int64_t price, int64_t amount, bool attributed) {
        LedgerEntry entry;
        entry.orderEvent = order;
        entry.orderId = "O-" + std::to_string(order);
        entry.price = price;
        entry.amount = amount;
        entry.attributed = attributed;
        entry.widget = "SET";
        if (attributed) entry.revenue = Cents(price).times(amount).value();
        return entry;
    };
    // Ten lines of 10^18 cents: before issue 18 the revenue read -8,446,744,073,709,551,616.
    std::vector<LedgerEntry> entries;
    for (int64_t i = 0; i < 10; ++i) entries.push_back(sale(i, 1'000'000'000'000, 1'000'000, false));
    auto report = CommissionReport::build(0, 86400, {}, entries);
    REQUIRE_FALSE(report);
    CHECK(report.error().code == ErrorCode::InvalidArgument);
    CHECK(report.error().message == "revenue: the period's sum exceeds 9223372036854775807 cents and cannot be reported; ask for a shorter period");
    // Within 64 bits every figure is exact.
    auto fine = CommissionReport::build(0, 86400, {}, {sale(1, 1'000'000'000'000, 1'000'000, true), sale(2, 1999, 3, true)});
    REQUIRE(fine);
    CHECK(fine->allRevenue().cents() == 1'000'000'000'000'005'997);
    CHECK(fine->total().attributedRevenue.cents() == 1'000'000'000'000'005'997);
    CHECK(fine->allOrders() == 2);
}

TEST_CASE("CommissionReport: each order once, as its earning claim says; disagreeing claims are counted as conflicts") {
    auto entry = [](int64_t claim, LedgerKind kind, ClaimStatus status, int64_t amount, int64_t revenue) {
        LedgerEntry e;
        e.kind = kind;
        e.orderEvent = claim;
        e.orderId = "100046";
        e.price = 1000;
        e.amount = amount;
        e.attributed = revenue != 0;
        e.revenue = revenue;
        e.commission = revenue / 20;
        e.widget = "SET";
        e.claimStatus = status;
        return e;
    };
    // A pre-claim earned, the real order disputed it (the pre-claim's reversal), the shop confirmed the real lines.
    std::vector<LedgerEntry> entries{entry(1, LedgerKind::Sale, ClaimStatus::Claimed, 1, 1000),
                                     entry(2, LedgerKind::Sale, ClaimStatus::Disputed, 3, 0),
                                     entry(1, LedgerKind::Reversal, ClaimStatus::Disputed, -1, -1000),
                                     entry(3, LedgerKind::Sale, ClaimStatus::Confirmed, 3, 3000)};
    auto report = CommissionReport::build(0, 86400, {}, entries).value();
    CHECK(report.allOrders() == 1);
    CHECK(report.allRevenue().cents() == 3000);
    CHECK(report.total().attributedRevenue.cents() == 3000);
    CHECK(report.total().commission.cents() == 150);
    CHECK(report.conflicts() == 1);
    CHECK(report.toJson()["conflicts"] == 1);
    std::string csv = CommissionReport::ledgerCsv(entries);
    CHECK(csv.substr(0, csv.find("\r\n")).ends_with(",return_id,claim,claim_source,claim_status"));
    CHECK(csv.find("\r\nreversal,100046,0,,,-1,1000,-1000,0,-50,yes,,,SET,,,,,0,0,0,,1,browser,disputed\r\n") != std::string::npos);
}

TEST_CASE("CommissionReport: orders without consent are counted apart, within all orders; their returns lower them") {
    auto entry = [](const std::string& orderId, LedgerKind kind, int64_t amount, int64_t price, bool withoutConsent) {
        LedgerEntry e;
        e.kind = kind;
        e.orderId = orderId;
        e.amount = amount;
        e.price = price;
        e.withoutConsent = withoutConsent;
        e.widget = "SIMILAR";
        // Only an order with a visitor can be attributed.
        e.attributed = !withoutConsent;
        if (e.attributed) e.revenue = Cents(price).times(amount).value();
        if (kind == LedgerKind::Return) e.returnId = "R-" + orderId;
        return e;
    };
    const LedgerEntry consented = entry("O-1", LedgerKind::Sale, 2, 1000, false);
    const LedgerEntry anonymousShoe = entry("O-2", LedgerKind::Sale, 1, 3000, true);
    const LedgerEntry anonymousSocks = entry("O-2", LedgerKind::Sale, 2, 500, true);  // a second line of the same order
    const LedgerEntry sockReturned = entry("O-2", LedgerKind::Return, -1, 500, true);
    const LedgerEntry anonymousCoat = entry("O-3", LedgerKind::Sale, 1, 4000, true);
    const LedgerEntry coatReturned = entry("O-3", LedgerKind::Return, -1, 4000, true);
    LedgerEntry disputed = entry("O-4", LedgerKind::Sale, 1, 9000, true);
    disputed.claimStatus = ClaimStatus::Disputed;  // earns nothing, so no order of the period

    struct Case {
        const char* name;
        std::vector<LedgerEntry> entries;
        int64_t orders, revenue, ordersWithoutConsent, revenueWithoutConsent;
    };
    const std::vector<Case> cases{
        {"with consent only", {consented}, 1, 2000, 0, 0},
        {"one order of two lines without consent", {anonymousShoe, anonymousSocks}, 1, 4000, 1, 4000},
        {"a return of it lowers its revenue", {anonymousShoe, anonymousSocks, sockReturned}, 1, 3500, 1, 3500},
        {"returned whole: still an order of the period, no revenue", {anonymousCoat, coatReturned}, 1, 0, 1, 0},
        {"a disputed claim is no order, with or without consent", {disputed}, 0, 0, 0, 0},
        {"all of them",
         {consented, anonymousShoe, anonymousSocks, sockReturned, anonymousCoat, coatReturned, disputed},
         3, 5500, 2, 3500},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto report = CommissionReport::build(0, 86400, {}, c.entries).value();
        CHECK(report.allOrders() == c.orders);
        CHECK(report.allRevenue().cents() == c.revenue);
        CHECK(report.ordersWithoutConsent() == c.ordersWithoutConsent);
        CHECK(report.revenueWithoutConsent().cents() == c.revenueWithoutConsent);
        auto json = report.toJson();
        CHECK(json["ordersWithoutConsent"] == c.ordersWithoutConsent);
        CHECK(json["revenueWithoutConsent"] == c.revenueWithoutConsent);

        // The report of the consenting entries alone plus the figure without consent is all orders.
        std::vector<LedgerEntry> withConsent;
        for (const auto& e : c.entries) {
            if (!e.withoutConsent) withConsent.push_back(e);
        }
        auto consentedOnly = CommissionReport::build(0, 86400, {}, withConsent).value();
        CHECK(consentedOnly.ordersWithoutConsent() == 0);
        CHECK(consentedOnly.allOrders() + report.ordersWithoutConsent() == report.allOrders());
        CHECK(consentedOnly.allRevenue().cents() + report.revenueWithoutConsent().cents() == report.allRevenue().cents());
        // Attribution is untouched: only the consenting order earns.
        CHECK(report.total().attributedRevenue == consentedOnly.total().attributedRevenue);
    }
}
