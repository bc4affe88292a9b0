#include "store/SqliteEventStore.hpp"

#include <algorithm>
#include <limits>

#include "store/ClaimKeys.hpp"
#include "store/Migrations.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {
namespace {

void bindText(SqliteStatement& statement, int index, const std::optional<std::string>& text) {
    if (text) statement.bind(index, *text);
    else statement.bindNull(index);
}

// Columns of insertEvent (1-based).
enum Column : int {
    kTenant = 1, kType, kReceivedAt, kCid, kOrderId, kWidget, kTouchpoint, kSku, kSetId, kTestGroup, kVariant, kClientTime, kSid,
    kShop, kClaimKey, kConflicting, kConfirmsClaim
};

}  // namespace

Result<std::unique_ptr<SqliteEventStore>> SqliteEventStore::open(const std::string& path) {
    auto writer = SqliteDatabase::open(path);
    if (!writer) return writer.error();
    // WAL with FULL syncs the log on every commit (NORMAL, the default of the other files,
    // may lose the last commits on power loss): the group commit pays one fsync per batch.
    if (auto status = (*writer)->execute("PRAGMA synchronous=FULL"); !status) return status.error();
    if (auto status = migrate(**writer, DatabaseKind::Events); !status) return status.error();
    auto reader = SqliteDatabase::open(path);
    if (!reader) return reader.error();
    if (auto status = (*reader)->execute("PRAGMA query_only=ON"); !status) return status.error();
    auto insertEvent = (*writer)->prepare(
        "INSERT INTO events(tenant_id, type, received_at, cid, order_id, widget, touchpoint, sku, set_id, test_group, variant, "
        "client_time, sid, shop, claim_key, conflicting, confirms_claim) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING");
    if (!insertEvent) return insertEvent.error();
    auto insertLine = (*writer)->prepare("INSERT INTO order_lines(event, line, sku, amount, price) VALUES (?, ?, ?, ?, ?)");
    if (!insertLine) return insertLine.error();
    auto claimsOfOrder =
        (*writer)->prepare("SELECT sequence, claim_key, shop FROM events WHERE tenant_id = ? AND order_id = ? ORDER BY sequence");
    if (!claimsOfOrder) return claimsOfOrder.error();
    auto checkpointer = WalCheckpointer::attach(path, **writer);
    if (!checkpointer) return checkpointer.error();
    std::unique_ptr<SqliteEventStore> store(new SqliteEventStore(
        std::move(*writer), std::move(*reader), Statements{std::move(*insertEvent), std::move(*insertLine), std::move(*claimsOfOrder)}));
    store->checkpointer_ = std::move(*checkpointer);
    return store;
}

Result<OrderClaim> SqliteEventStore::loadClaim(int64_t sequence) {
    auto query = writer_->prepare(
        "SELECT e.tenant_id, e.order_id, e.cid, e.received_at, e.shop, e.confirms_claim, l.sku, l.amount, l.price FROM events e "
        "LEFT JOIN order_lines l ON l.event = e.sequence WHERE e.sequence = ? AND e.order_id IS NOT NULL ORDER BY l.line");
    if (!query) return query.error();
    query->bind(1, sequence);
    std::optional<OrderClaim> claim;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        if (!claim) {
            claim.emplace();
            claim->tenantId = query->integer(0);
            claim->sequence = sequence;
            claim->orderId = query->text(1);
            if (!query->isNull(2)) claim->cid = query->text(2);
            claim->receivedAt = query->integer(3);
            claim->source = query->isNull(4) ? ClaimSource::Browser : parseClaimSource(query->text(4)).value_or(ClaimSource::ShopConfirmed);
            if (!query->isNull(5)) claim->confirmsClaim = query->integer(5);
        }
        if (!query->isNull(6)) claim->lines.push_back({query->text(6), query->integer(7), query->integer(8)});
    }
    if (!claim) return Error::notFound("claim " + std::to_string(sequence) + ": no such claim");
    return *claim;
}

Result<SqliteEventStore::Classification> SqliteEventStore::classify(int64_t tenantId, const PurchaseEvent& purchase, const std::string& key) {
    struct Earlier {
        int64_t sequence;
        std::optional<std::string> key;
    };
    std::vector<Earlier> browser;
    std::optional<int64_t> shopWord;
    bool rejected = false;
    {
        SqliteStatement& query = statements_.claimsOfOrder;
        query.reset();
        query.bind(1, tenantId).bind(2, purchase.orderId);
        while (true) {
            auto row = query.step();
            if (!row) return row.error();
            if (!*row) break;
            if (query.isNull(2)) {
                browser.push_back({query.integer(0), query.isNull(1) ? std::nullopt : std::optional(query.text(1))});
            } else {
                shopWord = query.integer(0);
                rejected = query.text(2) == claimSourceName(ClaimSource::ShopRejected);
            }
        }
        query.reset();
    }
    for (const auto& earlier : browser) {
        if (earlier.key == key) return Classification{AppendOutcome::Duplicate};
        if (earlier.key) continue;
        // Stored before claims had keys (events migration 3): compare what it says.
        auto old = loadClaim(earlier.sequence);
        if (!old) return old.error();
        if (ClaimKeys::browser(old->cid, old->lines) == key) return Classification{AppendOutcome::Duplicate};
    }
    if (browser.size() >= kMaxBrowserClaimsPerOrder) return Classification{AppendOutcome::TooManyClaims};
    if (!browser.empty()) return Classification{AppendOutcome::Conflict, true};
    if (!shopWord) return Classification{AppendOutcome::Stored};
    if (rejected) return Classification{AppendOutcome::Conflict};
    auto word = loadClaim(*shopWord);
    if (!word) return word.error();
    OrderClaim mine;
    mine.source = ClaimSource::Browser;
    mine.cid = purchase.cid;
    mine.lines = purchase.lines;
    return Classification{confirmationAgrees(*word, mine) ? AppendOutcome::Stored : AppendOutcome::Conflict};
}

Status SqliteEventStore::insertLines(int64_t sequence, const std::vector<OrderLine>& lines) {
    SqliteStatement& insertLine = statements_.insertLine;
    for (size_t i = 0; i < lines.size(); ++i) {
        const OrderLine& line = lines[i];
        insertLine.reset();
        insertLine.bind(1, sequence).bind(2, static_cast<int64_t>(i)).bind(3, line.sku);
        insertLine.bind(4, line.amount).bind(5, line.price.cents());
        if (auto status = insertLine.run(); !status) return status;
    }
    return {};
}

Result<std::vector<std::vector<AppendOutcome>>> SqliteEventStore::append(std::span<const EventAppend> requests, int64_t receivedAt) {
    std::lock_guard lock(writeMutex_);
    auto transaction = SqliteTransaction::begin(*writer_);
    if (!transaction) return transaction.error();
    // Statements outlive the transaction: reset them however it ends, so a failed step
    // never keeps the rollback waiting on a statement still in progress.
    struct ResetOnExit {
        Statements& statements;
        ~ResetOnExit() {
            statements.insertEvent.reset();
            statements.insertLine.reset();
            statements.claimsOfOrder.reset();
        }
    } resetOnExit{statements_};
    SqliteStatement& insertEvent = statements_.insertEvent;

    std::vector<std::vector<AppendOutcome>> outcomes;
    outcomes.reserve(requests.size());
    for (const EventAppend& request : requests) {
        auto& results = outcomes.emplace_back();
        results.reserve(request.events.size());
        // A request is all or nothing, also when one of its purchases is refused: a savepoint
        // of its own (only requests with a purchase can be refused).
        bool withPurchase = std::any_of(request.events.begin(), request.events.end(),
                                        [](const TrackingEvent& event) { return std::holds_alternative<PurchaseEvent>(event); });
        if (withPurchase) {
            if (auto status = writer_->execute("SAVEPOINT request"); !status) return status.error();
        }
        std::optional<size_t> refused;
        for (const TrackingEvent& event : request.events) {
            insertEvent.reset();
            insertEvent.bind(kTenant, request.tenantId).bind(kReceivedAt, receivedAt).bind(kConflicting, int64_t{0});
            AppendOutcome outcome = AppendOutcome::Stored;
            if (const auto* purchase = std::get_if<PurchaseEvent>(&event)) {
                std::string key = ClaimKeys::browser(purchase->cid, purchase->lines);
                auto classified = classify(request.tenantId, *purchase, key);
                if (!classified) return classified.error();
                outcome = classified->outcome;
                if (outcome == AppendOutcome::Duplicate) {
                    results.push_back(outcome);
                    continue;
                }
                if (outcome == AppendOutcome::TooManyClaims) {
                    refused = results.size();
                    break;
                }
                insertEvent.bind(kType, "purchase").bind(kOrderId, purchase->orderId).bind(kClaimKey, key);
                bindText(insertEvent, kCid, purchase->cid);
                // Only a claim differing from an earlier browser claim is marked: the engine
                // learns from each order's first browser version.
                insertEvent.bind(kConflicting, int64_t{classified->laterVersion ? 1 : 0});
            } else {
                const auto& widget = std::get<WidgetEvent>(event);
                insertEvent.bind(kType, widgetEventTypeName(widget.type)).bind(kCid, widget.cid);
                insertEvent.bind(kWidget, widgetTypeName(widget.widget)).bind(kTouchpoint, touchpointName(widget.touchpoint));
                bindText(insertEvent, kSku, widget.sku);
                bindText(insertEvent, kSetId, widget.setId);
                bindText(insertEvent, kTestGroup, widget.testGroup);
                bindText(insertEvent, kVariant, widget.variant);
                insertEvent.bind(kClientTime, widget.clientTimeMs);
                bindText(insertEvent, kSid, widget.sid);
            }
            if (auto status = insertEvent.run(); !status) return status.error();
            if (writer_->changes() == 0) {
                // Only a browser claim's uniqueness can make the insert do nothing.
                results.push_back(AppendOutcome::Duplicate);
                continue;
            }
            results.push_back(outcome);
            const auto* purchase = std::get_if<PurchaseEvent>(&event);
            if (!purchase) continue;
            if (auto status = insertLines(writer_->lastInsertRowId(), purchase->lines); !status) return status.error();
        }
        if (refused) {
            statements_.insertEvent.reset();
            statements_.insertLine.reset();
            if (auto status = writer_->execute("ROLLBACK TO request; RELEASE request"); !status) return status.error();
            results.assign(request.events.size(), AppendOutcome::NotStored);
            results[*refused] = AppendOutcome::TooManyClaims;
        } else if (withPurchase) {
            if (auto status = writer_->execute("RELEASE request"); !status) return status.error();
        }
    }
    if (auto status = transaction->commit(); !status) return status.error();
    return outcomes;
}

Result<ShopWordOutcome> SqliteEventStore::recordShopWord(int64_t tenantId, const std::string& orderId, const OrderConfirmation& given,
                                                         int64_t receivedAt) {
    std::lock_guard lock(writeMutex_);
    auto transaction = SqliteTransaction::begin(*writer_);
    if (!transaction) return transaction.error();
    struct ResetOnExit {
        Statements& statements;
        ~ResetOnExit() {
            statements.insertEvent.reset();
            statements.insertLine.reset();
        }
    } resetOnExit{statements_};
    OrderConfirmation word = given;
    if (word.claim) {
        // "This version is the true one": the named browser claim's lines and visitor.
        auto claim = loadClaim(*word.claim);
        if (!claim || claim->tenantId != tenantId || claim->orderId != orderId || claim->isShop()) {
            return Error::notFound("claim: order '" + orderId + "' has no browser claim " + std::to_string(*word.claim));
        }
        word.lines = claim->lines;
        word.cid = claim->cid;
    }
    std::string key = ClaimKeys::shopWord(word);
    {
        auto latest = writer_->prepare(
            "SELECT sequence, claim_key FROM events WHERE tenant_id = ? AND order_id = ? AND shop IS NOT NULL ORDER BY sequence DESC LIMIT 1");
        if (!latest) return latest.error();
        latest->bind(1, tenantId).bind(2, orderId);
        auto row = latest->step();
        if (!row) return row.error();
        if (*row && latest->text(1) == key) return ShopWordOutcome{latest->integer(0), false};
    }
    SqliteStatement& insertEvent = statements_.insertEvent;
    insertEvent.reset();
    insertEvent.bind(kTenant, tenantId).bind(kType, "purchase").bind(kReceivedAt, receivedAt).bind(kOrderId, orderId);
    bindText(insertEvent, kCid, word.cid);
    insertEvent.bind(kShop, claimSourceName(word.source)).bind(kClaimKey, key).bind(kConflicting, int64_t{0});
    insertEvent.bind(kConfirmsClaim, word.claim);
    if (auto status = insertEvent.run(); !status) return status.error();
    int64_t sequence = writer_->lastInsertRowId();
    if (auto status = insertLines(sequence, word.lines); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    return ShopWordOutcome{sequence, true};
}

// One process, one file: SQLite has no day partitions to drop, and its reports count views and
// clicks from these very rows (SqliteLedgerStore::eventCounts), so a DELETE here would rewrite
// past reports. Its retention stays what it was: none (docs/adr/0092).
Result<size_t> SqliteEventStore::dropExpiredInteractions(int64_t) { return size_t{0}; }

Result<std::vector<PurchaseOrder>> SqliteEventStore::purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) {
    std::lock_guard lock(readMutex_);
    // The orders first (LIMIT counts orders, not lines), then their lines.
    auto query = reader_->prepare(
        "SELECT e.sequence, e.order_id, e.received_at, l.sku, l.amount, l.price FROM "
        "(SELECT sequence, order_id, received_at FROM events WHERE tenant_id = ? AND order_id IS NOT NULL AND sequence > ? "
        "AND shop IS NULL AND conflicting = 0 ORDER BY sequence LIMIT ?) e JOIN order_lines l ON l.event = e.sequence "
        "ORDER BY e.sequence, l.line");
    if (!query) return query.error();
    auto boundedLimit = static_cast<int64_t>(std::min<size_t>(limit, static_cast<size_t>(std::numeric_limits<int64_t>::max())));
    query->bind(1, tenantId).bind(2, afterSequence).bind(3, boundedLimit);
    std::vector<PurchaseOrder> orders;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        int64_t sequence = query->integer(0);
        if (orders.empty() || orders.back().sequence != sequence) {
            PurchaseOrder& order = orders.emplace_back();
            order.sequence = sequence;
            order.orderId = query->text(1);
            order.receivedAt = query->integer(2);
        }
        orders.back().lines.push_back({query->text(3), query->integer(4), query->integer(5)});
    }
    return orders;
}

}  // namespace svc
