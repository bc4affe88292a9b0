// The FleetStore contract (shared/store/FleetStore.hpp) on every backend. The facts come from
// the other stores, written through their interfaces as svc writes them.
#include "StoreBackends.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace svc::contract {
namespace {

constexpr int64_t kJuly = 1'751'328'000;  // 2025-07-01 00:00:00 UTC
const FleetPeriod kPeriod{202507, 202506, kJuly + 10 * 86'400};

void widgetView(Storage& storage, int64_t tenantId, int64_t receivedAt) {
    WidgetEvent view;
    view.cid = "cid";
    std::vector<TrackingEvent> events{view};
    EventAppend append{tenantId, events};
    REQUIRE(storage.events().append(std::span<const EventAppend>(&append, 1), receivedAt));
}

int64_t purchase(Storage& storage, int64_t tenantId, const std::string& orderId, int64_t receivedAt) {
    std::vector<TrackingEvent> events{PurchaseEvent{orderId, std::string("cid"), {{"A-1", 1, 1000}}}};
    EventAppend append{tenantId, events};
    REQUIRE(storage.events().append(std::span<const EventAppend>(&append, 1), receivedAt));
    return storage.ledger().orderClaims(tenantId, orderId, std::numeric_limits<int64_t>::max()).value().at(0).sequence;
}

LedgerEntry entryOf(int64_t tenantId, int64_t claim, const std::string& orderId, LedgerKind kind, int64_t commission, int64_t bookedAt) {
    LedgerEntry entry;
    entry.kind = kind;
    entry.tenantId = tenantId;
    entry.orderEvent = claim;
    entry.orderId = orderId;
    entry.sku = "A-1";
    entry.amount = kind == LedgerKind::Sale ? 1 : -1;
    entry.price = 1000;
    entry.commission = commission;
    entry.orderedAt = bookedAt;
    entry.bookedAt = bookedAt;
    entry.returnId = kind == LedgerKind::Return ? "r-1" : "";
    return entry;
}

std::unordered_map<int64_t, TenantFleetFacts> factsOf(FleetStore& fleet) {
    auto facts = fleet.facts(kPeriod);
    REQUIRE_MESSAGE(facts, (facts ? "" : facts.error().message));
    return *facts;
}

}  // namespace

TEST_CASE("FleetStore: traffic, purchases and commission per UTC month, waiting claims and lines set aside; tenants without facts are absent") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A"), b = newTenant(storage, "B"), quiet = newTenant(storage, "Quiet");
        CHECK(factsOf(storage.fleet()).count(a.id) == 0);

        widgetView(storage, a.id, kJuly - 1);  // June's last second
        for (int i = 0; i < 3; ++i) widgetView(storage, a.id, kJuly + i);
        widgetView(storage, a.id, kJuly - 40 * 86'400);  // May: in neither month
        int64_t june = purchase(storage, a.id, "june", kJuly - 10);
        int64_t july = purchase(storage, a.id, "july", kJuly + 20);
        purchase(storage, a.id, "july-2", kJuly + 30);
        widgetView(storage, b.id, kJuly);
        // June's order booked in June, a reversal of it and a sale of July's in July.
        std::vector<LedgerEntry> booked{entryOf(a.id, june, "june", LedgerKind::Sale, 250, kJuly - 5),
                                        entryOf(a.id, june, "june", LedgerKind::Reversal, -100, kJuly),
                                        entryOf(a.id, july, "july", LedgerKind::Sale, 70, kJuly + 20)};
        std::vector<QuarantinedLine> aside{{a.id, june, "june", 0, "A-1", 1, 1000, "too much", kPeriod.quarantineSince - 1},
                                           {a.id, july, "july", 0, "A-1", 1, 1000, "too much", kPeriod.quarantineSince}};
        REQUIRE(storage.ledger().book(a.id, booked, aside, july));
        REQUIRE(storage.ledger().bookReturn(a.id, "r-1", {entryOf(a.id, july, "july", LedgerKind::Return, -7, kJuly + 100)}));

        auto facts = factsOf(storage.fleet());
        CHECK(facts.count(quiet.id) == 0);
        REQUIRE(facts.count(a.id) == 1);
        const TenantFleetFacts& tenant = facts[a.id];
        CHECK(tenant.widgetEventsThisMonth == 3);
        CHECK(tenant.widgetEventsLastMonth == 1);
        CHECK(tenant.purchasesThisMonth == 2);
        CHECK(tenant.purchasesLastMonth == 1);
        CHECK(tenant.commissionThisMonth == -100 + 70 - 7);
        CHECK(tenant.commissionLastMonth == 250);
        CHECK(tenant.waitingPurchases == 1);  // booked through July's first order
        CHECK(tenant.oldestWaitingAt == kJuly + 30);
        CHECK(tenant.quarantinedLines == 1);
        REQUIRE(facts.count(b.id) == 1);
        CHECK(facts[b.id].widgetEventsThisMonth == 1);
        CHECK(facts[b.id].purchasesThisMonth == 0);
        CHECK(facts[b.id].commissionThisMonth == 0);
        CHECK(facts[b.id].waitingPurchases == 0);
        CHECK(facts[b.id].feeds.empty());
    });
}

TEST_CASE("FleetStore: a tenant's feeds (pulled and pushed), held imports, country and shop URL") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A"), b = newTenant(storage, "B");
        PullSource source;
        source.tenantId = a.id;
        source.feed = "pulled";
        source.url = "https://shop.example/feed.csv";
        source.intervalSeconds = 7200;
        auto added = storage.pullSources().add(source);
        REQUIRE_MESSAGE(added, (added ? "" : added.error().message));
        added->lastRunAt = 500;
        added->lastResult = "failed: HTTP 503";
        added->nextRunAt = 900;
        REQUIRE(storage.pullSources().finish(*added));

        auto finish = [&](const std::string& feed, ImportStatus status, int64_t finishedAt, const std::string& message) {
            FeedImportRecord record;
            record.tenantId = a.id;
            record.feed = feed;
            record.source = "push";
            record.createdAt = finishedAt - 1;
            record.id = storage.imports().create(record).value();
            record.status = status;
            record.finishedAt = finishedAt;
            record.message = message;
            REQUIRE(storage.imports().update(record));
        };
        finish("pushed", ImportStatus::Applied, 300, "");
        finish("pushed", ImportStatus::Failed, 400, "row 2: 'sku' is empty");
        finish("pushed", ImportStatus::Held, 450, "would delete 90 %");
        finish("other", ImportStatus::Held, 460, "would delete 90 %");

        WidgetSettingsChange country;
        country.country = "AT";
        REQUIRE(storage.widgetSettings().change(a.id, country, 100));
        ShopRegistration registration;
        registration.shopUrl = "https://shop.example";
        registration.productsUrl = "https://shop.example/api/products";
        registration.attributesUrl = "https://shop.example/api/attributes";
        registration.variantDimensionsUrl = "https://shop.example/api/dimensions";
        registration.pluginVersion = "1.2.3";
        registration.shopSoftware = "shopware";
        registration.shopVersion = "6.5";
        auto saved = storage.shopRegistrations().save(b.id, "plugin", b.feedId, registration, 100);
        REQUIRE_MESSAGE(saved, (saved ? "" : saved.error().message));

        auto facts = factsOf(storage.fleet());
        REQUIRE(facts.count(a.id) == 1);
        TenantFleetFacts tenant = facts[a.id];
        CHECK(tenant.country == "AT");
        CHECK(tenant.shopUrls.empty());
        CHECK(tenant.heldImports == 2);
        std::sort(tenant.feeds.begin(), tenant.feeds.end(), [](const auto& x, const auto& y) { return x.feed < y.feed; });
        REQUIRE(tenant.feeds.size() == 2);
        const FleetFeedFacts& pulled = tenant.feeds[0];
        CHECK(pulled.feed == "pulled");
        CHECK(pulled.pullIntervalSeconds == std::optional<int64_t>(7200));
        CHECK(pulled.lastPullAt == 500);
        CHECK(pulled.lastPullResult == "failed: HTTP 503");
        CHECK(pulled.lastAppliedAt == 0);
        CHECK(pulled.lastStatus.empty());
        const FleetFeedFacts& pushed = tenant.feeds[1];
        CHECK(pushed.feed == "pushed");
        CHECK(pushed.pullIntervalSeconds == std::nullopt);
        CHECK(pushed.lastAppliedAt == 300);
        CHECK(pushed.lastStatus == "failed");
        CHECK(pushed.lastMessage == "row 2: 'sku' is empty");
        CHECK(pushed.lastFinishedAt == 400);

        REQUIRE(facts.count(b.id) == 1);
        CHECK(facts[b.id].shopUrls == std::vector<std::string>{"https://shop.example"});
        CHECK(facts[b.id].country.empty());
        REQUIRE(facts[b.id].feeds.size() == 1);  // the registration's pull source
        CHECK(facts[b.id].feeds[0].feed == "plugin");
        CHECK(facts[b.id].heldImports == 0);
    });
}

}  // namespace svc::contract
