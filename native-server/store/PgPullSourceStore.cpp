#include "store/PgPullSourceStore.hpp"

namespace svc {
namespace {

#define SVC_PULL_SOURCE_COLUMNS                                                                                                      \
    "id, tenant_id, feed, url, interval_seconds, delta::int, identifier, delimiter, credentials, etag, last_modified, next_run_at, " \
    "last_run_at, last_result, created_at, kind"

PullSource readSource(const PgResult& rows, int row) {
    PullSource source;
    source.id = rows.integer(row, 0);
    source.tenantId = rows.integer(row, 1);
    source.feed = rows.text(row, 2);
    source.url = rows.text(row, 3);
    source.intervalSeconds = rows.integer(row, 4);
    source.delta = rows.integer(row, 5) != 0;
    source.identifier = rows.text(row, 6);
    std::string delimiter = rows.text(row, 7);
    source.delimiter = delimiter.empty() ? ';' : delimiter[0];
    source.sealedCredentials = rows.text(row, 8);
    source.etag = rows.text(row, 9);
    source.lastModified = rows.text(row, 10);
    source.nextRunAt = rows.integer(row, 11);
    source.lastRunAt = rows.integer(row, 12);
    source.lastResult = rows.text(row, 13);
    source.createdAt = rows.integer(row, 14);
    source.kind = rows.text(row, 15);
    return source;
}

}  // namespace

Result<std::vector<PullSource>> PgPullSourceStore::select(const char* purpose, const char* sql, std::initializer_list<PgParam> params) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<PullSource>> {
        auto found = connection.execute(purpose, sql, params);
        if (!found) return found.error();
        std::vector<PullSource> sources;
        for (int row = 0; row < found->rows(); ++row) sources.push_back(readSource(*found, row));
        return sources;
    });
}

Result<PullSource> PgPullSourceStore::add(const PullSource& source) {
    return database_.withConnection([&](PgConnection& connection) -> Result<PullSource> {
        auto inserted = connection.execute(
            "add pull source",
            "INSERT INTO pull_sources(tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, credentials, next_run_at, "
            "created_at, kind) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (tenant_id, feed) DO NOTHING RETURNING id",
            {source.tenantId, source.feed, source.url, source.intervalSeconds, source.delta ? 1 : 0, source.identifier,
             std::string(1, source.delimiter), source.sealedCredentials, source.nextRunAt, source.createdAt, source.kind});
        if (!inserted) return inserted.error();
        if (inserted->rows() == 0) {
            return Error::alreadyExists("--feed: the tenant's feed '" + source.feed + "' already has a pull source; remove it first");
        }
        PullSource stored = source;
        stored.id = inserted->integer(0, 0);
        return stored;
    });
}

Result<std::vector<PullSource>> PgPullSourceStore::list(int64_t tenantId) {
    return select("list pull sources", "SELECT " SVC_PULL_SOURCE_COLUMNS " FROM pull_sources WHERE tenant_id = $1 ORDER BY feed", {tenantId});
}

Result<std::vector<PullSource>> PgPullSourceStore::listAll() {
    return select("list every pull source", "SELECT " SVC_PULL_SOURCE_COLUMNS " FROM pull_sources ORDER BY id", {});
}

Result<std::optional<PullSource>> PgPullSourceStore::find(int64_t tenantId, const std::string& feed) {
    auto found = select("find pull source", "SELECT " SVC_PULL_SOURCE_COLUMNS " FROM pull_sources WHERE tenant_id = $1 AND feed = $2",
                        {tenantId, feed});
    if (!found) return found.error();
    if (found->empty()) return std::optional<PullSource>();
    return std::optional<PullSource>(found->front());
}

Result<bool> PgPullSourceStore::remove(int64_t tenantId, const std::string& feed) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        auto removed = connection.execute("remove pull source", "DELETE FROM pull_sources WHERE tenant_id = $1 AND feed = $2", {tenantId, feed});
        if (!removed) return removed.error();
        return removed->changedRows() > 0;
    });
}

Status PgPullSourceStore::change(const PullSource& source) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        // The validators belong to the old URL's file: dropped when the URL changes.
        auto changed = connection.execute(
            "change pull source",
            "UPDATE pull_sources SET etag = CASE WHEN url = $1 THEN etag ELSE '' END, "
            "last_modified = CASE WHEN url = $1 THEN last_modified ELSE '' END, url = $1, interval_seconds = $2, delta = $3, "
            "identifier = $4, delimiter = $5, credentials = $6, next_run_at = $7 WHERE tenant_id = $8 AND feed = $9",
            {source.url, source.intervalSeconds, source.delta ? 1 : 0, source.identifier, std::string(1, source.delimiter), source.sealedCredentials,
             source.nextRunAt, source.tenantId, source.feed});
        if (!changed) return changed.error();
        if (changed->changedRows() == 0) return Error::notFound("feed: the tenant has no pull source for feed '" + source.feed + "'");
        return Status::success();
    });
}

Result<std::optional<PullSource>> PgPullSourceStore::claimDue(int64_t now, int64_t lease) {
    auto claimed = select("claim due pull source",
                          "UPDATE pull_sources SET next_run_at = $2 WHERE id = (SELECT id FROM pull_sources WHERE next_run_at <= $1 "
                          "ORDER BY next_run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " SVC_PULL_SOURCE_COLUMNS,
                          {now, now + lease});
    if (!claimed) return claimed.error();
    if (claimed->empty()) return std::optional<PullSource>();
    return std::optional<PullSource>(claimed->front());
}

Status PgPullSourceStore::finish(const PullSource& source) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto finished = connection.execute(
            "finish pull source run",
            "UPDATE pull_sources SET next_run_at = $1, last_run_at = $2, last_result = $3, etag = $4, last_modified = $5 WHERE id = $6",
            {source.nextRunAt, source.lastRunAt, source.lastResult, source.etag, source.lastModified, source.id});
        if (!finished) return finished.error();
        return Status::success();
    });
}

}  // namespace svc
