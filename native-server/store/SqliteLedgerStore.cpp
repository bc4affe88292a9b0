#include "store/SqliteLedgerStore.hpp"

#include <limits>

namespace svc {
namespace {

constexpr const char* kEntryColumns =
    "kind, tenant_id, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission, rate_bp, attributed, reason, "
    "interaction, interaction_type, widget, touchpoint, set_id, test_group, variant, interaction_at, ordered_at, booked_at, return_id";

void bindOptionalText(SqliteStatement& statement, int index, const std::string& text) {
    if (text.empty()) statement.bindNull(index);
    else statement.bind(index, text);
}

LedgerEntry readEntry(const SqliteStatement& row) {
    LedgerEntry entry;
    entry.kind = row.text(0) == "return" ? LedgerKind::Return : LedgerKind::Sale;
    entry.tenantId = row.integer(1);
    entry.orderEvent = row.integer(2);
    entry.orderId = row.text(3);
    entry.line = row.integer(4);
    entry.sku = row.text(5);
    entry.mainSku = row.text(6);
    entry.amount = row.integer(7);
    entry.price = row.integer(8);
    entry.revenue = row.integer(9);
    entry.commission = row.integer(10);
    entry.rateBasisPoints = row.integer(11);
    entry.attributed = row.integer(12) != 0;
    if (!row.isNull(13)) {
        std::string reason = row.text(13);
        entry.reason = reason == "set" ? AttributionReason::Set : reason == "main-sku" ? AttributionReason::MainSku : AttributionReason::Sku;
    }
    entry.interaction = row.isNull(14) ? 0 : row.integer(14);
    entry.interactionType = row.text(15);
    entry.widget = row.text(16);
    entry.touchpoint = row.text(17);
    entry.setId = row.text(18);
    entry.testGroup = row.text(19);
    entry.variant = row.text(20);
    entry.interactionAt = row.isNull(21) ? 0 : row.integer(21);
    entry.orderedAt = row.integer(22);
    entry.bookedAt = row.integer(23);
    entry.returnId = row.text(24);
    return entry;
}

}  // namespace

Result<std::unique_ptr<SqliteLedgerStore>> SqliteLedgerStore::open(const std::string& path) {
    auto db = SqliteDatabase::open(path);
    if (!db) return db.error();
    // Ledger entries are money: synced like the events they come from.
    if (auto status = (*db)->execute("PRAGMA synchronous=FULL"); !status) return status.error();
    return std::unique_ptr<SqliteLedgerStore>(new SqliteLedgerStore(std::move(*db)));
}

Result<std::vector<PurchaseToAttribute>> SqliteLedgerStore::purchasesToAttribute(size_t limit) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT e.tenant_id, e.sequence, e.order_id, e.cid, e.received_at, l.sku, l.amount, l.price FROM "
        "(SELECT tenant_id, sequence, order_id, cid, received_at FROM events WHERE order_id IS NOT NULL "
        "AND sequence > (SELECT sequence FROM attribution_cursor WHERE id = 1) ORDER BY sequence LIMIT ?) e "
        "JOIN order_lines l ON l.event = e.sequence ORDER BY e.sequence, l.line");
    if (!query) return query.error();
    query->bind(1, static_cast<int64_t>(std::min<size_t>(limit, std::numeric_limits<int32_t>::max())));
    std::vector<PurchaseToAttribute> purchases;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        int64_t sequence = query->integer(1);
        if (purchases.empty() || purchases.back().sequence != sequence) {
            auto& purchase = purchases.emplace_back();
            purchase.tenantId = query->integer(0);
            purchase.sequence = sequence;
            purchase.orderId = query->text(2);
            purchase.cid = query->text(3);
            purchase.receivedAt = query->integer(4);
        }
        purchases.back().lines.push_back({query->text(5), query->integer(6), query->integer(7)});
    }
    return purchases;
}

Result<std::vector<Interaction>> SqliteLedgerStore::interactions(int64_t tenantId, const std::string& cid, int64_t beforeSequence,
                                                                 int64_t since) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT sequence, received_at, type, sku, set_id, widget, touchpoint, test_group, variant FROM events "
        "WHERE tenant_id = ? AND cid = ? AND type IN ('click', 'add-to-cart') AND sequence < ? AND received_at >= ? ORDER BY sequence");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, cid).bind(3, beforeSequence).bind(4, since);
    std::vector<Interaction> found;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        Interaction interaction;
        interaction.sequence = query->integer(0);
        interaction.receivedAt = query->integer(1);
        interaction.type = parseWidgetEventType(query->text(2)).value_or(WidgetEventType::Click);
        interaction.sku = query->text(3);
        interaction.setId = query->text(4);
        interaction.widget = parseWidgetType(query->text(5)).value_or(WidgetType::Set);
        interaction.touchpoint = parseTouchpoint(query->text(6)).value_or(Touchpoint::Product);
        interaction.testGroup = query->text(7);
        interaction.variant = query->text(8);
        found.push_back(std::move(interaction));
    }
    return found;
}

Status SqliteLedgerStore::insertEntries(const std::vector<LedgerEntry>& entries) {
    auto insert = db_->prepare(std::string("INSERT INTO ledger(") + kEntryColumns +
                               ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    if (!insert) return insert.error();
    for (const auto& entry : entries) {
        insert->reset();
        insert->bind(1, entry.kind == LedgerKind::Return ? "return" : "sale").bind(2, entry.tenantId).bind(3, entry.orderEvent);
        insert->bind(4, entry.orderId).bind(5, entry.line).bind(6, entry.sku).bind(7, entry.mainSku).bind(8, entry.amount);
        insert->bind(9, entry.price).bind(10, entry.revenue).bind(11, entry.commission).bind(12, entry.rateBasisPoints);
        insert->bind(13, int64_t{entry.attributed ? 1 : 0});
        if (entry.reason) insert->bind(14, attributionReasonName(*entry.reason));
        else insert->bindNull(14);
        if (entry.attributed) insert->bind(15, entry.interaction).bind(22, entry.interactionAt);
        else insert->bindNull(15).bindNull(22);
        bindOptionalText(*insert, 16, entry.interactionType);
        bindOptionalText(*insert, 17, entry.widget);
        bindOptionalText(*insert, 18, entry.touchpoint);
        bindOptionalText(*insert, 19, entry.setId);
        bindOptionalText(*insert, 20, entry.testGroup);
        bindOptionalText(*insert, 21, entry.variant);
        insert->bind(23, entry.orderedAt).bind(24, entry.bookedAt);
        bindOptionalText(*insert, 25, entry.returnId);
        if (auto status = insert->run(); !status) return status;
    }
    return {};
}

Status SqliteLedgerStore::bookSales(const std::vector<LedgerEntry>& entries, int64_t throughSequence) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    if (auto status = insertEntries(entries); !status) return status;
    auto cursor = db_->prepare("UPDATE attribution_cursor SET sequence = max(sequence, ?) WHERE id = 1");
    if (!cursor) return cursor.error();
    cursor->bind(1, throughSequence);
    if (auto status = cursor->run(); !status) return status;
    return transaction->commit();
}

Result<std::vector<LedgerEntry>> SqliteLedgerStore::selectEntries(const std::string& where, int64_t tenantId, const std::string& text,
                                                                  int64_t from, int64_t to) {
    auto query = db_->prepare(std::string("SELECT ") + kEntryColumns + " FROM ledger WHERE tenant_id = ? AND " + where + " ORDER BY entry");
    if (!query) return query.error();
    query->bind(1, tenantId);
    if (!text.empty()) query->bind(2, text);
    else query->bind(2, from).bind(3, to);
    std::vector<LedgerEntry> found;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        found.push_back(readEntry(*query));
    }
    return found;
}

Result<std::vector<LedgerEntry>> SqliteLedgerStore::orderEntries(int64_t tenantId, const std::string& orderId) {
    std::lock_guard lock(mutex_);
    return selectEntries("order_id = ?", tenantId, orderId, 0, 0);
}

Result<bool> SqliteLedgerStore::orderExists(int64_t tenantId, const std::string& orderId) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT 1 FROM events WHERE tenant_id = ? AND order_id = ?");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, orderId);
    return query->step();
}

Result<bool> SqliteLedgerStore::bookReturn(int64_t tenantId, const std::string& returnId, const std::vector<LedgerEntry>& entries) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    auto seen = db_->prepare("SELECT 1 FROM ledger WHERE tenant_id = ? AND kind = 'return' AND return_id = ?");
    if (!seen) return seen.error();
    seen->bind(1, tenantId).bind(2, returnId);
    auto before = seen->step();
    if (!before) return before.error();
    if (*before) return false;
    if (auto status = insertEntries(entries); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    return true;
}

Result<std::vector<LedgerEntry>> SqliteLedgerStore::entries(int64_t tenantId, int64_t from, int64_t to) {
    std::lock_guard lock(mutex_);
    return selectEntries("booked_at >= ? AND booked_at < ?", tenantId, "", from, to);
}

Result<std::vector<EventCount>> SqliteLedgerStore::eventCounts(int64_t tenantId, int64_t from, int64_t to) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT received_at - received_at % 86400, coalesce(widget, ''), coalesce(touchpoint, ''), coalesce(test_group, ''), "
        "coalesce(variant, ''), sum(type = 'view'), sum(type = 'click'), sum(type = 'add-to-cart') FROM events "
        "WHERE tenant_id = ? AND order_id IS NULL AND received_at >= ? AND received_at < ? GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, from).bind(3, to);
    std::vector<EventCount> counts;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        counts.push_back({query->text(1), query->text(2), query->text(3), query->text(4), query->integer(5), query->integer(6),
                          query->integer(7), query->integer(0)});
    }
    return counts;
}

Result<int64_t> SqliteLedgerStore::pendingPurchases() {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT count(*) FROM events WHERE order_id IS NOT NULL AND sequence > (SELECT sequence FROM attribution_cursor WHERE id = 1)");
    if (!query) return query.error();
    auto row = query->step();
    if (!row) return row.error();
    return query->integer(0);
}

}  // namespace svc
