// The LedgerStore contract (shared/store/LedgerStore.hpp) on every backend. Claims reach it
// through the EventStore, as they do in svc.
#include "StoreBackends.hpp"

#include <algorithm>
#include <limits>

#include "tracking/Commission.hpp"

namespace svc::contract {
namespace {

constexpr int64_t kDay = 1'750'032'000;  // a UTC midnight

// Stores a browser purchase; its claim's sequence.
int64_t purchase(Storage& storage, int64_t tenantId, const std::string& orderId, int64_t receivedAt,
                 std::vector<OrderLine> lines = {{"A-1", 1, 1999}}, const std::string& cid = "cid") {
    std::vector<TrackingEvent> events{PurchaseEvent{orderId, cid, std::move(lines)}};
    EventAppend append{tenantId, events};
    auto outcomes = storage.events().append(std::span<const EventAppend>(&append, 1), receivedAt);
    REQUIRE_MESSAGE(outcomes, (outcomes ? "" : outcomes.error().message));
    REQUIRE(outcomes->at(0).at(0) != AppendOutcome::Duplicate);
    auto claims = storage.ledger().orderClaims(tenantId, orderId, std::numeric_limits<int64_t>::max()).value();
    REQUIRE_FALSE(claims.empty());
    return claims.back().sequence;
}

void widgetEvent(Storage& storage, int64_t tenantId, WidgetEventType type, const std::string& cid, int64_t receivedAt,
                 const std::string& testGroup = "", WidgetType widget = WidgetType::Set) {
    WidgetEvent event;
    event.type = type;
    event.cid = cid;
    event.widget = widget;
    event.sku = "A-1";
    event.setId = "set-1";
    if (!testGroup.empty()) event.testGroup = testGroup;
    std::vector<TrackingEvent> events{event};
    EventAppend append{tenantId, events};
    REQUIRE(storage.events().append(std::span<const EventAppend>(&append, 1), receivedAt));
}

LedgerEntry saleOf(int64_t tenantId, int64_t claim, const std::string& orderId, int64_t line, Cents commission, int64_t bookedAt) {
    LedgerEntry entry;
    entry.kind = LedgerKind::Sale;
    entry.tenantId = tenantId;
    entry.orderEvent = claim;
    entry.orderId = orderId;
    entry.line = line;
    entry.sku = "A-1";
    entry.mainSku = "A";
    entry.amount = 1;
    entry.price = 1999;
    entry.revenue = 1999;
    entry.commission = commission;
    entry.rateBasisPoints = 500;
    entry.orderedAt = bookedAt;
    entry.bookedAt = bookedAt;
    return entry;
}

std::vector<std::string> orderIdsOf(const std::vector<OrderClaim>& claims) {
    std::vector<std::string> ids;
    for (const auto& claim : claims) ids.push_back(claim.orderId);
    return ids;
}

bool pendingHas(LedgerStore& ledger, int64_t tenantId) {
    auto tenants = ledger.tenantsWithPendingClaims();
    REQUIRE_MESSAGE(tenants, (tenants ? "" : tenants.error().message));
    return std::find(tenants->begin(), tenants->end(), tenantId) != tenants->end();
}

}  // namespace

TEST_CASE("LedgerStore: a tenant without events has no claims, entries, lines set aside or counts") {
    forEachBackend([](Backend& backend) {
        LedgerStore& ledger = backend.storage->ledger();
        Tenant a = newTenant(*backend.storage, "A");
        CHECK_FALSE(pendingHas(ledger, a.id));
        CHECK(ledger.claimsToBook(a.id, 100).value().empty());
        CHECK(ledger.orderClaims(a.id, "o-1", std::numeric_limits<int64_t>::max()).value().empty());
        CHECK(ledger.interactions(a.id, "cid", std::numeric_limits<int64_t>::max(), 0).value().empty());
        CHECK(ledger.orderEntries(a.id, "o-1").value().empty());
        CHECK(ledger.entries(a.id, 0, std::numeric_limits<int64_t>::max()).value().empty());
        auto quarantined = ledger.quarantined(a.id, 0, std::numeric_limits<int64_t>::max(), 10).value();
        CHECK(quarantined.first.empty());
        CHECK(quarantined.second == 0);
        CHECK(ledger.eventCounts(a.id, 0, std::numeric_limits<int64_t>::max()).value().empty());
        CHECK(ledger.pendingPurchases(a.id).value() == 0);
        CHECK(ledger.pendingPurchases().value() >= 0);
    });
}

TEST_CASE("LedgerStore: claims wait in arrival order until booked; booking moves only that tenant's cursor, never back") {
    forEachBackend([](Backend& backend) {
        LedgerStore& ledger = backend.storage->ledger();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        int64_t first = purchase(*backend.storage, a.id, "z-first", 100, {{"A-1", 2, 1999}, {"B-1", 1, 0}});
        purchase(*backend.storage, b.id, "theirs", 101);
        int64_t second = purchase(*backend.storage, a.id, "a-second", 102);
        OrderConfirmation word{ClaimSource::ShopConfirmed, {{"A-1", 2, 1999}}, std::nullopt, std::nullopt};
        int64_t third = backend.storage->events().recordShopWord(a.id, "z-first", word, 103).value().sequence;
        CHECK(pendingHas(ledger, a.id));
        CHECK(pendingHas(ledger, b.id));
        CHECK(ledger.pendingPurchases(a.id).value() == 3);
        int64_t before = ledger.pendingPurchases().value();
        CHECK(before >= 4);

        auto claims = ledger.claimsToBook(a.id, 100).value();
        CHECK(orderIdsOf(claims) == std::vector<std::string>{"z-first", "a-second", "z-first"});
        REQUIRE(claims.size() == 3);
        CHECK(claims[0].sequence == first);
        CHECK(claims[0].lines == std::vector<OrderLine>{{"A-1", 2, 1999}, {"B-1", 1, 0}});
        CHECK(claims[0].source == ClaimSource::Browser);
        CHECK(claims[0].cid == std::optional<std::string>("cid"));
        CHECK(claims[0].receivedAt == 100);
        CHECK(claims[2].source == ClaimSource::ShopConfirmed);
        CHECK(claims[2].sequence == third);
        CHECK(orderIdsOf(ledger.claimsToBook(a.id, 2).value()) == std::vector<std::string>{"z-first", "a-second"});

        REQUIRE(ledger.book(a.id, {}, {}, second));
        CHECK(orderIdsOf(ledger.claimsToBook(a.id, 100).value()) == std::vector<std::string>{"z-first"});
        CHECK(ledger.pendingPurchases(a.id).value() == 1);
        CHECK(ledger.pendingPurchases().value() == before - 2);
        REQUIRE(ledger.book(a.id, {}, {}, first));  // behind the cursor: it stays
        CHECK(ledger.pendingPurchases(a.id).value() == 1);
        REQUIRE(ledger.book(a.id, {}, {}, third));
        CHECK(ledger.claimsToBook(a.id, 100).value().empty());
        CHECK_FALSE(pendingHas(ledger, a.id));
        CHECK(pendingHas(ledger, b.id));
        CHECK(orderIdsOf(ledger.claimsToBook(b.id, 100).value()) == std::vector<std::string>{"theirs"});

        // Every claim on an order up to a sequence, booked or not.
        auto onOrder = ledger.orderClaims(a.id, "z-first", third).value();
        REQUIRE(onOrder.size() == 2);
        CHECK(onOrder[1].lines == word.lines);
        CHECK(ledger.orderClaims(a.id, "z-first", third - 1).value().size() == 1);
        CHECK(ledger.orderClaims(b.id, "z-first", third).value().empty());
    });
}

TEST_CASE("LedgerStore: a sale booked again is stored once; a return id is booked once; entries come in booking order") {
    forEachBackend([](Backend& backend) {
        LedgerStore& ledger = backend.storage->ledger();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        int64_t claim = purchase(*backend.storage, a.id, "o-1", kDay, {{"A-1", 1, 1999}, {"B-1", 1, 1999}});
        std::vector<LedgerEntry> sales{saleOf(a.id, claim, "o-1", 0, 100, kDay), saleOf(a.id, claim, "o-1", 1, 100, kDay)};
        REQUIRE(ledger.book(a.id, sales, {}, claim));
        REQUIRE(ledger.book(a.id, sales, {}, claim));  // a retried booking
        LedgerEntry reversal = saleOf(a.id, claim, "o-1", 0, -100, kDay + 5);
        reversal.kind = LedgerKind::Reversal;
        reversal.claimStatus = ClaimStatus::Disputed;
        REQUIRE(ledger.book(a.id, {reversal}, {}, claim));
        REQUIRE(ledger.book(a.id, {reversal}, {}, claim));
        CHECK(ledger.orderEntries(a.id, "o-1").value().size() == 3);

        LedgerEntry returned = saleOf(a.id, claim, "o-1", 1, -100, kDay + 10);
        returned.kind = LedgerKind::Return;
        returned.amount = -1;
        returned.revenue = -1999;
        returned.returnId = "r-1";
        CHECK(ledger.bookReturn(a.id, "r-1", {returned}).value() == true);
        CHECK(ledger.bookReturn(a.id, "r-1", {returned}).value() == false);
        CHECK(ledger.bookReturn(b.id, "r-1", {}).value() == true);  // another tenant's return id

        auto entries = ledger.orderEntries(a.id, "o-1").value();
        std::vector<std::pair<LedgerKind, int64_t>> booked;
        for (const auto& entry : entries) booked.emplace_back(entry.kind, entry.line);
        CHECK(booked == std::vector<std::pair<LedgerKind, int64_t>>{
                            {LedgerKind::Sale, 0}, {LedgerKind::Sale, 1}, {LedgerKind::Reversal, 0}, {LedgerKind::Return, 1}});
        CHECK(entries[2].claimStatus == ClaimStatus::Disputed);
        CHECK(entries[3].returnId == "r-1");
        CHECK(entries[3].amount == -1);
        CHECK(ledger.orderEntries(b.id, "o-1").value().empty());

        // [from, to): by booking time, in booking order.
        CHECK(ledger.entries(a.id, kDay, kDay + 10).value().size() == 3);
        CHECK(ledger.entries(a.id, kDay + 1, kDay + 11).value().size() == 2);
        CHECK(ledger.entries(a.id, kDay + 11, kDay + 100).value().empty());
        CHECK(ledger.entries(b.id, 0, kDay + 100).value().empty());
    });
}

TEST_CASE("LedgerStore: money at the booking limits and lines set aside with any amount are read back exactly") {
    forEachBackend([](Backend& backend) {
        LedgerStore& ledger = backend.storage->ledger();
        Tenant a = newTenant(*backend.storage, "A");
        constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
        std::vector<LedgerEntry> sales;
        std::vector<QuarantinedLine> aside;
        int64_t line = 0;
        for (const auto& text : hostileStrings()) {
            int64_t claim = purchase(*backend.storage, a.id, text, kDay + line, {{text, 1, kMaxOrderTotal}, {text, kMax, Cents::max()}});
            LedgerEntry sale = saleOf(a.id, claim, text, 0, kMaxOrderTotal, kDay + line);
            sale.sku = sale.mainSku = sale.setId = sale.widget = sale.testGroup = sale.variant = text;
            sale.price = sale.revenue = kMaxOrderTotal;
            sale.rateBasisPoints = 10'000;
            sale.attributed = true;
            sale.reason = AttributionReason::Set;
            sale.interaction = 1;
            sale.interactionAt = kDay - 1;
            sale.interactionType = "add-to-cart";
            sales.push_back(sale);
            aside.push_back(QuarantinedLine{a.id, claim, text, 1, text, kMax, Cents::max(), "price x amount: " + text, kDay + line});
            ++line;
        }
        REQUIRE(ledger.book(a.id, sales, aside, kMax));
        LedgerEntry returned = sales[0];
        returned.kind = LedgerKind::Return;
        returned.amount = -1;
        returned.revenue = returned.commission = Cents(-kMaxOrderTotal.cents());
        returned.returnId = "r";
        returned.bookedAt = kDay + 100;
        REQUIRE(ledger.bookReturn(a.id, "r", {returned}).value());
        for (const auto& sale : sales) {
            CAPTURE(sale.orderId);
            auto stored = ledger.orderEntries(a.id, sale.orderId);
            REQUIRE_MESSAGE(stored, (stored ? "" : stored.error().message));
            REQUIRE_FALSE(stored->empty());
            const LedgerEntry& entry = stored->front();
            CHECK(entry.kind == LedgerKind::Sale);
            CHECK(entry.orderId == sale.orderId);
            CHECK(entry.sku == sale.sku);
            CHECK(entry.mainSku == sale.mainSku);
            CHECK(entry.setId == sale.setId);
            CHECK(entry.widget == sale.widget);
            CHECK(entry.testGroup == sale.testGroup);
            CHECK(entry.variant == sale.variant);
            CHECK(entry.price == kMaxOrderTotal);
            CHECK(entry.revenue == kMaxOrderTotal);
            CHECK(entry.commission == kMaxOrderTotal);
            CHECK(entry.rateBasisPoints == 10'000);
            CHECK(entry.attributed);
            CHECK(entry.reason == std::optional(AttributionReason::Set));
            CHECK(entry.interaction == 1);
            CHECK(entry.interactionAt == kDay - 1);
            CHECK(entry.interactionType == "add-to-cart");
            CHECK(entry.orderEvent == sale.orderEvent);
            CHECK(entry.bookedAt == sale.bookedAt);
        }
        auto returnedEntry = ledger.orderEntries(a.id, sales[0].orderId).value().back();
        CHECK(returnedEntry.kind == LedgerKind::Return);
        CHECK(returnedEntry.commission.cents() == -kMaxOrderTotal.cents());
        CHECK(returnedEntry.revenue.cents() == -kMaxOrderTotal.cents());

        auto [lines, total] = ledger.quarantined(a.id, 0, kMax, 2).value();
        CHECK(total == static_cast<int64_t>(aside.size()));
        REQUIRE(lines.size() == 2);  // at most `limit`, oldest first
        for (size_t i = 0; i < lines.size(); ++i) {
            CHECK(lines[i].orderId == aside[i].orderId);
            CHECK(lines[i].sku == aside[i].sku);
            CHECK(lines[i].amount == kMax);
            CHECK(lines[i].price == Cents::max());
            CHECK(lines[i].reason == aside[i].reason);
            CHECK(lines[i].at == aside[i].at);
        }
        CHECK(ledger.quarantined(a.id, kDay + 1, kDay + 3, 0).value().second == 2);  // [from, to)
    });
}

TEST_CASE("LedgerStore: interactions are the cid's clicks and add-to-carts before an order; widget events are counted per UTC day") {
    forEachBackend([](Backend& backend) {
        LedgerStore& ledger = backend.storage->ledger();
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A"), b = newTenant(storage, "B");
        widgetEvent(storage, a.id, WidgetEventType::Click, "cid", kDay - 1, "g1");
        widgetEvent(storage, a.id, WidgetEventType::View, "cid", kDay);
        widgetEvent(storage, a.id, WidgetEventType::AddToCart, "cid", kDay, "g1", WidgetType::Similar);
        widgetEvent(storage, a.id, WidgetEventType::Click, "other", kDay);
        widgetEvent(storage, b.id, WidgetEventType::Click, "cid", kDay);
        int64_t order = purchase(storage, a.id, "o-1", kDay + 10);
        widgetEvent(storage, a.id, WidgetEventType::Click, "cid", kDay + 86'399);
        widgetEvent(storage, a.id, WidgetEventType::Click, "cid", kDay + 86'400);

        auto found = ledger.interactions(a.id, "cid", order, 0).value();
        REQUIRE(found.size() == 2);
        CHECK(found[0].type == WidgetEventType::Click);
        CHECK(found[0].receivedAt == kDay - 1);
        CHECK(found[0].sku == "A-1");
        CHECK(found[0].setId == "set-1");
        CHECK(found[0].testGroup == "g1");
        CHECK(found[1].type == WidgetEventType::AddToCart);
        CHECK(found[1].widget == WidgetType::Similar);
        CHECK(found[0].sequence < found[1].sequence);
        CHECK(found[1].sequence < order);
        CHECK(ledger.interactions(a.id, "cid", order, kDay).value().size() == 1);
        CHECK(ledger.interactions(a.id, "cid", std::numeric_limits<int64_t>::max(), 0).value().size() == 4);

        auto counts = ledger.eventCounts(a.id, kDay, kDay + 86'400).value();
        std::vector<std::tuple<int64_t, std::string, std::string, int64_t, int64_t, int64_t>> seen;
        for (const auto& count : counts) seen.emplace_back(count.day, count.widget, count.testGroup, count.views, count.clicks, count.addToCarts);
        // The day's events (the purchase is none), grouped; the day before and the next are outside.
        CHECK(seen == decltype(seen){{kDay, "SET", "", 1, 2, 0}, {kDay, "SIMILAR", "g1", 0, 0, 1}});
        auto twoDays = ledger.eventCounts(a.id, kDay - 86'400, kDay + 2 * 86'400).value();
        REQUIRE(twoDays.size() == 4);
        CHECK(twoDays.front().day == kDay - 86'400);
        CHECK(twoDays.back().day == kDay + 86'400);
    });
}

}  // namespace svc::contract
