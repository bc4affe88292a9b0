// The EventStore contract (shared/store/EventStore.hpp) on every backend.
#include "StoreBackends.hpp"

#include <limits>
#include <tuple>

namespace svc::contract {
namespace {

PurchaseEvent purchaseOf(const std::string& orderId, const std::string& cid, std::vector<OrderLine> lines = {{"A-1", 1, 1999}}) {
    return PurchaseEvent{orderId, cid, std::move(lines)};
}

WidgetEvent clickOf(const std::string& cid, const std::string& sku) {
    WidgetEvent click;
    click.type = WidgetEventType::Click;
    click.cid = cid;
    click.sku = sku;
    return click;
}

// Appends one request of `events` for `tenantId`; the outcomes of its events.
std::vector<AppendOutcome> appendOne(EventStore& events, int64_t tenantId, const std::vector<TrackingEvent>& request, int64_t receivedAt) {
    EventAppend append{tenantId, request};
    auto outcomes = events.append(std::span<const EventAppend>(&append, 1), receivedAt);
    REQUIRE_MESSAGE(outcomes, (outcomes ? "" : outcomes.error().message));
    REQUIRE(outcomes->size() == 1);
    return outcomes->front();
}

std::vector<std::string> orderIds(const std::vector<PurchaseOrder>& orders) {
    std::vector<std::string> ids;
    for (const auto& order : orders) ids.push_back(order.orderId);
    return ids;
}

}  // namespace

TEST_CASE("EventStore: a tenant without purchases reads none; one tenant's purchases never appear in another's") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        CHECK(events.purchasesSince(a.id, 0, 100).value().empty());
        CHECK(appendOne(events, a.id, {purchaseOf("o-1", "c")}, 100) == std::vector{AppendOutcome::Stored});
        // The same order id at another tenant is another order.
        CHECK(appendOne(events, b.id, {purchaseOf("o-1", "c"), purchaseOf("o-2", "c")}, 100) ==
              std::vector{AppendOutcome::Stored, AppendOutcome::Stored});
        CHECK(orderIds(events.purchasesSince(a.id, 0, 100).value()) == std::vector<std::string>{"o-1"});
        CHECK(orderIds(events.purchasesSince(b.id, 0, 100).value()) == std::vector<std::string>{"o-1", "o-2"});
    });
}

TEST_CASE("EventStore: purchases are read in sequence order from a cursor, each once, at most `limit` orders with all their lines") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        std::vector<std::string> expected;
        for (int i = 0; i < 7; ++i) {
            std::string id = "order-" + std::to_string(9 - i);  // ids sort the other way round
            std::vector<OrderLine> lines{{"S-" + std::to_string(i), i + 1, 100 * i}, {"T", 1, 5}, {"S-" + std::to_string(i), 1, 7}};
            // Another tenant's purchases and widget events interleave.
            appendOne(events, a.id, {purchaseOf(id, "cid-" + std::to_string(i), lines), clickOf("cid", "X")}, 100 + i);
            appendOne(events, b.id, {purchaseOf("b-" + std::to_string(i), "c")}, 100 + i);
            expected.push_back(id);
        }
        std::vector<std::string> read;
        int64_t cursor = 0;
        for (int pages = 0; pages < 10; ++pages) {  // bounded: a cursor that repeats rows must fail, not hang
            auto page = events.purchasesSince(a.id, cursor, 3);
            REQUIRE_MESSAGE(page, (page ? "" : page.error().message));
            CHECK(page->size() <= 3);
            if (page->empty()) break;
            for (const auto& order : *page) {
                CHECK(order.sequence > cursor);
                cursor = order.sequence;
                read.push_back(order.orderId);
                REQUIRE(order.lines.size() == 3);  // the limit counts orders, never cuts lines
                CHECK(order.lines[1] == OrderLine{"T", 1, 5});
            }
        }
        CHECK(read == expected);
        auto first = events.purchasesSince(a.id, 0, 1).value();
        REQUIRE(first.size() == 1);
        CHECK(first[0].receivedAt == 100);
        CHECK(first[0].lines == std::vector<OrderLine>{{"S-0", 1, 0}, {"T", 1, 5}, {"S-0", 1, 7}});
        CHECK(events.purchasesSince(a.id, cursor, 100).value().empty());
        // A purchase after the cursor is read from it, alone.
        appendOne(events, a.id, {purchaseOf("late", "c")}, 200);
        CHECK(orderIds(events.purchasesSince(a.id, cursor, 100).value()) == std::vector<std::string>{"late"});
    });
}

TEST_CASE("EventStore: an exact repeat is stored once; a differing claim is a conflict that co-purchase reads leave out") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A");
        PurchaseEvent purchase = purchaseOf("o-1", "c", {{"A-1", 2, 1999}, {"B-1", 1, 500}});
        CHECK(appendOne(events, a.id, {purchase}, 100) == std::vector{AppendOutcome::Stored});
        PurchaseEvent reordered = purchaseOf("o-1", "c", {{"B-1", 1, 500}, {"A-1", 2, 1999}});  // a reload listing lines otherwise
        CHECK(appendOne(events, a.id, {purchase, reordered}, 101) == std::vector{AppendOutcome::Duplicate, AppendOutcome::Duplicate});
        // Two requests of one group commit.
        std::vector<TrackingEvent> again{purchase};
        std::vector<EventAppend> requests{{a.id, again}, {a.id, again}};
        auto outcomes = events.append(requests, 102);
        REQUIRE(outcomes);
        CHECK(*outcomes == std::vector<std::vector<AppendOutcome>>{{AppendOutcome::Duplicate}, {AppendOutcome::Duplicate}});
        CHECK(appendOne(events, a.id, {purchaseOf("o-1", "other visitor", purchase.lines)}, 103) == std::vector{AppendOutcome::Conflict});
        CHECK(appendOne(events, a.id, {purchaseOf("o-1", "c", {{"A-1", 1, 1999}})}, 104) == std::vector{AppendOutcome::Conflict});
        auto orders = events.purchasesSince(a.id, 0, 100).value();
        REQUIRE(orders.size() == 1);
        CHECK(orders[0].lines == purchase.lines);
        CHECK(orders[0].receivedAt == 100);
    });
}

TEST_CASE("EventStore: a request over the claims limit stores nothing of itself; the other requests of the batch are stored") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A");
        for (size_t i = 0; i < kMaxBrowserClaimsPerOrder; ++i) {
            auto outcome = appendOne(events, a.id, {purchaseOf("disputed", "visitor-" + std::to_string(i))}, 100);
            CHECK(outcome == std::vector{i == 0 ? AppendOutcome::Stored : AppendOutcome::Conflict});
        }
        std::vector<TrackingEvent> refused{purchaseOf("before", "c"), purchaseOf("disputed", "one too many"), clickOf("c", "X")};
        std::vector<TrackingEvent> fine{purchaseOf("other", "c")};
        std::vector<EventAppend> requests{{a.id, refused}, {a.id, fine}};
        auto outcomes = events.append(requests, 200);
        REQUIRE_MESSAGE(outcomes, (outcomes ? "" : outcomes.error().message));
        CHECK((*outcomes)[0] == std::vector{AppendOutcome::NotStored, AppendOutcome::TooManyClaims, AppendOutcome::NotStored});
        CHECK((*outcomes)[1] == std::vector{AppendOutcome::Stored});
        CHECK(orderIds(events.purchasesSince(a.id, 0, 100).value()) == std::vector<std::string>{"disputed", "other"});
        // "before" was not stored: sent again, it is new.
        CHECK(appendOne(events, a.id, {purchaseOf("before", "c")}, 300) == std::vector{AppendOutcome::Stored});
        // The refused request's click was not stored either (the ledger counts widget events).
        auto counts = backend.storage->ledger().eventCounts(a.id, 0, 1000).value();
        CHECK(counts.empty());
    });
}

TEST_CASE("EventStore: the shop's word is stored once per change, names only the tenant's own browser claims, and is no purchase") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        appendOne(events, a.id, {purchaseOf("o-1", "c")}, 100);
        int64_t claim = events.purchasesSince(a.id, 0, 1).value().at(0).sequence;
        OrderConfirmation confirmed{ClaimSource::ShopConfirmed, {{"A-1", 1, 1999}}, std::string("c"), std::nullopt};
        auto first = events.recordShopWord(a.id, "o-1", confirmed, 110);
        REQUIRE_MESSAGE(first, (first ? "" : first.error().message));
        CHECK(first->changed);
        CHECK(first->sequence > claim);
        auto same = events.recordShopWord(a.id, "o-1", confirmed, 120).value();
        CHECK_FALSE(same.changed);
        CHECK(same.sequence == first->sequence);
        OrderConfirmation rejected{ClaimSource::ShopRejected, {}, std::nullopt, std::nullopt};
        auto changed = events.recordShopWord(a.id, "o-1", rejected, 130).value();
        CHECK(changed.changed);
        CHECK(changed.sequence > first->sequence);

        OrderConfirmation naming{ClaimSource::ShopConfirmed, {}, std::nullopt, claim};
        auto byClaim = events.recordShopWord(a.id, "o-1", naming, 140);
        REQUIRE(byClaim);
        CHECK(byClaim->changed);
        for (const auto& [tenant, order, named] : std::vector<std::tuple<int64_t, std::string, int64_t>>{
                 {b.id, "o-1", claim}, {a.id, "o-2", claim}, {a.id, "o-1", first->sequence}, {a.id, "o-1", claim + 1'000'000}}) {
            CAPTURE(order);
            CAPTURE(named);
            auto refused = events.recordShopWord(tenant, order, OrderConfirmation{ClaimSource::ShopConfirmed, {}, std::nullopt, named}, 150);
            REQUIRE_FALSE(refused);
            CHECK(refused.error().code == ErrorCode::NotFound);
        }
        // A word without a browser claim is a claim of its own, but no purchase to learn from.
        REQUIRE(events.recordShopWord(a.id, "shop-only", confirmed, 160));
        CHECK(orderIds(events.purchasesSince(a.id, 0, 100).value()) == std::vector<std::string>{"o-1"});
    });
}

TEST_CASE("EventStore: hostile order ids, visitors and SKUs and extreme money are read back exactly") {
    forEachBackend([](Backend& backend) {
        EventStore& events = backend.storage->events();
        Tenant a = newTenant(*backend.storage, "A");
        constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
        std::vector<PurchaseOrder> expected;
        for (const auto& text : hostileStrings()) {
            std::vector<OrderLine> lines{{text, kMax, Cents::max()}, {text + "2", 1, 0}};
            CHECK(appendOne(events, a.id, {purchaseOf(text, text, lines)}, 100) == std::vector{AppendOutcome::Stored});
            expected.push_back(PurchaseOrder{0, text, 100, lines});
        }
        auto orders = events.purchasesSince(a.id, 0, 100);
        REQUIRE_MESSAGE(orders, (orders ? "" : orders.error().message));
        REQUIRE(orders->size() == expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            expected[i].sequence = (*orders)[i].sequence;
            CHECK((*orders)[i] == expected[i]);
        }
    });
}

TEST_CASE("EventStore: retention drops no interaction an attribution window can still reach; on PostgreSQL the older days go") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant tenant = newTenant(storage, "retention");  // the default window: 30 days
        const int64_t now = 1'750'000'000;
        const int64_t old = now - 60 * 86'400;     // past any window
        const int64_t recent = now - 29 * 86'400;  // inside the window: may still earn
        REQUIRE(appendOne(storage.events(), tenant.id, {clickOf("visitor", "OLD")}, old)[0] == AppendOutcome::Stored);
        REQUIRE(appendOne(storage.events(), tenant.id, {clickOf("visitor", "RECENT")}, recent)[0] == AppendOutcome::Stored);
        REQUIRE(appendOne(storage.events(), tenant.id, {purchaseOf("O-old", "visitor")}, old)[0] == AppendOutcome::Stored);
        auto dropped = storage.events().dropExpiredInteractions(now);
        REQUIRE_MESSAGE(dropped, (dropped ? "" : dropped.error().message));
        std::vector<std::string> left;
        for (const auto& interaction : storage.ledger().interactions(tenant.id, "visitor", std::numeric_limits<int64_t>::max(), 0).value()) {
            left.push_back(interaction.sku);
        }
        if (backend.name == "postgres") {
            CHECK(*dropped > 0);
            CHECK(left == std::vector<std::string>{"RECENT"});
        } else {
            // SQLite's reports count views and clicks from these rows: it keeps them all.
            CHECK(*dropped == 0);
            CHECK(left == std::vector<std::string>{"OLD", "RECENT"});
        }
        // The claim stays whatever its age: co-purchase learning and the ledger read it.
        CHECK(orderIds(storage.events().purchasesSince(tenant.id, 0, 10).value()) == std::vector<std::string>{"O-old"});
        CHECK(storage.events().dropExpiredInteractions(now).value() == 0);  // nothing left to drop
    });
}

}  // namespace svc::contract
