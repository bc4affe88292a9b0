#include "store/PgMetricsReader.hpp"

namespace svc {

Result<ImportQueueFigures> PgMetricsReader::importQueue() {
    return database_.withConnection([&](PgConnection& connection) -> Result<ImportQueueFigures> {
        // feed_imports_pending and feed_imports_held (partial indexes) hold just these rows.
        auto found = connection.execute(
            "metrics: import queue",
            "SELECT count(*) FILTER (WHERE status = 'queued'), count(*) FILTER (WHERE status = 'running'), "
            "coalesce(min(created_at) FILTER (WHERE status = 'queued'), 0), (SELECT count(*) FROM feed_imports WHERE status = 'held') "
            "FROM feed_imports WHERE status IN ('queued', 'running')");
        if (!found) return found.error();
        return ImportQueueFigures{found->integer(0, 0), found->integer(0, 1), found->integer(0, 3), found->integer(0, 2)};
    });
}

Result<std::vector<PullSourceFigures>> PgMetricsReader::pullSources() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<PullSourceFigures>> {
        // One row per pull source; its newest applied import by feed_imports_by_feed.
        auto found = connection.execute(
            "metrics: pull sources",
            "SELECT t.api_id, p.feed, p.interval_seconds, p.created_at, "
            "coalesce((SELECT f.finished_at FROM feed_imports f WHERE f.tenant_id = p.tenant_id AND f.feed = p.feed "
            "AND f.status = 'applied' ORDER BY f.id DESC LIMIT 1), 0) "
            "FROM pull_sources p JOIN tenants t ON t.id = p.tenant_id ORDER BY t.api_id, p.feed");
        if (!found) return found.error();
        std::vector<PullSourceFigures> sources;
        for (int row = 0; row < found->rows(); ++row) {
            sources.push_back({found->text(row, 0), found->text(row, 1), found->integer(row, 2), found->integer(row, 3), found->integer(row, 4)});
        }
        return sources;
    });
}

Result<std::vector<PushedFeedFigures>> PgMetricsReader::pushedFeeds() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<PushedFeedFigures>> {
        // One row per feed that ever finished an import (feed_states, kept by a trigger: ADR 0066,
        // 0088), without the pulled ones: bounded by the tenants' feeds, never by the import history.
        auto found = connection.execute(
            "metrics: pushed feeds",
            "SELECT t.api_id, s.feed, s.last_finished_at, s.last_applied_at FROM feed_states s JOIN tenants t ON t.id = s.tenant_id "
            "WHERE NOT EXISTS (SELECT 1 FROM pull_sources p WHERE p.tenant_id = s.tenant_id AND p.feed = s.feed) ORDER BY t.api_id, s.feed");
        if (!found) return found.error();
        std::vector<PushedFeedFigures> feeds;
        for (int row = 0; row < found->rows(); ++row) {
            feeds.push_back({found->text(row, 0), found->text(row, 1), found->integer(row, 2), found->integer(row, 3)});
        }
        return feeds;
    });
}

Result<BookingBacklogFigures> PgMetricsReader::bookingBacklog(int64_t perTenantCap) {
    return database_.withConnection([&](PgConnection& connection) -> Result<BookingBacklogFigures> {
        // Per tenant (configuration), the claims past its cursor, at most perTenantCap of them.
        auto found = connection.execute(
            "metrics: booking backlog",
            "SELECT count(*), coalesce(min(waiting.received_at), 0), "
            "(SELECT count(*) FROM (SELECT 1 FROM ledger_quarantine LIMIT $2) capped) "
            "FROM tenants t CROSS JOIN LATERAL (SELECT c.received_at FROM order_claims c WHERE c.tenant_id = t.id AND c.sequence > "
            "coalesce((SELECT a.sequence FROM attribution_cursors a WHERE a.tenant_id = t.id), 0) ORDER BY c.sequence LIMIT $1) waiting",
            {perTenantCap, kCountCap});
        if (!found) return found.error();
        return BookingBacklogFigures{found->integer(0, 0), found->integer(0, 1), found->integer(0, 2)};
    });
}

std::vector<DatabaseSizeFigures> PgMetricsReader::databaseSizes() {
    std::vector<DatabaseSizeFigures> sizes{{"svc", std::nullopt, std::nullopt}, {"events", std::nullopt, std::nullopt}};
    // A failed read leaves the sizes unknown: /metrics then omits them rather than failing.
    (void)database_.withConnection([&](PgConnection& connection) -> Status {
        auto found = connection.execute(
            "metrics: database sizes",
            "SELECT pg_database_size(current_database()), "
            "(SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_partition_tree('interactions')) + "
            "pg_total_relation_size('event_counts') + pg_total_relation_size('orders') + pg_total_relation_size('order_claims') + "
            "pg_total_relation_size('order_lines') + pg_total_relation_size('ledger') + pg_total_relation_size('ledger_quarantine') + "
            "pg_total_relation_size('attribution_cursors') + pg_total_relation_size('tenant_months')");
        if (!found) return found.error();
        sizes[0].bytes = found->integer(0, 0);
        sizes[1].bytes = found->integer(0, 1);
        return Status::success();
    });
    return sizes;
}

}  // namespace svc
