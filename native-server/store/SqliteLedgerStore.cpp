#include "store/SqliteLedgerStore.hpp"
#include "store/TenantsWithPurchases.hpp"

#include <limits>

namespace svc {
namespace {

constexpr const char* kEntryColumns =
    "kind, tenant_id, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission, rate_bp, attributed, reason, "
    "interaction, interaction_type, widget, touchpoint, set_id, test_group, variant, interaction_at, ordered_at, booked_at, return_id, "
    "claim_source, claim_status";

// Whether an entry's order came without a visitor: no claim on its order id, browser or shop,
// names a cid (docs/adr/0083). Read from the claims in the same file at each read, so the
// ledger needs no column of its own and a later claim that brings the visitor counts at once.
constexpr const char* kWithoutConsent =
    "NOT EXISTS (SELECT 1 FROM events claim WHERE claim.tenant_id = ledger.tenant_id AND claim.order_id = ledger.order_id "
    "AND claim.cid IS NOT NULL)";

// The tenant's booking cursor: claims up to it are booked (no row: nothing booked yet).
constexpr const char* kCursorOf = "coalesce((SELECT sequence FROM attribution_cursors WHERE tenant_id = ?), 0)";

// Claims with their lines, by sequence: SELECT e.tenant_id, e.sequence, e.order_id, e.cid,
// e.received_at, e.shop, e.confirms_claim, l.sku, l.amount, l.price.
constexpr const char* kClaimColumns =
    "e.tenant_id, e.sequence, e.order_id, e.cid, e.received_at, e.shop, e.confirms_claim, l.sku, l.amount, l.price";

void bindOptionalText(SqliteStatement& statement, int index, const std::string& text) {
    if (text.empty()) statement.bindNull(index);
    else statement.bind(index, text);
}

LedgerEntry readEntry(const SqliteStatement& row) {
    LedgerEntry entry;
    std::string kind = row.text(0);
    entry.kind = kind == "return" ? LedgerKind::Return : kind == "reversal" ? LedgerKind::Reversal : LedgerKind::Sale;
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
    entry.claimSource = parseClaimSource(row.text(25)).value_or(ClaimSource::Browser);
    entry.claimStatus = parseClaimStatus(row.text(26)).value_or(ClaimStatus::Claimed);
    entry.withoutConsent = row.integer(27) != 0;
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

Result<std::vector<OrderClaim>> SqliteLedgerStore::readClaims(SqliteStatement& query) {
    std::vector<OrderClaim> claims;
    while (true) {
        auto row = query.step();
        if (!row) return row.error();
        if (!*row) break;
        int64_t sequence = query.integer(1);
        if (claims.empty() || claims.back().sequence != sequence) {
            auto& claim = claims.emplace_back();
            claim.tenantId = query.integer(0);
            claim.sequence = sequence;
            claim.orderId = query.text(2);
            if (!query.isNull(3)) claim.cid = query.text(3);
            claim.receivedAt = query.integer(4);
            claim.source = query.isNull(5) ? ClaimSource::Browser : parseClaimSource(query.text(5)).value_or(ClaimSource::ShopConfirmed);
            if (!query.isNull(6)) claim.confirmsClaim = query.integer(6);
        }
        // A rejection has no lines (the LEFT JOIN's NULLs).
        if (!query.isNull(7)) claims.back().lines.push_back({query.text(7), query.integer(8), query.integer(9)});
    }
    return claims;
}

Result<std::vector<int64_t>> SqliteLedgerStore::tenantsWithPendingClaims() {
    std::lock_guard lock(mutex_);
    // Whether each tenant with purchases has any beyond its cursor.
    auto pending = db_->prepare(std::string("SELECT EXISTS (SELECT 1 FROM events WHERE tenant_id = ? AND order_id IS NOT NULL AND sequence > ") +
                                kCursorOf + ")");
    if (!pending) return pending.error();
    std::vector<int64_t> tenants;
    auto walked = forEachTenantWithPurchases(*db_, [&](int64_t tenantId) -> Status {
        pending->reset();
        pending->bind(1, tenantId).bind(2, tenantId);
        auto exists = pending->step();
        if (!exists) return exists.error();
        if (pending->integer(0) != 0) tenants.push_back(tenantId);
        return {};
    });
    if (!walked) return walked.error();
    return tenants;
}

Result<std::vector<OrderClaim>> SqliteLedgerStore::claimsToBook(int64_t tenantId, size_t limit) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(std::string("SELECT ") + kClaimColumns +
                              " FROM (SELECT * FROM events WHERE tenant_id = ? AND order_id IS NOT NULL AND sequence > " + kCursorOf +
                              " ORDER BY sequence LIMIT ?) e LEFT JOIN order_lines l ON l.event = e.sequence ORDER BY e.sequence, l.line");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, tenantId);
    query->bind(3, static_cast<int64_t>(std::min<size_t>(limit, std::numeric_limits<int32_t>::max())));
    return readClaims(*query);
}

Result<std::vector<OrderClaim>> SqliteLedgerStore::orderClaims(int64_t tenantId, const std::string& orderId, int64_t throughSequence) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(std::string("SELECT ") + kClaimColumns +
                              " FROM events e LEFT JOIN order_lines l ON l.event = e.sequence "
                              "WHERE e.tenant_id = ? AND e.order_id = ? AND e.sequence <= ? ORDER BY e.sequence, l.line");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, orderId).bind(3, throughSequence);
    return readClaims(*query);
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
                               ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    if (!insert) return insert.error();
    for (const auto& entry : entries) {
        insert->reset();
        insert->bind(1, ledgerKindName(entry.kind)).bind(2, entry.tenantId).bind(3, entry.orderEvent);
        insert->bind(4, entry.orderId).bind(5, entry.line).bind(6, entry.sku).bind(7, entry.mainSku).bind(8, entry.amount);
        insert->bind(9, entry.price.cents()).bind(10, entry.revenue.cents()).bind(11, entry.commission.cents());
        insert->bind(12, entry.rateBasisPoints);
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
        insert->bind(26, claimSourceName(entry.claimSource));
        insert->bind(27, claimStatusName(entry.claimStatus));
        if (auto status = insert->run(); !status) return status;
    }
    return {};
}

Status SqliteLedgerStore::book(int64_t tenantId, const std::vector<LedgerEntry>& entries, const std::vector<QuarantinedLine>& quarantined,
                               int64_t throughSequence) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    if (auto status = insertEntries(entries); !status) return status;
    if (!quarantined.empty()) {
        auto insert = db_->prepare(
            "INSERT INTO ledger_quarantine(order_event, line, tenant_id, order_id, sku, amount, price, reason, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
        if (!insert) return insert.error();
        for (const auto& line : quarantined) {
            insert->reset();
            insert->bind(1, line.orderEvent).bind(2, line.line).bind(3, line.tenantId).bind(4, line.orderId).bind(5, line.sku);
            insert->bind(6, line.amount).bind(7, line.price.cents()).bind(8, line.reason).bind(9, line.at);
            if (auto status = insert->run(); !status) return status;
        }
    }
    auto cursor = db_->prepare(
        "INSERT INTO attribution_cursors(tenant_id, sequence) VALUES (?, ?) "
        "ON CONFLICT(tenant_id) DO UPDATE SET sequence = max(sequence, excluded.sequence)");
    if (!cursor) return cursor.error();
    cursor->bind(1, tenantId).bind(2, throughSequence);
    if (auto status = cursor->run(); !status) return status;
    return transaction->commit();
}

Result<std::vector<LedgerEntry>> SqliteLedgerStore::selectEntries(const std::string& where, int64_t tenantId, const std::string& text,
                                                                  int64_t from, int64_t to) {
    auto query = db_->prepare(std::string("SELECT ") + kEntryColumns + ", " + kWithoutConsent + " FROM ledger WHERE tenant_id = ? AND " + where + " ORDER BY entry");
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

Result<std::pair<std::vector<QuarantinedLine>, int64_t>> SqliteLedgerStore::quarantined(int64_t tenantId, int64_t from, int64_t to,
                                                                                        size_t limit) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT order_event, order_id, line, sku, amount, price, reason, at, count(*) OVER () FROM ledger_quarantine "
        "WHERE tenant_id = ? AND at >= ? AND at < ? ORDER BY at, order_event, line LIMIT ?");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, from).bind(3, to);
    query->bind(4, static_cast<int64_t>(std::min<size_t>(limit, std::numeric_limits<int32_t>::max())));
    std::pair<std::vector<QuarantinedLine>, int64_t> found{{}, 0};
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        QuarantinedLine line;
        line.tenantId = tenantId;
        line.orderEvent = query->integer(0);
        line.orderId = query->text(1);
        line.line = query->integer(2);
        line.sku = query->text(3);
        line.amount = query->integer(4);
        line.price = query->integer(5);
        line.reason = query->text(6);
        line.at = query->integer(7);
        found.second = query->integer(8);
        found.first.push_back(std::move(line));
    }
    if (found.first.empty() && limit == 0) {
        // LIMIT 0 returns no row to carry the count: ask for it alone.
        auto count = db_->prepare("SELECT count(*) FROM ledger_quarantine WHERE tenant_id = ? AND at >= ? AND at < ?");
        if (!count) return count.error();
        count->bind(1, tenantId).bind(2, from).bind(3, to);
        auto row = count->step();
        if (!row) return row.error();
        found.second = count->integer(0);
    }
    return found;
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

Result<int64_t> SqliteLedgerStore::pendingOf(int64_t tenantId) {
    auto query = db_->prepare(std::string("SELECT count(*) FROM events WHERE tenant_id = ? AND order_id IS NOT NULL AND sequence > ") +
                              kCursorOf);
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, tenantId);
    auto row = query->step();
    if (!row) return row.error();
    return query->integer(0);
}

Result<int64_t> SqliteLedgerStore::pendingPurchases(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    return pendingOf(tenantId);
}

Result<int64_t> SqliteLedgerStore::pendingPurchases() {
    auto tenants = tenantsWithPendingClaims();
    if (!tenants) return tenants.error();
    std::lock_guard lock(mutex_);
    int64_t total = 0;
    for (int64_t tenantId : *tenants) {
        auto pending = pendingOf(tenantId);
        if (!pending) return pending.error();
        total += *pending;
    }
    return total;
}

}  // namespace svc
