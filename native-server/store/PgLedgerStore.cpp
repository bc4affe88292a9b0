#include "store/PgLedgerStore.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "fleet/CalendarMonth.hpp"
#include "store/PgEventStore.hpp"
#include "store/PgRows.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {
namespace {

#define SVC_ENTRY_COLUMNS                                                                                                              \
    "kind, tenant_id, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission, rate_bp, attributed, reason, " \
    "interaction, interaction_type, widget, touchpoint, set_id, test_group, variant, interaction_at, ordered_at, booked_at, return_id, " \
    "claim_source, claim_status"

// Whether an entry's order came without a visitor: no claim on its order id names a cid
// (docs/adr/0083), read at each read so a later claim that brings the visitor counts at once.
#define SVC_WITHOUT_CONSENT                                                                                                        \
    "(NOT EXISTS (SELECT 1 FROM order_claims claim WHERE claim.tenant_id = ledger.tenant_id AND claim.order_id = ledger.order_id " \
    "AND claim.cid IS NOT NULL))::int"

// Claims with their lines, by sequence; the tenant's cursor (no row: nothing booked yet).
#define SVC_CLAIM_COLUMNS "c.tenant_id, c.sequence, c.order_id, c.cid, c.received_at, c.shop, c.confirms_claim, l.sku, l.amount, l.price"
#define SVC_CURSOR_OF(tenant) "coalesce((SELECT a.sequence FROM attribution_cursors a WHERE a.tenant_id = " tenant "), 0)"

int64_t boundedLimit(size_t limit) { return static_cast<int64_t>(std::min<size_t>(limit, std::numeric_limits<int32_t>::max())); }

PgParam optionalText(const std::string& text) { return text.empty() ? PgParam(std::optional<std::string>()) : PgParam(text); }

LedgerEntry readEntry(const PgResult& rows, int row) {
    LedgerEntry entry;
    std::string kind = rows.text(row, 0);
    entry.kind = kind == "return" ? LedgerKind::Return : kind == "reversal" ? LedgerKind::Reversal : LedgerKind::Sale;
    entry.tenantId = rows.integer(row, 1);
    entry.orderEvent = rows.integer(row, 2);
    entry.orderId = rows.text(row, 3);
    entry.line = rows.integer(row, 4);
    entry.sku = rows.text(row, 5);
    entry.mainSku = rows.text(row, 6);
    entry.amount = rows.integer(row, 7);
    entry.price = rows.integer(row, 8);
    entry.revenue = rows.integer(row, 9);
    entry.commission = rows.integer(row, 10);
    entry.rateBasisPoints = rows.integer(row, 11);
    entry.attributed = rows.text(row, 12) == "t";
    if (!rows.isNull(row, 13)) {
        std::string reason = rows.text(row, 13);
        entry.reason = reason == "set" ? AttributionReason::Set : reason == "main-sku" ? AttributionReason::MainSku : AttributionReason::Sku;
    }
    entry.interaction = rows.isNull(row, 14) ? 0 : rows.integer(row, 14);
    entry.interactionType = rows.text(row, 15);
    entry.widget = rows.text(row, 16);
    entry.touchpoint = rows.text(row, 17);
    entry.setId = rows.text(row, 18);
    entry.testGroup = rows.text(row, 19);
    entry.variant = rows.text(row, 20);
    entry.interactionAt = rows.isNull(row, 21) ? 0 : rows.integer(row, 21);
    entry.orderedAt = rows.integer(row, 22);
    entry.bookedAt = rows.integer(row, 23);
    entry.returnId = rows.text(row, 24);
    entry.claimSource = parseClaimSource(rows.text(row, 25)).value_or(ClaimSource::Browser);
    entry.claimStatus = parseClaimStatus(rows.text(row, 26)).value_or(ClaimStatus::Claimed);
    entry.withoutConsent = rows.integer(row, 27) != 0;
    return entry;
}

// Inserts entries (a retried one is stored once: the unique indexes) and adds what was stored
// to the tenants' months (the fleet view's commission).
Status insertEntries(PgConnection& connection, const std::vector<LedgerEntry>& entries) {
    if (entries.empty()) return Status::success();
    PgRows rows(std::vector<std::string>(27, ""));
    for (const auto& entry : entries) {
        rows.add({ledgerKindName(entry.kind), entry.tenantId, entry.orderEvent, entry.orderId, entry.line, entry.sku, entry.mainSku, entry.amount,
                  entry.price.cents(), entry.revenue.cents(), entry.commission.cents(), entry.rateBasisPoints, entry.attributed ? "true" : "false",
                  entry.reason ? PgParam(attributionReasonName(*entry.reason)) : PgParam(std::optional<std::string>()),
                  entry.attributed ? PgParam(entry.interaction) : PgParam(std::optional<int64_t>()), optionalText(entry.interactionType),
                  optionalText(entry.widget), optionalText(entry.touchpoint), optionalText(entry.setId), optionalText(entry.testGroup),
                  optionalText(entry.variant), entry.attributed ? PgParam(entry.interactionAt) : PgParam(std::optional<int64_t>()),
                  entry.orderedAt, entry.bookedAt, optionalText(entry.returnId), claimSourceName(entry.claimSource),
                  claimStatusName(entry.claimStatus)});
    }
    auto inserted = rows.run(connection, "book ledger entries", "INSERT INTO ledger(" SVC_ENTRY_COLUMNS ")",
                             "ON CONFLICT DO NOTHING RETURNING tenant_id, booked_at, commission");
    if (!inserted) return inserted.error();
    std::map<std::pair<int, int64_t>, int64_t> months;
    for (const PgResult& result : *inserted) {
        for (int row = 0; row < result.rows(); ++row) {
            months[{CalendarMonth::of(result.integer(row, 1)).key(), result.integer(row, 0)}] += result.integer(row, 2);
        }
    }
    if (months.empty()) return Status::success();
    PgRows counts({"", "", ""});
    for (const auto& [key, commission] : months) counts.add({key.first, key.second, commission});
    auto counted = counts.run(connection, "book ledger entries: count the tenants' months", "INSERT INTO tenant_months(month, tenant_id, commission)",
                              "ON CONFLICT (month, tenant_id) DO UPDATE SET commission = tenant_months.commission + excluded.commission");
    if (!counted) return counted.error();
    return Status::success();
}

}  // namespace

Result<std::vector<OrderClaim>> PgLedgerStore::selectClaims(const char* purpose, const char* sql, std::initializer_list<PgParam> params) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<OrderClaim>> {
        auto found = connection.execute(purpose, sql, params);
        if (!found) return found.error();
        std::vector<OrderClaim> claims;
        for (int row = 0; row < found->rows(); ++row) {
            int64_t sequence = found->integer(row, 1);
            if (claims.empty() || claims.back().sequence != sequence) {
                auto& claim = claims.emplace_back();
                claim.tenantId = found->integer(row, 0);
                claim.sequence = sequence;
                claim.orderId = found->text(row, 2);
                if (!found->isNull(row, 3)) claim.cid = found->text(row, 3);
                claim.receivedAt = found->integer(row, 4);
                claim.source = found->isNull(row, 5) ? ClaimSource::Browser : parseClaimSource(found->text(row, 5)).value_or(ClaimSource::ShopConfirmed);
                if (!found->isNull(row, 6)) claim.confirmsClaim = found->integer(row, 6);
            }
            // A rejection has no lines (the LEFT JOIN's NULLs).
            if (!found->isNull(row, 7)) claims.back().lines.push_back({found->text(row, 7), found->integer(row, 8), found->integer(row, 9)});
        }
        return claims;
    });
}

Result<std::vector<int64_t>> PgLedgerStore::tenantsWithPendingClaims() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<int64_t>> {
        // Bounded by the tenants (configuration), each one probe of order_claims' key.
        auto found = connection.execute("find tenants with claims to book",
                                        "SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM order_claims c WHERE c.tenant_id = t.id AND "
                                        "c.sequence > " SVC_CURSOR_OF("t.id") ") ORDER BY t.id");
        if (!found) return found.error();
        std::vector<int64_t> tenants;
        for (int row = 0; row < found->rows(); ++row) tenants.push_back(found->integer(row, 0));
        return tenants;
    });
}

Result<std::vector<OrderClaim>> PgLedgerStore::claimsToBook(int64_t tenantId, size_t limit) {
    return selectClaims("read claims to book",
                        "SELECT " SVC_CLAIM_COLUMNS " FROM (SELECT * FROM order_claims WHERE tenant_id = $1 AND sequence > " SVC_CURSOR_OF("$1")
                        " ORDER BY sequence LIMIT $2) c LEFT JOIN order_lines l ON l.tenant_id = c.tenant_id AND l.claim = c.sequence "
                        "ORDER BY c.sequence, l.line",
                        {tenantId, boundedLimit(limit)});
}

Result<std::vector<OrderClaim>> PgLedgerStore::orderClaims(int64_t tenantId, const std::string& orderId, int64_t throughSequence) {
    return selectClaims("read an order's claims",
                        "SELECT " SVC_CLAIM_COLUMNS " FROM order_claims c LEFT JOIN order_lines l ON l.tenant_id = c.tenant_id AND l.claim = c.sequence "
                        "WHERE c.tenant_id = $1 AND c.order_id = $2 AND c.sequence <= $3 ORDER BY c.sequence, l.line",
                        {tenantId, orderId, throughSequence});
}

Result<std::vector<Interaction>> PgLedgerStore::interactions(int64_t tenantId, const std::string& cid, int64_t beforeSequence, int64_t since) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<Interaction>> {
        // received_at >= since prunes the daily partitions older than the attribution window.
        auto found = connection.execute("read interactions",
                                        "SELECT sequence, received_at, type, coalesce(sku, ''), coalesce(set_id, ''), widget, touchpoint, "
                                        "coalesce(test_group, ''), coalesce(variant, '') FROM interactions WHERE tenant_id = $1 AND cid = $2 "
                                        "AND sequence < $3 AND received_at >= $4 ORDER BY sequence",
                                        {tenantId, cid, beforeSequence, since});
        if (!found) return found.error();
        std::vector<Interaction> interactions;
        for (int row = 0; row < found->rows(); ++row) {
            Interaction interaction;
            interaction.sequence = found->integer(row, 0);
            interaction.receivedAt = found->integer(row, 1);
            interaction.type = parseWidgetEventType(found->text(row, 2)).value_or(WidgetEventType::Click);
            interaction.sku = found->text(row, 3);
            interaction.setId = found->text(row, 4);
            interaction.widget = parseWidgetType(found->text(row, 5)).value_or(WidgetType::Set);
            interaction.touchpoint = parseTouchpoint(found->text(row, 6)).value_or(Touchpoint::Product);
            interaction.testGroup = found->text(row, 7);
            interaction.variant = found->text(row, 8);
            interactions.push_back(std::move(interaction));
        }
        return interactions;
    });
}

Status PgLedgerStore::book(int64_t tenantId, const std::vector<LedgerEntry>& entries, const std::vector<QuarantinedLine>& quarantined,
                           int64_t throughSequence) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        return connection.inTransaction("book", [&]() -> Status {
            if (auto status = insertEntries(connection, entries); !status) return status;
            if (!quarantined.empty()) {
                PgRows lines({"", "", "", "", "", "", "", "", ""});
                for (const auto& line : quarantined) {
                    lines.add({line.tenantId, line.orderEvent, line.line, line.orderId, line.sku, line.amount, line.price.cents(), line.reason, line.at});
                }
                auto inserted = lines.run(connection, "book: set lines aside",
                                          "INSERT INTO ledger_quarantine(tenant_id, order_event, line, order_id, sku, amount, price, reason, at)",
                                          "ON CONFLICT DO NOTHING");
                if (!inserted) return inserted.error();
            }
            // The cursor never moves back (a retried booking through an earlier claim leaves it).
            auto cursor = connection.execute("book: move the cursor",
                                             "INSERT INTO attribution_cursors(tenant_id, sequence) VALUES ($1, $2) ON CONFLICT (tenant_id) "
                                             "DO UPDATE SET sequence = greatest(attribution_cursors.sequence, excluded.sequence)",
                                             {tenantId, throughSequence});
            if (!cursor) return cursor.error();
            return Status::success();
        });
    });
}

Result<std::vector<LedgerEntry>> PgLedgerStore::selectEntries(const char* purpose, const char* sql, std::initializer_list<PgParam> params) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<LedgerEntry>> {
        auto found = connection.execute(purpose, sql, params);
        if (!found) return found.error();
        std::vector<LedgerEntry> entries;
        for (int row = 0; row < found->rows(); ++row) entries.push_back(readEntry(*found, row));
        return entries;
    });
}

Result<std::vector<LedgerEntry>> PgLedgerStore::orderEntries(int64_t tenantId, const std::string& orderId) {
    return selectEntries("read an order's ledger entries",
                         "SELECT " SVC_ENTRY_COLUMNS ", " SVC_WITHOUT_CONSENT " FROM ledger WHERE tenant_id = $1 AND order_id = $2 ORDER BY entry",
                         {tenantId, orderId});
}

Result<std::vector<LedgerEntry>> PgLedgerStore::entries(int64_t tenantId, int64_t from, int64_t to) {
    return selectEntries("read ledger entries",
                         "SELECT " SVC_ENTRY_COLUMNS ", " SVC_WITHOUT_CONSENT
                         " FROM ledger WHERE tenant_id = $1 AND booked_at >= $2 AND booked_at < $3 ORDER BY entry",
                         {tenantId, from, to});
}

Result<bool> PgLedgerStore::bookReturn(int64_t tenantId, const std::string& returnId, const std::vector<LedgerEntry>& entries) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        bool booked = false;
        Status status = connection.inTransaction("book a return", [&]() -> Status {
            // Two nodes booking the same return at once: the second waits, then finds it booked.
            if (auto locked = PgEventStore::lockTenants(connection, {tenantId}); !locked) return locked;
            auto seen = connection.execute("book a return: was it booked", "SELECT 1 FROM ledger WHERE tenant_id = $1 AND kind = 'return' AND return_id = $2 LIMIT 1",
                                           {tenantId, returnId});
            if (!seen) return seen.error();
            if (seen->rows() > 0) return Status::success();
            if (auto inserted = insertEntries(connection, entries); !inserted) return inserted;
            booked = true;
            return Status::success();
        });
        if (!status) return status.error();
        return booked;
    });
}

Result<std::pair<std::vector<QuarantinedLine>, int64_t>> PgLedgerStore::quarantined(int64_t tenantId, int64_t from, int64_t to, size_t limit) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::pair<std::vector<QuarantinedLine>, int64_t>> {
        auto count = connection.execute("count lines set aside", "SELECT count(*) FROM ledger_quarantine WHERE tenant_id = $1 AND at >= $2 AND at < $3",
                                        {tenantId, from, to});
        if (!count) return count.error();
        std::pair<std::vector<QuarantinedLine>, int64_t> found{{}, count->integer(0, 0)};
        if (limit == 0 || found.second == 0) return found;
        auto lines = connection.execute("read lines set aside",
                                        "SELECT order_event, order_id, line, sku, amount, price, reason, at FROM ledger_quarantine "
                                        "WHERE tenant_id = $1 AND at >= $2 AND at < $3 ORDER BY at, order_event, line LIMIT $4",
                                        {tenantId, from, to, boundedLimit(limit)});
        if (!lines) return lines.error();
        for (int row = 0; row < lines->rows(); ++row) {
            QuarantinedLine line;
            line.tenantId = tenantId;
            line.orderEvent = lines->integer(row, 0);
            line.orderId = lines->text(row, 1);
            line.line = lines->integer(row, 2);
            line.sku = lines->text(row, 3);
            line.amount = lines->integer(row, 4);
            line.price = lines->integer(row, 5);
            line.reason = lines->text(row, 6);
            line.at = lines->integer(row, 7);
            found.first.push_back(std::move(line));
        }
        return found;
    });
}

Result<std::vector<EventCount>> PgLedgerStore::eventCounts(int64_t tenantId, int64_t from, int64_t to) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<EventCount>> {
        auto found = connection.execute("count widget events",
                                        "SELECT day, widget, touchpoint, test_group, variant, views, clicks, add_to_carts FROM event_counts "
                                        "WHERE tenant_id = $1 AND day > $2 - 86400 AND day < $3 ORDER BY day, widget, touchpoint, test_group, variant",
                                        {tenantId, from, to});
        if (!found) return found.error();
        std::vector<EventCount> counts;
        for (int row = 0; row < found->rows(); ++row) {
            counts.push_back({found->text(row, 1), found->text(row, 2), found->text(row, 3), found->text(row, 4), found->integer(row, 5),
                              found->integer(row, 6), found->integer(row, 7), found->integer(row, 0)});
        }
        return counts;
    });
}

Result<int64_t> PgLedgerStore::pendingPurchases(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        auto count = connection.execute("count claims to book",
                                        "SELECT count(*) FROM order_claims WHERE tenant_id = $1 AND sequence > " SVC_CURSOR_OF("$1"), {tenantId});
        if (!count) return count.error();
        return count->integer(0, 0);
    });
}

Result<int64_t> PgLedgerStore::pendingPurchases() {
    return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        auto count = connection.execute("count claims to book",
                                        "SELECT coalesce(sum(pending.claims), 0) FROM tenants t CROSS JOIN LATERAL (SELECT count(*) AS claims "
                                        "FROM order_claims c WHERE c.tenant_id = t.id AND c.sequence > " SVC_CURSOR_OF("t.id") ") pending");
        if (!count) return count.error();
        return count->integer(0, 0);
    });
}

}  // namespace svc
