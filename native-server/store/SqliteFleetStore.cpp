#include "store/SqliteFleetStore.hpp"

#include <filesystem>
#include <map>

namespace svc {
namespace {

Result<std::unique_ptr<SqliteDatabase>> openReadOnly(const std::string& path) {
    auto db = SqliteDatabase::open(path);
    if (!db) return db.error();
    if (auto status = (*db)->execute("PRAGMA query_only=ON"); !status) return status.error();
    return db;
}

// Runs `sql` and hands each row to `visit`.
template <typename Visit>
Status eachRow(SqliteDatabase& db, const char* sql, Visit visit, std::initializer_list<int64_t> parameters = {}) {
    auto query = db.prepare(sql);
    if (!query) return query.error();
    int index = 1;
    for (int64_t parameter : parameters) query->bind(index++, parameter);
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) return {};
        visit(*query);
    }
}

}  // namespace

Result<std::unique_ptr<SqliteFleetStore>> SqliteFleetStore::open(const std::string& dataDir) {
    auto main = openReadOnly((std::filesystem::path(dataDir) / "svc.sqlite3").string());
    if (!main) return main.error();
    auto events = openReadOnly((std::filesystem::path(dataDir) / "events.sqlite3").string());
    if (!events) return events.error();
    return std::unique_ptr<SqliteFleetStore>(new SqliteFleetStore(std::move(*main), std::move(*events)));
}

Status SqliteFleetStore::readMain(std::unordered_map<int64_t, TenantFleetFacts>& facts) {
    auto transaction = SqliteTransaction::beginRead(*main_);
    if (!transaction) return transaction.error();
    // A tenant's feeds by name: those that finished an import and those with a pull source.
    std::map<std::pair<int64_t, std::string>, FleetFeedFacts> feeds;
    auto status = eachRow(*main_, "SELECT tenant_id, feed, last_status, last_message, last_finished_at, last_applied_at FROM feed_states",
                          [&](SqliteStatement& row) {
                              FleetFeedFacts& feed = feeds[{row.integer(0), row.text(1)}];
                              feed.lastStatus = row.text(2);
                              feed.lastMessage = row.text(3);
                              feed.lastFinishedAt = row.integer(4);
                              feed.lastAppliedAt = row.integer(5);
                          });
    if (!status) return status;
    status = eachRow(*main_, "SELECT tenant_id, feed, interval_seconds, last_run_at, last_result FROM pull_sources", [&](SqliteStatement& row) {
        FleetFeedFacts& feed = feeds[{row.integer(0), row.text(1)}];
        feed.pullIntervalSeconds = row.integer(2);
        feed.lastPullAt = row.integer(3);
        feed.lastPullResult = row.text(4);
    });
    if (!status) return status;
    for (auto& [key, feed] : feeds) {
        feed.feed = key.second;
        facts[key.first].feeds.push_back(std::move(feed));
    }
    status = eachRow(*main_, "SELECT tenant_id, COUNT(*) FROM feed_imports WHERE status = 'held' GROUP BY tenant_id",
                     [&](SqliteStatement& row) { facts[row.integer(0)].heldImports = row.integer(1); });
    if (!status) return status;
    status = eachRow(*main_, "SELECT tenant_id, country FROM widget_settings WHERE country <> ''",
                     [&](SqliteStatement& row) { facts[row.integer(0)].country = row.text(1); });
    if (!status) return status;
    return eachRow(*main_, "SELECT tenant_id, json_extract(record, '$.shop.url') FROM shop_registrations ORDER BY tenant_id, feed_id",
                   [&](SqliteStatement& row) {
                       if (!row.isNull(1)) facts[row.integer(0)].shopUrls.push_back(row.text(1));
                   });
}

Status SqliteFleetStore::readEvents(const FleetPeriod& period, std::unordered_map<int64_t, TenantFleetFacts>& facts) {
    auto transaction = SqliteTransaction::beginRead(*events_);
    if (!transaction) return transaction.error();
    auto status = eachRow(
        *events_, "SELECT tenant_id, COUNT(*) FROM ledger_quarantine WHERE at >= ?1 GROUP BY tenant_id",
        [&](SqliteStatement& row) { facts[row.integer(0)].quarantinedLines = row.integer(1); }, {period.quarantineSince});
    if (!status) return status;
    // Claims after each tenant's booking cursor, through events_purchases (tenant_id, sequence):
    // normally a handful, since the attributor books within seconds.
    status = eachRow(*events_,
                     "SELECT t.tenant_id, COUNT(e.sequence), MIN(e.received_at) "
                     "FROM (SELECT DISTINCT tenant_id FROM tenant_months WHERE purchases > 0) t "
                     "JOIN events e ON e.tenant_id = t.tenant_id AND e.order_id IS NOT NULL "
                     " AND e.sequence > COALESCE((SELECT c.sequence FROM attribution_cursors c WHERE c.tenant_id = t.tenant_id), 0) "
                     "GROUP BY t.tenant_id",
                     [&](SqliteStatement& row) {
                         TenantFleetFacts& tenant = facts[row.integer(0)];
                         tenant.waitingPurchases = row.integer(1);
                         tenant.oldestWaitingAt = row.integer(2);
                     });
    if (!status) return status;
    return eachRow(
        *events_, "SELECT month, tenant_id, widget_events, purchases, commission FROM tenant_months WHERE month IN (?1, ?2)",
        [&](SqliteStatement& row) {
            TenantFleetFacts& tenant = facts[row.integer(1)];
            bool thisMonth = row.integer(0) == period.thisMonth;
            (thisMonth ? tenant.widgetEventsThisMonth : tenant.widgetEventsLastMonth) = row.integer(2);
            (thisMonth ? tenant.purchasesThisMonth : tenant.purchasesLastMonth) = row.integer(3);
            (thisMonth ? tenant.commissionThisMonth : tenant.commissionLastMonth) = row.integer(4);
        },
        {period.thisMonth, period.lastMonth});
}

Result<std::unordered_map<int64_t, TenantFleetFacts>> SqliteFleetStore::facts(const FleetPeriod& period) {
    std::lock_guard lock(mutex_);
    std::unordered_map<int64_t, TenantFleetFacts> facts;
    if (auto status = readMain(facts); !status) return status.error();
    if (auto status = readEvents(period, facts); !status) return status.error();
    return facts;
}

}  // namespace svc
