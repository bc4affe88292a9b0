// PostgreSQL's event storage beyond the EventStore and LedgerStore contracts (docs/adr/0089):
// sequence cursors that skip nothing when transactions commit out of sequence order, views as
// daily counters, and retention by whole partitions.
#include "StoreBackends.hpp"

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "store/PgEventStore.hpp"

namespace svc::contract {
namespace {

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it)";
constexpr int64_t kDay = 1'750'032'000;  // a UTC midnight (2025-06-16)

struct PostgresStorage {
    TestClock clock;
    std::unique_ptr<PostgresSchema> schema;
    std::unique_ptr<PgStorage> storage;

    PostgresStorage() {
        auto url = postgresUrl();
        if (!url) throw std::runtime_error("no PostgreSQL: " + svc::test::ThrowawayPostgres::shared().error());
        schema = std::make_unique<PostgresSchema>(*url);
        auto opened = PgStorage::open(schema->url(), clock);
        if (!opened) throw std::runtime_error(opened.error().message);
        storage = std::move(*opened);
    }
    ~PostgresStorage() { storage.reset(); }
};

std::vector<std::string> orderIds(const std::vector<PurchaseOrder>& orders) {
    std::vector<std::string> ids;
    for (const auto& order : orders) ids.push_back(order.orderId);
    return ids;
}

std::vector<std::string> claimOrderIds(const std::vector<OrderClaim>& claims) {
    std::vector<std::string> ids;
    for (const auto& claim : claims) ids.push_back(claim.orderId);
    return ids;
}

void run(PgConnection& connection, const char* purpose, const char* sql, std::initializer_list<PgParam> params = {}) {
    auto done = connection.execute(purpose, sql, params);
    REQUIRE_MESSAGE(done, (done ? "" : done.error().message));
}

Status appendWidgetEvents(EventStore& events, int64_t tenantId, WidgetEventType type, int count, int64_t receivedAt) {
    WidgetEvent event;
    event.type = type;
    event.cid = "visitor";
    event.sku = "A-1";
    std::vector<TrackingEvent> batch(static_cast<size_t>(count), event);
    EventAppend append{tenantId, batch};
    auto appended = events.append(std::span<const EventAppend>(&append, 1), receivedAt);
    if (!appended) return appended.error();
    return Status::success();
}

}  // namespace

// T1 takes its sequence value and waits; T2 (the store's append, on another connection) stores
// a purchase; a reader reads from its cursor; T1 commits; the reader reads on from its cursor.
// With the ordering lock T2 waits for T1, so no later commit ever holds a lower sequence and
// the reader gets T1's purchase. Without it (the second row: T1 takes no lock) T2 commits the
// higher sequence first, the reader's cursor passes T1's, and T1's purchase is never read: the
// loss the lock prevents, shown on the same interleaving so the test cannot pass vacuously.
TEST_CASE("EventStore: on PostgreSQL a purchase committed after a higher sequence is still read from the cursor" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    struct Case {
        const char* name;
        bool t1TakesTheLock;
        bool t1Read;  // T1's purchase is read from the cursors
    };
    for (const Case& scenario : {Case{"the store's ordering lock", true, true}, Case{"a plain sequence cursor without it", false, false}}) {
        std::string scenarioName = scenario.name;
        CAPTURE(scenarioName);
        PostgresStorage backend;
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A");
        auto t1 = PgConnection::open(backend.schema->url());
        REQUIRE(t1);
        PgConnection& first = **t1;

        run(first, "T1: begin", "BEGIN");
        if (scenario.t1TakesTheLock) REQUIRE(PgEventStore::lockTenants(first, {a.id}));
        auto sequence = PgEventStore::takeSequences(first, 1);
        REQUIRE(sequence);
        int64_t t1Sequence = sequence->front();
        // The rows the store writes for one browser purchase.
        run(first, "T1: order", "INSERT INTO orders(tenant_id, order_id, purchase, received_at) VALUES ($1, 't1', $2, 100)", {a.id, t1Sequence});
        run(first, "T1: claim", "INSERT INTO order_claims(tenant_id, sequence, order_id, cid, received_at, claim_key) VALUES ($1, $2, 't1', 'c', 100, 'k')",
            {a.id, t1Sequence});
        run(first, "T1: line", "INSERT INTO order_lines(tenant_id, claim, line, sku, amount, price) VALUES ($1, $2, 0, 'A-1', 1, 1999)", {a.id, t1Sequence});

        std::atomic<bool> t2Done{false};
        std::string t2Error;
        std::thread t2([&] {
            std::vector<TrackingEvent> purchase{PurchaseEvent{"t2", std::string("c"), {{"B-1", 1, 500}}}};
            EventAppend append{a.id, purchase};
            auto appended = storage.events().append(std::span<const EventAppend>(&append, 1), 101);
            if (!appended) t2Error = appended.error().message;
            t2Done = true;
        });
        for (int waited = 0; waited < 50 && !t2Done; ++waited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        // With the lock T2 waits for T1 (the same tenant); without it T2 has committed.
        CHECK(t2Done.load() == !scenario.t1TakesTheLock);

        // The readers: the engine's purchase cursor, and the attributor's booking cursor.
        std::vector<std::string> purchasesRead, claimsRead;
        int64_t purchaseCursor = 0;
        auto readOn = [&] {
            auto page = storage.events().purchasesSince(a.id, purchaseCursor, 100);
            REQUIRE_MESSAGE(page, (page ? "" : page.error().message));
            for (const auto& order : *page) {
                purchasesRead.push_back(order.orderId);
                purchaseCursor = order.sequence;
            }
            auto claims = storage.ledger().claimsToBook(a.id, 100);
            REQUIRE_MESSAGE(claims, (claims ? "" : claims.error().message));
            for (const auto& claim : *claims) claimsRead.push_back(claim.orderId);
            if (!claims->empty()) REQUIRE(storage.ledger().book(a.id, {}, {}, claims->back().sequence));
        };
        readOn();
        run(first, "T1: commit", "COMMIT");
        t2.join();
        CHECK(t2Error == "");
        readOn();
        readOn();

        bool t1Read = std::count(purchasesRead.begin(), purchasesRead.end(), "t1") == 1;
        CHECK(t1Read == scenario.t1Read);
        CHECK((std::count(claimsRead.begin(), claimsRead.end(), "t1") == 1) == scenario.t1Read);
        CHECK(std::count(purchasesRead.begin(), purchasesRead.end(), "t2") == 1);
        if (scenario.t1Read) {
            CHECK(purchasesRead == std::vector<std::string>{"t1", "t2"});
            CHECK(claimsRead == std::vector<std::string>{"t1", "t2"});
        }
        // Both were stored: a fresh read from 0 finds them, whatever the cursors missed.
        auto all = storage.events().purchasesSince(a.id, 0, 100).value();
        CHECK(orderIds(all).size() == 2);
        CHECK(claimOrderIds(storage.ledger().orderClaims(a.id, "t1", std::numeric_limits<int64_t>::max()).value()) ==
              std::vector<std::string>{"t1"});
    }
}

TEST_CASE("EventStore: on PostgreSQL views are one counter row per tenant, day and group, not a row each" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    PostgresStorage backend;
    Storage& storage = *backend.storage;
    Tenant a = newTenant(storage, "A");
    for (int batch = 0; batch < 5; ++batch) REQUIRE(appendWidgetEvents(storage.events(), a.id, WidgetEventType::View, 200, kDay + batch));
    REQUIRE(appendWidgetEvents(storage.events(), a.id, WidgetEventType::Click, 3, kDay + 10));
    auto connection = PgConnection::open(backend.schema->url());
    REQUIRE(connection);
    auto counters = (*connection)->execute("read counters", "SELECT count(*), sum(views), sum(clicks) FROM event_counts WHERE tenant_id = $1", {a.id});
    REQUIRE(counters);
    CHECK(counters->integer(0, 0) == 1);
    CHECK(counters->integer(0, 1) == 1000);
    CHECK(counters->integer(0, 2) == 3);
    // Only what attribution reads is kept row by row.
    auto rows = (*connection)->execute("read interactions", "SELECT count(*) FROM interactions WHERE tenant_id = $1", {a.id});
    REQUIRE(rows);
    CHECK(rows->integer(0, 0) == 3);
    auto counts = storage.ledger().eventCounts(a.id, kDay, kDay + 86'400).value();
    REQUIRE(counts.size() == 1);
    CHECK(counts[0].views == 1000);
    CHECK(counts[0].clicks == 3);
}

TEST_CASE("EventStore: on PostgreSQL retention drops whole daily partitions past the longest attribution window" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    PostgresStorage backend;
    Storage& storage = *backend.storage;
    Tenant a = newTenant(storage, "A");  // the default window: 30 days
    int64_t later = kDay + 40 * 86'400;
    REQUIRE(appendWidgetEvents(storage.events(), a.id, WidgetEventType::Click, 2, kDay + 5));
    REQUIRE(appendWidgetEvents(storage.events(), a.id, WidgetEventType::Click, 1, later + 5));
    auto& events = static_cast<PgEventStore&>(storage.events());
    auto cutoff = events.retentionCutoff(later + 100);
    REQUIRE(cutoff);
    CHECK(*cutoff == later - 31 * 86'400);
    auto dropped = events.dropInteractionsBefore(*cutoff);
    REQUIRE_MESSAGE(dropped, (dropped ? "" : dropped.error().message));
    // kDay's partition and the two made ahead with it; the later days' stay.
    CHECK(*dropped == std::vector<std::string>{"interactions_20250616", "interactions_20250617", "interactions_20250618"});
    auto left = storage.ledger().interactions(a.id, "visitor", std::numeric_limits<int64_t>::max(), 0).value();
    REQUIRE(left.size() == 1);
    CHECK(left[0].receivedAt == later + 5);
    // The daily counters are kept: reports over old days still count.
    CHECK(storage.ledger().eventCounts(a.id, kDay, kDay + 86'400).value().at(0).clicks == 2);
    CHECK(events.dropInteractionsBefore(*cutoff).value().empty());
    // A partition that ends after the cutoff stays, even when the cutoff falls on its first second.
    CHECK(events.dropInteractionsBefore(later).value().empty());
    REQUIRE(appendWidgetEvents(storage.events(), a.id, WidgetEventType::Click, 1, later + 86'400));
    CHECK(storage.ledger().interactions(a.id, "visitor", std::numeric_limits<int64_t>::max(), 0).value().size() == 2);
}

}  // namespace svc::contract
