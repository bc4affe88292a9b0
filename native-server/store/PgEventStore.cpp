#include "store/PgEventStore.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "core/CivilDate.hpp"
#include "fleet/CalendarMonth.hpp"
#include "store/ClaimKeys.hpp"
#include "store/PgRows.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {
namespace {

constexpr int64_t kDaySeconds = 86400;
// pg_advisory_xact_lock(class, key)'s two-int key space never meets the one-bigint space other
// locks use (migrations): class 24089 is "svc event ordering", class 24090 "svc event partitions".
constexpr int kOrderingLockClass = 24089;
constexpr int kPartitionLockClass = 24090;
// Partitions are created this many days ahead, so a day's first event does not wait on DDL.
constexpr int64_t kPartitionsAhead = 2;

int64_t dayStart(int64_t seconds) {
    int64_t remainder = seconds % kDaySeconds;
    return seconds - (remainder < 0 ? remainder + kDaySeconds : remainder);
}

// interactions_20250615: the partition of that UTC day (digits only: DDL takes no parameters).
std::string partitionName(int64_t dayStartSeconds) {
    CivilDay day = civilFromDays(dayStartSeconds / kDaySeconds);
    char name[64];
    std::snprintf(name, sizeof name, "interactions_%04lld%02lld%02lld", static_cast<long long>(day.year),
                  static_cast<long long>(day.month), static_cast<long long>(day.day));
    return name;
}

// The day a partition's name stands for; nullopt for a name this store did not make.
std::optional<int64_t> partitionDay(const std::string& name) {
    constexpr std::string_view prefix = "interactions_";
    if (name.size() != prefix.size() + 8 || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    int64_t date = std::stoll(digits);
    return daysFromCivil(date / 10000, date / 100 % 100, date % 100) * kDaySeconds;
}

// An array of integers as PostgreSQL's text form ({1,2,3}): digits and commas, nothing to escape.
std::string integerArray(const std::vector<int64_t>& values) {
    std::string text = "{";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0) text += ',';
        text += std::to_string(values[i]);
    }
    text += '}';
    return text;
}

PgParam optionalText(const std::optional<std::string>& text) { return PgParam(text); }

// What the store knows of one order id while a batch is classified: its claims before the
// batch, then the batch's own as they are accepted.
struct KnownOrder {
    bool hasPurchase = false;   // it has a browser claim
    std::vector<std::string> browserKeys;
    std::optional<OrderClaim> shopWord;  // the latest word of the shop
};

using OrderKey = std::pair<int64_t, std::string>;

// Where a browser purchase stands against the order's earlier claims (docs/adr/0056).
struct Classification {
    AppendOutcome outcome = AppendOutcome::Stored;
    bool laterVersion = false;  // differs from an earlier browser claim
};

Classification classify(const KnownOrder& state, const PurchaseEvent& purchase, const std::string& key) {
    if (std::find(state.browserKeys.begin(), state.browserKeys.end(), key) != state.browserKeys.end()) return {AppendOutcome::Duplicate};
    if (state.browserKeys.size() >= kMaxBrowserClaimsPerOrder) return {AppendOutcome::TooManyClaims};
    if (!state.browserKeys.empty()) return {AppendOutcome::Conflict, true};
    if (!state.shopWord) return {AppendOutcome::Stored};
    if (state.shopWord->source == ClaimSource::ShopRejected) return {AppendOutcome::Conflict};
    OrderClaim mine;
    mine.source = ClaimSource::Browser;
    mine.cid = purchase.cid;
    mine.lines = purchase.lines;
    return {confirmationAgrees(*state.shopWord, mine) ? AppendOutcome::Stored : AppendOutcome::Conflict};
}

// Loads the claims on the batch's orders (under the tenants' ordering locks): browser claims'
// keys and the shop's latest word with its lines.
Status loadOrders(PgConnection& connection, const std::vector<OrderKey>& keys, std::map<OrderKey, KnownOrder>& orders) {
    if (keys.empty()) return Status::success();
    PgRows wanted({"bigint", "text"});
    for (const auto& [tenantId, orderId] : keys) wanted.add({tenantId, orderId});
    auto known = wanted.run(connection, "append events: read the orders' claims",
                            "SELECT o.tenant_id, o.order_id, o.purchase IS NOT NULL, c.sequence, c.claim_key, c.shop, c.cid, l.sku, l.amount, l.price "
                            "FROM orders o LEFT JOIN order_claims c ON c.tenant_id = o.tenant_id AND c.order_id = o.order_id "
                            "LEFT JOIN order_lines l ON c.shop IS NOT NULL AND l.tenant_id = c.tenant_id AND l.claim = c.sequence "
                            "WHERE (o.tenant_id, o.order_id) IN (SELECT * FROM (",
                            ") AS wanted(tenant_id, order_id)) ORDER BY o.tenant_id, o.order_id, c.sequence, l.line");
    if (!known) return known.error();
    for (const PgResult& rows : *known) {
        for (int row = 0; row < rows.rows(); ++row) {
            KnownOrder& state = orders[{rows.integer(row, 0), rows.text(row, 1)}];
            state.hasPurchase = rows.text(row, 2) == "t";
            if (rows.isNull(row, 3)) continue;
            int64_t sequence = rows.integer(row, 3);
            if (rows.isNull(row, 5)) {
                state.browserKeys.push_back(rows.text(row, 4));
                continue;
            }
            if (!state.shopWord || state.shopWord->sequence != sequence) {
                state.shopWord.emplace();
                state.shopWord->sequence = sequence;
                state.shopWord->source = parseClaimSource(rows.text(row, 5)).value_or(ClaimSource::ShopConfirmed);
                if (!rows.isNull(row, 6)) state.shopWord->cid = rows.text(row, 6);
            }
            if (!rows.isNull(row, 7)) state.shopWord->lines.push_back({rows.text(row, 7), rows.integer(row, 8), rows.integer(row, 9)});
        }
    }
    return Status::success();
}

// The rows one request adds, kept apart until the request is known to be stored whole.
struct Planned {
    int64_t tenantId = 0;
    const TrackingEvent* event = nullptr;
    std::string claimKey;       // purchases
    bool firstPurchase = false; // the order's first browser claim: the purchase co-purchase learning reads
};

using CounterKey = std::tuple<int64_t, std::string, std::string, std::string, std::string>;  // tenant, widget, touchpoint, group, variant
struct Counts {
    int64_t views = 0, clicks = 0, addToCarts = 0;
};

}  // namespace

Status PgEventStore::lockTenants(PgConnection& connection, std::vector<int64_t> tenantIds) {
    std::sort(tenantIds.begin(), tenantIds.end());
    tenantIds.erase(std::unique(tenantIds.begin(), tenantIds.end()), tenantIds.end());
    // One lock per tenant, taken in tenant order (WITH ORDINALITY keeps it): two group commits
    // sharing tenants queue on the first one they share instead of deadlocking. Tenant ids past
    // 2^31 share a lock with another tenant, which only makes the two wait for each other.
    auto locked = connection.execute("append events: take the tenants' ordering locks",
                                     "SELECT pg_advisory_xact_lock($1, (tenant % 2147483648)::int) FROM "
                                     "unnest($2::bigint[]) WITH ORDINALITY AS ids(tenant, position) ORDER BY position",
                                     {kOrderingLockClass, integerArray(tenantIds)});
    if (!locked) return locked.error();
    return Status::success();
}

Result<std::vector<int64_t>> PgEventStore::takeSequences(PgConnection& connection, size_t count) {
    std::vector<int64_t> sequences;
    if (count == 0) return sequences;
    auto taken = connection.execute("append events: take sequence values",
                                    "SELECT nextval('event_sequence') FROM generate_series(1, $1)", {static_cast<int64_t>(count)});
    if (!taken) return taken.error();
    for (int row = 0; row < taken->rows(); ++row) sequences.push_back(taken->integer(row, 0));
    std::sort(sequences.begin(), sequences.end());
    return sequences;
}

Status PgEventStore::ensurePartitions(PgConnection& connection, int64_t receivedAt) {
    int64_t first = dayStart(receivedAt);
    {
        std::lock_guard lock(partitionsMutex_);
        if (partitionDays_.count(first)) return Status::success();
    }
    Status created = connection.inTransaction("create interaction partitions", [&]() -> Status {
        // Nodes creating the same day's partition at once take turns; IF NOT EXISTS lets the later one pass.
        auto locked = connection.execute("create interaction partitions: lock", "SELECT pg_advisory_xact_lock($1, 0)", {kPartitionLockClass});
        if (!locked) return locked.error();
        for (int64_t day = first; day <= first + kPartitionsAhead * kDaySeconds; day += kDaySeconds) {
            std::string sql = "CREATE TABLE IF NOT EXISTS " + partitionName(day) + " PARTITION OF interactions FOR VALUES FROM (" +
                              std::to_string(day) + ") TO (" + std::to_string(day + kDaySeconds) + ")";
            if (auto status = connection.executeScript("create interaction partition " + partitionName(day), sql.c_str()); !status) {
                return status;
            }
        }
        return Status::success();
    });
    if (!created) return created;
    std::lock_guard lock(partitionsMutex_);
    for (int64_t day = first; day <= first + kPartitionsAhead * kDaySeconds; day += kDaySeconds) partitionDays_.insert(day);
    return Status::success();
}

Result<std::vector<std::vector<AppendOutcome>>> PgEventStore::append(std::span<const EventAppend> requests, int64_t receivedAt) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<std::vector<AppendOutcome>>> {
        std::vector<int64_t> tenants;
        std::vector<OrderKey> orderKeys;
        bool withInteractions = false;
        for (const EventAppend& request : requests) {
            tenants.push_back(request.tenantId);
            for (const TrackingEvent& event : request.events) {
                if (const auto* purchase = std::get_if<PurchaseEvent>(&event)) orderKeys.emplace_back(request.tenantId, purchase->orderId);
                else if (std::get<WidgetEvent>(event).type != WidgetEventType::View) withInteractions = true;
            }
        }
        std::sort(orderKeys.begin(), orderKeys.end());
        orderKeys.erase(std::unique(orderKeys.begin(), orderKeys.end()), orderKeys.end());
        if (withInteractions) {
            if (auto status = ensurePartitions(connection, receivedAt); !status) return status.error();
        }

        std::vector<std::vector<AppendOutcome>> outcomes;
        Status written = connection.inTransaction("append events", [&]() -> Status {
            outcomes.clear();
            if (auto status = lockTenants(connection, tenants); !status) return status;
            std::map<OrderKey, KnownOrder> orders;
            if (auto status = loadOrders(connection, orderKeys, orders); !status) return status;

            std::vector<Planned> planned;  // rows that take a sequence value, in arrival order
            std::map<CounterKey, Counts> counters;
            std::map<int64_t, std::pair<int64_t, int64_t>> months;  // tenant: widget events, claims
            for (const EventAppend& request : requests) {
                auto& results = outcomes.emplace_back();
                std::map<OrderKey, KnownOrder> before;  // the orders this request touches, as they were
                std::vector<Planned> mine;
                std::map<CounterKey, Counts> myCounters;
                int64_t myWidgetEvents = 0, myClaims = 0;
                std::optional<size_t> refused;
                for (const TrackingEvent& event : request.events) {
                    if (const auto* purchase = std::get_if<PurchaseEvent>(&event)) {
                        OrderKey key{request.tenantId, purchase->orderId};
                        KnownOrder& state = orders[key];
                        before.emplace(key, state);
                        std::string claimKey = ClaimKeys::browser(purchase->cid, purchase->lines);
                        Classification classified = classify(state, *purchase, claimKey);
                        if (classified.outcome == AppendOutcome::TooManyClaims) {
                            refused = results.size();
                            break;
                        }
                        results.push_back(classified.outcome);
                        if (classified.outcome == AppendOutcome::Duplicate) continue;
                        bool first = !state.hasPurchase;
                        state.hasPurchase = true;
                        state.browserKeys.push_back(claimKey);
                        mine.push_back({request.tenantId, &event, claimKey, first});
                        ++myClaims;
                        continue;
                    }
                    const auto& widget = std::get<WidgetEvent>(event);
                    Counts& counts = myCounters[{request.tenantId, std::string(widgetTypeName(widget.widget)),
                                                 std::string(touchpointName(widget.touchpoint)), widget.testGroup.value_or(""),
                                                 widget.variant.value_or("")}];
                    if (widget.type == WidgetEventType::View) ++counts.views;
                    else if (widget.type == WidgetEventType::Click) ++counts.clicks;
                    else ++counts.addToCarts;
                    if (widget.type != WidgetEventType::View) mine.push_back({request.tenantId, &event, "", false});
                    ++myWidgetEvents;
                    results.push_back(AppendOutcome::Stored);
                }
                if (refused) {
                    // A request is all or nothing: its orders go back to what they were.
                    for (auto& [key, state] : before) orders[key] = std::move(state);
                    results.assign(request.events.size(), AppendOutcome::NotStored);
                    results[*refused] = AppendOutcome::TooManyClaims;
                    continue;
                }
                planned.insert(planned.end(), mine.begin(), mine.end());
                for (const auto& [key, counts] : myCounters) {
                    Counts& total = counters[key];
                    total.views += counts.views;
                    total.clicks += counts.clicks;
                    total.addToCarts += counts.addToCarts;
                }
                if (myWidgetEvents || myClaims) {
                    months[request.tenantId].first += myWidgetEvents;
                    months[request.tenantId].second += myClaims;
                }
            }

            auto sequences = takeSequences(connection, planned.size());
            if (!sequences) return sequences.error();
            PgRows interactions({"", "", "", "", "", "", "", "", "", "", "", "", ""});
            PgRows newOrders({"", "", "", ""});
            PgRows claims({"", "", "", "", "", "", ""});
            PgRows lines({"", "", "", "", "", ""});
            std::map<OrderKey, std::optional<int64_t>> orderRows;  // order: its first purchase in this batch
            for (size_t i = 0; i < planned.size(); ++i) {
                const Planned& row = planned[i];
                int64_t sequence = (*sequences)[i];
                if (const auto* purchase = std::get_if<PurchaseEvent>(row.event)) {
                    auto& orderRow = orderRows[{row.tenantId, purchase->orderId}];
                    if (row.firstPurchase) orderRow = sequence;
                    claims.add({row.tenantId, sequence, purchase->orderId, optionalText(purchase->cid), receivedAt, row.claimKey,
                                std::optional<int64_t>()});
                    for (size_t line = 0; line < purchase->lines.size(); ++line) {
                        const OrderLine& orderLine = purchase->lines[line];
                        lines.add({row.tenantId, sequence, static_cast<int64_t>(line), orderLine.sku, orderLine.amount, orderLine.price.cents()});
                    }
                    continue;
                }
                const auto& widget = std::get<WidgetEvent>(*row.event);
                interactions.add({row.tenantId, sequence, receivedAt, std::string(widgetEventTypeName(widget.type)), widget.cid,
                                  optionalText(widget.sid), std::string(widgetTypeName(widget.widget)),
                                  std::string(touchpointName(widget.touchpoint)), optionalText(widget.sku), optionalText(widget.setId),
                                  optionalText(widget.testGroup), optionalText(widget.variant), PgParam(widget.clientTimeMs)});
            }
            for (const auto& [key, purchase] : orderRows) newOrders.add({key.first, key.second, PgParam(purchase), receivedAt});
            if (!interactions.empty()) {
                auto inserted = interactions.run(connection, "append events: store interactions",
                                                 "INSERT INTO interactions(tenant_id, sequence, received_at, type, cid, sid, widget, touchpoint, "
                                                 "sku, set_id, test_group, variant, client_time)");
                if (!inserted) return inserted.error();
            }
            if (!newOrders.empty()) {
                // The first browser claim becomes the order's purchase once, whoever came first.
                auto upserted = newOrders.run(connection, "append events: store orders", "INSERT INTO orders(tenant_id, order_id, purchase, received_at)",
                                              "ON CONFLICT (tenant_id, order_id) DO UPDATE SET purchase = coalesce(orders.purchase, excluded.purchase), "
                                              "received_at = CASE WHEN orders.purchase IS NULL THEN excluded.received_at ELSE orders.received_at END");
                if (!upserted) return upserted.error();
            }
            if (!claims.empty()) {
                auto inserted = claims.run(connection, "append events: store claims",
                                           "INSERT INTO order_claims(tenant_id, sequence, order_id, cid, received_at, claim_key, confirms_claim)");
                if (!inserted) return inserted.error();
            }
            if (!lines.empty()) {
                auto inserted = lines.run(connection, "append events: store order lines", "INSERT INTO order_lines(tenant_id, claim, line, sku, amount, price)");
                if (!inserted) return inserted.error();
            }
            if (!counters.empty()) {
                PgRows counts({"", "", "", "", "", "", "", "", ""});
                int64_t day = dayStart(receivedAt);
                for (const auto& [key, count] : counters) {
                    const auto& [tenantId, widget, touchpoint, group, variant] = key;
                    counts.add({tenantId, day, widget, touchpoint, group, variant, count.views, count.clicks, count.addToCarts});
                }
                auto upserted = counts.run(connection, "append events: count widget events",
                                           "INSERT INTO event_counts(tenant_id, day, widget, touchpoint, test_group, variant, views, clicks, add_to_carts)",
                                           "ON CONFLICT (tenant_id, day, widget, touchpoint, test_group, variant) DO UPDATE SET "
                                           "views = event_counts.views + excluded.views, clicks = event_counts.clicks + excluded.clicks, "
                                           "add_to_carts = event_counts.add_to_carts + excluded.add_to_carts");
                if (!upserted) return upserted.error();
            }
            if (!months.empty()) {
                PgRows counts({"", "", "", ""});
                int month = CalendarMonth::of(receivedAt).key();
                for (const auto& [tenantId, count] : months) counts.add({month, tenantId, count.first, count.second});
                auto upserted = counts.run(connection, "append events: count the tenants' month",
                                           "INSERT INTO tenant_months(month, tenant_id, widget_events, purchases)",
                                           "ON CONFLICT (month, tenant_id) DO UPDATE SET widget_events = tenant_months.widget_events + "
                                           "excluded.widget_events, purchases = tenant_months.purchases + excluded.purchases");
                if (!upserted) return upserted.error();
            }
            return Status::success();
        });
        if (!written) return written.error();
        return outcomes;
    });
}

Result<ShopWordOutcome> PgEventStore::recordShopWord(int64_t tenantId, const std::string& orderId, const OrderConfirmation& given,
                                                     int64_t receivedAt) {
    return database_.withConnection([&](PgConnection& connection) -> Result<ShopWordOutcome> {
        ShopWordOutcome outcome;
        Status written = connection.inTransaction("record the shop's word", [&]() -> Status {
            if (auto status = lockTenants(connection, {tenantId}); !status) return status;
            OrderConfirmation word = given;
            if (word.claim) {
                // "This version is the true one": the named browser claim's lines and visitor.
                auto named = connection.execute(
                    "record the shop's word: read the named claim",
                    "SELECT c.cid, l.sku, l.amount, l.price FROM order_claims c LEFT JOIN order_lines l ON l.tenant_id = c.tenant_id AND "
                    "l.claim = c.sequence WHERE c.tenant_id = $1 AND c.sequence = $2 AND c.order_id = $3 AND c.shop IS NULL ORDER BY l.line",
                    {tenantId, *word.claim, orderId});
                if (!named) return named.error();
                if (named->rows() == 0) {
                    return Error::notFound("claim: order '" + orderId + "' has no browser claim " + std::to_string(*word.claim));
                }
                word.cid = named->isNull(0, 0) ? std::nullopt : std::optional<std::string>(named->text(0, 0));
                word.lines.clear();
                for (int row = 0; row < named->rows(); ++row) {
                    if (!named->isNull(row, 1)) word.lines.push_back({named->text(row, 1), named->integer(row, 2), named->integer(row, 3)});
                }
            }
            std::string key = ClaimKeys::shopWord(word);
            auto latest = connection.execute("record the shop's word: read the latest",
                                             "SELECT sequence, claim_key FROM order_claims WHERE tenant_id = $1 AND order_id = $2 AND shop IS NOT NULL "
                                             "ORDER BY sequence DESC LIMIT 1",
                                             {tenantId, orderId});
            if (!latest) return latest.error();
            if (latest->rows() == 1 && latest->text(0, 1) == key) {
                outcome = {latest->integer(0, 0), false};
                return Status::success();
            }
            auto sequence = takeSequences(connection, 1);
            if (!sequence) return sequence.error();
            outcome = {sequence->front(), true};
            auto order = connection.execute("record the shop's word: store the order",
                                            "INSERT INTO orders(tenant_id, order_id, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                            {tenantId, orderId, receivedAt});
            if (!order) return order.error();
            auto claim = connection.execute(
                "record the shop's word: store the claim",
                "INSERT INTO order_claims(tenant_id, sequence, order_id, cid, received_at, shop, claim_key, confirms_claim) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                {tenantId, outcome.sequence, orderId, word.cid, receivedAt, claimSourceName(word.source), key, word.claim});
            if (!claim) return claim.error();
            if (!word.lines.empty()) {
                PgRows lines({"", "", "", "", "", ""});
                for (size_t line = 0; line < word.lines.size(); ++line) {
                    lines.add({tenantId, outcome.sequence, static_cast<int64_t>(line), word.lines[line].sku, word.lines[line].amount,
                               word.lines[line].price.cents()});
                }
                auto inserted = lines.run(connection, "record the shop's word: store its lines", "INSERT INTO order_lines(tenant_id, claim, line, sku, amount, price)");
                if (!inserted) return inserted.error();
            }
            auto month = connection.execute("record the shop's word: count the tenant's month",
                                            "INSERT INTO tenant_months(month, tenant_id, purchases) VALUES ($1, $2, 1) "
                                            "ON CONFLICT (month, tenant_id) DO UPDATE SET purchases = tenant_months.purchases + 1",
                                            {CalendarMonth::of(receivedAt).key(), tenantId});
            if (!month) return month.error();
            return Status::success();
        });
        if (!written) return written.error();
        return outcome;
    });
}

Result<std::vector<PurchaseOrder>> PgEventStore::purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<PurchaseOrder>> {
        auto boundedLimit = static_cast<int64_t>(std::min<size_t>(limit, static_cast<size_t>(std::numeric_limits<int64_t>::max())));
        // The orders first (LIMIT counts orders, not lines), then their lines.
        auto found = connection.execute(
            "read purchases",
            "SELECT o.purchase, o.order_id, o.received_at, l.sku, l.amount, l.price FROM "
            "(SELECT purchase, order_id, received_at FROM orders WHERE tenant_id = $1 AND purchase > $2 ORDER BY purchase LIMIT $3) o "
            "JOIN order_lines l ON l.tenant_id = $1 AND l.claim = o.purchase ORDER BY o.purchase, l.line",
            {tenantId, afterSequence, boundedLimit});
        if (!found) return found.error();
        std::vector<PurchaseOrder> orders;
        for (int row = 0; row < found->rows(); ++row) {
            int64_t sequence = found->integer(row, 0);
            if (orders.empty() || orders.back().sequence != sequence) {
                PurchaseOrder& order = orders.emplace_back();
                order.sequence = sequence;
                order.orderId = found->text(row, 1);
                order.receivedAt = found->integer(row, 2);
            }
            orders.back().lines.push_back({found->text(row, 3), found->integer(row, 4), found->integer(row, 5)});
        }
        return orders;
    });
}

Result<size_t> PgEventStore::dropExpiredInteractions(int64_t now) {
    auto cutoff = retentionCutoff(now);
    if (!cutoff) return cutoff.error();
    auto dropped = dropInteractionsBefore(*cutoff);
    if (!dropped) return dropped.error();
    return dropped->size();
}

Result<int64_t> PgEventStore::retentionCutoff(int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        auto longest = connection.execute("read the longest attribution window", "SELECT coalesce(max(attribution_window_days), 0) FROM tenants");
        if (!longest) return longest.error();
        return dayStart(now) - (longest->integer(0, 0) + 1) * kDaySeconds;
    });
}

Result<std::vector<std::string>> PgEventStore::dropInteractionsBefore(int64_t cutoff) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<std::string>> {
        auto partitions = connection.execute("list interaction partitions",
                                             "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                                             "WHERE i.inhparent = 'interactions'::regclass ORDER BY c.relname");
        if (!partitions) return partitions.error();
        std::vector<std::string> dropped;
        for (int row = 0; row < partitions->rows(); ++row) {
            std::string name = partitions->text(row, 0);
            auto day = partitionDay(name);
            if (!day || *day + kDaySeconds > cutoff) continue;
            // The name is one this store made (checked above: letters, an underscore and digits).
            std::string sql = "DROP TABLE IF EXISTS " + name;
            if (auto status = connection.executeScript("drop interaction partition " + name, sql.c_str()); !status) return status.error();
            dropped.push_back(name);
            std::lock_guard lock(partitionsMutex_);
            partitionDays_.erase(*day);
        }
        return dropped;
    });
}

}  // namespace svc
