#include "store/SqliteMetricsReader.hpp"
#include "store/TenantsWithPurchases.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>

namespace svc {

Result<std::unique_ptr<SqliteMetricsReader>> SqliteMetricsReader::open(const std::string& dataDir) {
    auto main = SqliteDatabase::open((std::filesystem::path(dataDir) / "svc.sqlite3").string());
    if (!main) return main.error();
    auto events = SqliteDatabase::open((std::filesystem::path(dataDir) / "events.sqlite3").string());
    if (!events) return events.error();
    return std::unique_ptr<SqliteMetricsReader>(new SqliteMetricsReader(dataDir, std::move(*main), std::move(*events)));
}

Result<ImportQueueFigures> SqliteMetricsReader::importQueue() {
    ImportQueueFigures figures;
    // feed_imports_pending and feed_imports_held (partial indexes) hold just these rows.
    auto pending = main_->prepare(
        "SELECT status, count(*), min(created_at) FROM feed_imports WHERE status IN ('queued', 'running') GROUP BY status");
    if (!pending) return pending.error();
    while (true) {
        auto row = pending->step();
        if (!row) return row.error();
        if (!*row) break;
        if (pending->text(0) == "queued") {
            figures.queued = pending->integer(1);
            figures.oldestQueuedAt = pending->integer(2);
        } else {
            figures.running = pending->integer(1);
        }
    }
    auto held = main_->prepare("SELECT count(*) FROM feed_imports WHERE status = 'held'");
    if (!held) return held.error();
    auto row = held->step();
    if (!row) return row.error();
    figures.held = held->integer(0);
    return figures;
}

Result<std::vector<PullSourceFigures>> SqliteMetricsReader::pullSources() {
    // One row per pull source (configuration); its newest applied import by feed_imports_by_feed,
    // walking back over the failures since (a few while a feed fails).
    auto query = main_->prepare(
        "SELECT t.api_id, p.feed, p.interval_seconds, p.created_at, "
        "coalesce((SELECT f.finished_at FROM feed_imports f WHERE f.tenant_id = p.tenant_id AND f.feed = p.feed "
        "AND f.status = 'applied' ORDER BY f.id DESC LIMIT 1), 0) "
        "FROM pull_sources p JOIN tenants t ON t.id = p.tenant_id ORDER BY t.api_id, p.feed");
    if (!query) return query.error();
    std::vector<PullSourceFigures> sources;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        sources.push_back({query->text(0), query->text(1), query->integer(2), query->integer(3), query->integer(4)});
    }
    return sources;
}

Result<std::vector<PushedFeedFigures>> SqliteMetricsReader::pushedFeeds() {
    // One row per feed that ever finished an import (feed_states, kept by triggers: ADR 0066),
    // without the pulled ones: bounded by the tenants' feeds, never by the import history.
    auto query = main_->prepare(
        "SELECT t.api_id, s.feed, s.last_finished_at, s.last_applied_at FROM feed_states s JOIN tenants t ON t.id = s.tenant_id "
        "WHERE NOT EXISTS (SELECT 1 FROM pull_sources p WHERE p.tenant_id = s.tenant_id AND p.feed = s.feed) ORDER BY t.api_id, s.feed");
    if (!query) return query.error();
    std::vector<PushedFeedFigures> feeds;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        feeds.push_back({query->text(0), query->text(1), query->integer(2), query->integer(3)});
    }
    return feeds;
}

Result<BookingBacklogFigures> SqliteMetricsReader::bookingBacklog(int64_t perTenantCap) {
    BookingBacklogFigures figures;
    // Tenants with claims as the Attributor finds them; then the claims past the tenant's
    // cursor, at most perTenantCap of them.
    auto waiting = events_->prepare(
        "SELECT count(*), min(received_at) FROM (SELECT received_at FROM events WHERE tenant_id = ?1 AND order_id IS NOT NULL AND "
        "sequence > coalesce((SELECT sequence FROM attribution_cursors WHERE tenant_id = ?1), 0) ORDER BY sequence LIMIT ?2)");
    if (!waiting) return waiting.error();
    auto walked = forEachTenantWithPurchases(*events_, [&](int64_t tenantId) -> Status {
        waiting->reset();
        waiting->bind(1, tenantId).bind(2, perTenantCap);
        auto counted = waiting->step();
        if (!counted) return counted.error();
        int64_t claims = waiting->integer(0);
        if (claims == 0) return {};
        figures.claims += claims;
        int64_t oldest = waiting->integer(1);
        if (figures.oldestReceivedAt == 0 || oldest < figures.oldestReceivedAt) figures.oldestReceivedAt = oldest;
        return {};
    });
    if (!walked) return walked.error();
    auto quarantined = events_->prepare("SELECT count(*) FROM (SELECT 1 FROM ledger_quarantine LIMIT ?)");
    if (!quarantined) return quarantined.error();
    quarantined->bind(1, kCountCap);
    auto row = quarantined->step();
    if (!row) return row.error();
    figures.quarantinedLines = quarantined->integer(0);
    return figures;
}

// Labelled by the file's path in the data dir without ".sqlite3": one series per file svc itself created.
std::vector<DatabaseSizeFigures> SqliteMetricsReader::databaseSizes() {
    namespace fs = std::filesystem;
    fs::path dir(dataDir_);
    std::vector<std::pair<fs::path, std::string>> files = {{dir / "svc.sqlite3", "svc"}, {dir / "events.sqlite3", "events"}};
    std::error_code error;
    std::vector<std::pair<fs::path, std::string>> catalogs;
    for (fs::directory_iterator it(dir / "catalog", error), end; !error && it != end; it.increment(error)) {
        const fs::path& file = it->path();
        if (file.extension() == ".sqlite3") catalogs.emplace_back(file, "catalog/" + file.stem().string());
    }
    std::sort(catalogs.begin(), catalogs.end());
    files.insert(files.end(), catalogs.begin(), catalogs.end());
    std::vector<DatabaseSizeFigures> sizes;
    for (const auto& [file, label] : files) {
        DatabaseSizeFigures figures;
        figures.label = label;
        if (auto size = fs::file_size(file, error); !error) figures.bytes = static_cast<int64_t>(size);
        if (auto size = fs::file_size(file.string() + "-wal", error); !error) figures.walBytes = static_cast<int64_t>(size);
        sizes.push_back(std::move(figures));
    }
    return sizes;
}

}  // namespace svc
