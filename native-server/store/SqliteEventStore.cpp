#include "store/SqliteEventStore.hpp"

#include <algorithm>
#include <limits>

#include "store/Migrations.hpp"

namespace svc {
namespace {

void bindText(SqliteStatement& statement, int index, const std::optional<std::string>& text) {
    if (text) statement.bind(index, *text);
    else statement.bindNull(index);
}

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
        "client_time, sid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    if (!insertEvent) return insertEvent.error();
    auto insertLine = (*writer)->prepare("INSERT INTO order_lines(event, line, sku, amount, price) VALUES (?, ?, ?, ?, ?)");
    if (!insertLine) return insertLine.error();
    auto checkpointer = WalCheckpointer::attach(path, **writer);
    if (!checkpointer) return checkpointer.error();
    std::unique_ptr<SqliteEventStore> store(
        new SqliteEventStore(std::move(*writer), std::move(*reader), std::move(*insertEvent), std::move(*insertLine)));
    store->checkpointer_ = std::move(*checkpointer);
    return store;
}

Result<std::vector<std::vector<AppendOutcome>>> SqliteEventStore::append(std::span<const EventAppend> requests, int64_t receivedAt) {
    std::lock_guard lock(writeMutex_);
    auto transaction = SqliteTransaction::begin(*writer_);
    if (!transaction) return transaction.error();
    SqliteStatement* insertEvent = &insertEvent_;
    SqliteStatement* insertLine = &insertLine_;
    // Statements outlive the transaction: reset them however it ends, so a failed step
    // never keeps the rollback waiting on a statement still in progress.
    struct ResetOnExit {
        SqliteStatement& first;
        SqliteStatement& second;
        ~ResetOnExit() {
            first.reset();
            second.reset();
        }
    } resetOnExit{insertEvent_, insertLine_};

    std::vector<std::vector<AppendOutcome>> outcomes;
    outcomes.reserve(requests.size());
    for (const EventAppend& request : requests) {
        auto& results = outcomes.emplace_back();
        results.reserve(request.events.size());
        for (const TrackingEvent& event : request.events) {
            insertEvent->reset();
            insertEvent->bind(1, request.tenantId).bind(3, receivedAt).bindNull(13);
            if (const auto* purchase = std::get_if<PurchaseEvent>(&event)) {
                insertEvent->bind(2, "purchase").bind(5, purchase->orderId);
                bindText(*insertEvent, 4, purchase->cid);
            } else {
                const auto& widget = std::get<WidgetEvent>(event);
                insertEvent->bind(2, widgetEventTypeName(widget.type)).bind(4, widget.cid);
                insertEvent->bind(6, widgetTypeName(widget.widget)).bind(7, touchpointName(widget.touchpoint));
                bindText(*insertEvent, 8, widget.sku);
                bindText(*insertEvent, 9, widget.setId);
                bindText(*insertEvent, 10, widget.testGroup);
                bindText(*insertEvent, 11, widget.variant);
                insertEvent->bind(12, widget.clientTimeMs);
                bindText(*insertEvent, 13, widget.sid);
            }
            if (auto status = insertEvent->run(); !status) return status.error();
            if (writer_->changes() == 0) {
                // Only the order uniqueness can make the insert do nothing.
                results.push_back(AppendOutcome::Duplicate);
                continue;
            }
            results.push_back(AppendOutcome::Stored);
            const auto* purchase = std::get_if<PurchaseEvent>(&event);
            if (!purchase) continue;
            int64_t sequence = writer_->lastInsertRowId();
            for (size_t i = 0; i < purchase->lines.size(); ++i) {
                const OrderLine& line = purchase->lines[i];
                insertLine->reset();
                insertLine->bind(1, sequence).bind(2, static_cast<int64_t>(i)).bind(3, line.sku);
                insertLine->bind(4, line.amount).bind(5, line.price);
                if (auto status = insertLine->run(); !status) return status.error();
            }
        }
    }
    if (auto status = transaction->commit(); !status) return status.error();
    return outcomes;
}

Result<std::vector<PurchaseOrder>> SqliteEventStore::purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) {
    std::lock_guard lock(readMutex_);
    // The orders first (LIMIT counts orders, not lines), then their lines.
    auto query = reader_->prepare(
        "SELECT e.sequence, e.order_id, e.received_at, l.sku, l.amount, l.price FROM "
        "(SELECT sequence, order_id, received_at FROM events WHERE tenant_id = ? AND order_id IS NOT NULL AND sequence > ? "
        "ORDER BY sequence LIMIT ?) e JOIN order_lines l ON l.event = e.sequence ORDER BY e.sequence, l.line");
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
