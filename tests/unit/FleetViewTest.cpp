// The fleet view's core (docs/adr/0066): UTC months, the query string's checks, the attention
// score and the listing's search, order and pages.
#include <doctest/doctest.h>

#include <set>

#include "fleet/CalendarMonth.hpp"
#include "fleet/FleetListing.hpp"
#include "fleet/FleetQuery.hpp"
#include "fleet/TenantAttention.hpp"

using namespace svc;

TEST_CASE("CalendarMonth: UTC months of Unix times, their starts and ends, across years and leap days") {
    struct Case {
        int64_t at;
        int key;
        const char* text;
        int64_t start, end;
        int previousKey;
    };
    const Case cases[] = {
        {0, 197001, "1970-01", 0, 2678400, 196912},
        {951782400, 200002, "2000-02", 949363200, 951868800, 200001},    // 2000-02-29 00:00, a leap day
        {1704067199, 202312, "2023-12", 1701388800, 1704067200, 202311},  // the last second of 2023
        {1704067200, 202401, "2024-01", 1704067200, 1706745600, 202312},
        {1748736000 + 86399, 202506, "2025-06", 1748736000, 1751328000, 202505},
    };
    for (const auto& c : cases) {
        CAPTURE(c.at);
        CalendarMonth month = CalendarMonth::of(c.at);
        CHECK(month.key() == c.key);
        CHECK(month.text() == c.text);
        CHECK(month.startSeconds() == c.start);
        CHECK(month.endSeconds() == c.end);
        CHECK(month.previous().key() == c.previousKey);
    }
}

TEST_CASE("FleetQuery: defaults, and each bad parameter refused naming it") {
    auto defaults = FleetQuery::parse({});
    REQUIRE(defaults);
    CHECK(defaults->page == 1);
    CHECK(defaults->limit == FleetQuery::kDefaultLimit);
    CHECK(defaults->sort == FleetSort::Attention);
    auto given = FleetQuery::parse({{"q", "Lumen"}, {"sort", "traffic"}, {"page", "3"}, {"limit", "200"}});
    REQUIRE(given);
    CHECK(given->search == "Lumen");
    CHECK(given->sort == FleetSort::Traffic);
    CHECK(given->page == 3);
    CHECK(given->limit == 200);

    struct Case {
        std::vector<std::pair<std::string, std::string>> parameters;
        const char* message;
    };
    const Case refused[] = {
        {{{"limit", "201"}}, "limit: '201' is not a whole number from 1 to 200"},
        {{{"limit", "0"}}, "limit: '0' is not a whole number from 1 to 200"},
        {{{"limit", ""}}, "limit: '' is not a whole number from 1 to 200"},
        {{{"page", "0"}}, "page: '0' is not a whole number from 1 to 1000000"},
        {{{"page", "-1"}}, "page: '-1' is not a whole number from 1 to 1000000"},
        {{{"page", "2x"}}, "page: '2x' is not a whole number from 1 to 1000000"},
        {{{"page", "99999999999999999999"}}, "page: '99999999999999999999' is not a whole number from 1 to 1000000"},
        {{{"sort", "score"}}, "sort: 'score' is not one of attention, name, traffic, commission"},
        {{{"q", std::string(201, 'a')}}, "q: at most 200 bytes"},
        {{{"q", "\xff"}}, "q: not valid UTF-8"},
        {{{"pgae", "2"}}, "pgae: unknown parameter (known: q, sort, page, limit)"},
        {{{"page", "1"}, {"page", "2"}}, "page: given more than once"},
    };
    for (const auto& c : refused) {
        auto parsed = FleetQuery::parse(c.parameters);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code == ErrorCode::InvalidArgument);
        CHECK(parsed.error().message == c.message);
    }
}

namespace {

constexpr int64_t kNow = 1750000000;  // 2025-06-15 15:06 UTC
const CalendarMonth kMonth = CalendarMonth::of(kNow);

TenantAttention attentionOf(const TenantFleetFacts& facts, WidgetErrorFacts errors = {}, bool disabled = false) {
    return TenantAttention::of(TenantAttentionInput{&facts, errors, disabled, kNow, kMonth.startSeconds(), kMonth.endSeconds()});
}

FleetFeedFacts pushedFeed(const std::string& name, int64_t appliedAgo, const std::string& lastStatus = "applied") {
    FleetFeedFacts feed;
    feed.feed = name;
    feed.lastAppliedAt = appliedAgo < 0 ? 0 : kNow - appliedAgo;
    feed.lastStatus = lastStatus;
    return feed;
}

std::vector<std::string> kinds(const TenantAttention& attention) {
    std::vector<std::string> names;
    for (const auto& reason : attention.reasons) names.emplace_back(TenantAttention::name(reason.kind));
    return names;
}

}  // namespace

TEST_CASE("TenantAttention: each finding's points, highest first; nothing for a healthy or a disabled tenant") {
    TenantFleetFacts healthy;
    healthy.feeds = {pushedFeed("default", 3600)};
    healthy.widgetEventsThisMonth = 900;
    healthy.widgetEventsLastMonth = 1000;
    healthy.waitingPurchases = 3;
    healthy.oldestWaitingAt = kNow - 5;  // just arrived: the attributor books within seconds
    CHECK(attentionOf(healthy).score == 0);
    CHECK(attentionOf(healthy).reasons.empty());

    TenantFleetFacts troubled;
    troubled.feeds = {pushedFeed("default", 3600, "failed"), pushedFeed("stock", 3 * 86400)};
    FleetFeedFacts pulled = pushedFeed("prices", 600);
    pulled.pullIntervalSeconds = 3600;
    pulled.lastPullResult = "failed: HTTP 404 from feeds.example";
    troubled.feeds.push_back(pulled);
    troubled.heldImports = 5;
    troubled.quarantinedLines = 2;
    troubled.waitingPurchases = 7;
    troubled.oldestWaitingAt = kNow - TenantAttention::kWaitingAfter;
    troubled.widgetEventsLastMonth = 10000;
    troubled.widgetEventsThisMonth = 1000;  // half the month gone: 2,000 projected
    auto attention = attentionOf(troubled, WidgetErrorFacts{150, "w: at least one widget is required"});
    CHECK(kinds(attention) == std::vector<std::string>{"held-imports", "feed-failing", "feed-failing", "feed-stale", "purchases-quarantined",
                                                       "purchases-waiting", "widget-errors", "traffic-drop"});
    CHECK(attention.reasons[0].points == 3 * TenantAttention::kHeldImport);  // five held, three counted
    CHECK(attention.reasons[0].detail == "5 imports");
    CHECK(attention.reasons[1].detail == "default");
    CHECK(attention.reasons[2].detail == "prices");
    CHECK(attention.reasons[3].detail == "stock");
    CHECK(attention.reasons[6].points == 2 * TenantAttention::kWidgetErrors);
    CHECK(attention.score == 75 + 40 + 40 + 30 + 30 + 20 + 20 + 10);

    CHECK(attentionOf(troubled, {}, true).score == 0);
    // Widget errors count for a tenant without any stored facts too.
    auto onlyErrors = TenantAttention::of(TenantAttentionInput{nullptr, {1, "x"}, false, kNow, kMonth.startSeconds(), kMonth.endSeconds()});
    CHECK(kinds(onlyErrors) == std::vector<std::string>{"widget-errors"});
}

TEST_CASE("TenantAttention: a traffic drop needs a month with enough traffic and two days of this one") {
    TenantFleetFacts facts;
    facts.widgetEventsLastMonth = TenantAttention::kTrafficDropFloor - 1;
    facts.widgetEventsThisMonth = 0;
    CHECK(attentionOf(facts).score == 0);
    facts.widgetEventsLastMonth = TenantAttention::kTrafficDropFloor;
    CHECK(attentionOf(facts).score == TenantAttention::kTrafficDrop);
    auto early = TenantAttention::of(TenantAttentionInput{&facts, {}, false, kMonth.startSeconds() + 86400, kMonth.startSeconds(),
                                                          kMonth.endSeconds()});
    CHECK(early.score == 0);
}

TEST_CASE("FleetListing: search by name, API ID or domain; attention order with ties by name; pages that never overlap") {
    std::vector<FleetEntry> entries;
    for (int i = 0; i < 25; ++i) {
        FleetEntry entry;
        entry.name = "Shop " + std::string(1, static_cast<char>('A' + i));
        entry.apiId = "api-" + std::to_string(100 + i);
        entry.feedId = "feed-" + std::to_string(i);
        entry.attention = i % 5 == 0 ? 10 * i : 0;
        entry.traffic = i;
        entries.push_back(entry);
    }
    entries[7].domains = {FleetListing::hostOf("https://Boutique.Example.COM:8443/de/?x=1")};
    entries[3].disabled = true;

    FleetQuery query;
    query.limit = 10;
    auto first = FleetListing::select(entries, query);
    CHECK(first.matching == 25);
    CHECK(first.pages == 3);
    REQUIRE(first.entries.size() == 10);
    // Scores 200, 150, 100, 50, then the zeros by name; the disabled tenant last among them.
    CHECK(std::vector<size_t>(first.entries.begin(), first.entries.begin() + 6) == std::vector<size_t>{20, 15, 10, 5, 0, 1});
    std::set<size_t> seen;
    for (int64_t page = 1; page <= 3; ++page) {
        query.page = page;
        for (size_t index : FleetListing::select(entries, query).entries) CHECK(seen.insert(index).second);
    }
    CHECK(seen.size() == 25);
    CHECK(*FleetListing::select(entries, query).entries.rbegin() == 3);  // the disabled one is the very last
    query.page = 4;
    CHECK(FleetListing::select(entries, query).entries.empty());

    FleetQuery search;
    for (const auto& [needle, expected] : std::vector<std::pair<std::string, std::vector<size_t>>>{
             {"shop c", {2}}, {"  SHOP C ", {2}}, {"API-107", {7}}, {"boutique.example", {7}}, {"feed-24", {24}}, {"nothing", {}}}) {
        CAPTURE(needle);
        search.search = needle;
        auto found = FleetListing::select(entries, search);
        CHECK(found.entries == expected);
        CHECK(found.matching == expected.size());
    }
    FleetQuery byTraffic;
    byTraffic.sort = FleetSort::Traffic;
    byTraffic.limit = 2;
    CHECK(FleetListing::select(entries, byTraffic).entries == std::vector<size_t>{24, 23});
}

TEST_CASE("FleetListing::hostOf: the host of a shop URL, lower case, without port or user") {
    CHECK(FleetListing::hostOf("https://Shop.Example.com:8443/de/") == "shop.example.com");
    CHECK(FleetListing::hostOf("http://user:pw@shop.example/") == "shop.example");
    CHECK(FleetListing::hostOf("https://[2001:db8::1]:443/") == "[2001:db8::1]");
    CHECK(FleetListing::hostOf("shop.example") == "shop.example");
}
