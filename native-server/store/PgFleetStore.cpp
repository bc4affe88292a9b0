#include "store/PgFleetStore.hpp"

#include <map>

namespace svc {
namespace {

// Runs `sql` and hands each row to `visit`.
template <typename Visit>
Status eachRow(PgConnection& connection, const char* purpose, const char* sql, Visit visit, std::initializer_list<PgParam> params = {}) {
    auto rows = connection.execute(purpose, sql, params);
    if (!rows) return rows.error();
    for (int row = 0; row < rows->rows(); ++row) visit(*rows, row);
    return Status::success();
}

}  // namespace

Status PgFleetStore::readFeeds(PgConnection& connection, std::unordered_map<int64_t, TenantFleetFacts>& facts) {
    // A tenant's feeds by name: those that finished an import and those with a pull source.
    std::map<std::pair<int64_t, std::string>, FleetFeedFacts> feeds;
    auto status = eachRow(connection, "fleet: read feed states",
                          "SELECT tenant_id, feed, last_status, last_message, last_finished_at, last_applied_at FROM feed_states",
                          [&](const PgResult& rows, int row) {
                              FleetFeedFacts& feed = feeds[{rows.integer(row, 0), rows.text(row, 1)}];
                              feed.lastStatus = rows.text(row, 2);
                              feed.lastMessage = rows.text(row, 3);
                              feed.lastFinishedAt = rows.integer(row, 4);
                              feed.lastAppliedAt = rows.integer(row, 5);
                          });
    if (!status) return status;
    status = eachRow(connection, "fleet: read pull sources", "SELECT tenant_id, feed, interval_seconds, last_run_at, last_result FROM pull_sources",
                     [&](const PgResult& rows, int row) {
                         FleetFeedFacts& feed = feeds[{rows.integer(row, 0), rows.text(row, 1)}];
                         feed.pullIntervalSeconds = rows.integer(row, 2);
                         feed.lastPullAt = rows.integer(row, 3);
                         feed.lastPullResult = rows.text(row, 4);
                     });
    if (!status) return status;
    for (auto& [key, feed] : feeds) {
        feed.feed = key.second;
        facts[key.first].feeds.push_back(std::move(feed));
    }
    // Through the partial index feed_imports_held.
    status = eachRow(connection, "fleet: count held imports", "SELECT tenant_id, count(*) FROM feed_imports WHERE status = 'held' GROUP BY tenant_id",
                     [&](const PgResult& rows, int row) { facts[rows.integer(row, 0)].heldImports = rows.integer(row, 1); });
    if (!status) return status;
    status = eachRow(connection, "fleet: read countries", "SELECT tenant_id, country FROM widget_settings WHERE country <> ''",
                     [&](const PgResult& rows, int row) { facts[rows.integer(row, 0)].country = rows.text(row, 1); });
    if (!status) return status;
    return eachRow(connection, "fleet: read shop URLs",
                   "SELECT tenant_id, record::jsonb #>> '{shop,url}' FROM shop_registrations ORDER BY tenant_id, feed_id",
                   [&](const PgResult& rows, int row) {
                       if (!rows.isNull(row, 1)) facts[rows.integer(row, 0)].shopUrls.push_back(rows.text(row, 1));
                   });
}

Status PgFleetStore::readEvents(PgConnection& connection, const FleetPeriod& period, std::unordered_map<int64_t, TenantFleetFacts>& facts) {
    auto status = eachRow(
        connection, "fleet: count lines set aside", "SELECT tenant_id, count(*) FROM ledger_quarantine WHERE at >= $1 GROUP BY tenant_id",
        [&](const PgResult& rows, int row) { facts[rows.integer(row, 0)].quarantinedLines = rows.integer(row, 1); }, {period.quarantineSince});
    if (!status) return status;
    // Claims after each tenant's booking cursor, a range of the claims' key per tenant that ever
    // had a purchase: normally a handful, since the attributor books within seconds.
    status = eachRow(connection, "fleet: count unbooked claims",
                     "SELECT t.tenant_id, w.waiting, w.oldest FROM (SELECT DISTINCT tenant_id FROM tenant_months WHERE purchases > 0) t "
                     "CROSS JOIN LATERAL (SELECT count(*) AS waiting, min(c.received_at) AS oldest FROM order_claims c "
                     "  WHERE c.tenant_id = t.tenant_id "
                     "  AND c.sequence > coalesce((SELECT a.sequence FROM attribution_cursors a WHERE a.tenant_id = t.tenant_id), 0)) w "
                     "WHERE w.waiting > 0",
                     [&](const PgResult& rows, int row) {
                         TenantFleetFacts& tenant = facts[rows.integer(row, 0)];
                         tenant.waitingPurchases = rows.integer(row, 1);
                         tenant.oldestWaitingAt = rows.integer(row, 2);
                     });
    if (!status) return status;
    return eachRow(
        connection, "fleet: read monthly counters",
        "SELECT month, tenant_id, widget_events, purchases, commission FROM tenant_months WHERE month IN ($1, $2)",
        [&](const PgResult& rows, int row) {
            TenantFleetFacts& tenant = facts[rows.integer(row, 1)];
            bool thisMonth = rows.integer(row, 0) == period.thisMonth;
            (thisMonth ? tenant.widgetEventsThisMonth : tenant.widgetEventsLastMonth) = rows.integer(row, 2);
            (thisMonth ? tenant.purchasesThisMonth : tenant.purchasesLastMonth) = rows.integer(row, 3);
            (thisMonth ? tenant.commissionThisMonth : tenant.commissionLastMonth) = rows.integer(row, 4);
        },
        {period.thisMonth, period.lastMonth});
}

Result<std::unordered_map<int64_t, TenantFleetFacts>> PgFleetStore::facts(const FleetPeriod& period) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::unordered_map<int64_t, TenantFleetFacts>> {
        std::unordered_map<int64_t, TenantFleetFacts> facts;
        Status status = connection.inTransaction("fleet: read", [&]() -> Status {
            auto snapshot = connection.execute("fleet: one snapshot", "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            if (!snapshot) return snapshot.error();
            if (auto read = readFeeds(connection, facts); !read) return read;
            return readEvents(connection, period, facts);
        });
        if (!status) return status.error();
        return facts;
    });
}

}  // namespace svc
