#include "store/SqlitePullSourceStore.hpp"

#include <filesystem>

namespace svc {
namespace {

constexpr const char* kColumns =
    "id, tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, credentials, etag, last_modified, next_run_at, "
    "last_run_at, last_result, created_at, kind";

PullSource readSource(const SqliteStatement& row) {
    PullSource source;
    source.id = row.integer(0);
    source.tenantId = row.integer(1);
    source.feed = row.text(2);
    source.url = row.text(3);
    source.intervalSeconds = row.integer(4);
    source.delta = row.integer(5) != 0;
    source.identifier = row.text(6);
    std::string delimiter = row.text(7);
    source.delimiter = delimiter.empty() ? ';' : delimiter[0];
    source.sealedCredentials = row.text(8);
    source.etag = row.text(9);
    source.lastModified = row.text(10);
    source.nextRunAt = row.integer(11);
    source.lastRunAt = row.integer(12);
    source.lastResult = row.text(13);
    source.createdAt = row.integer(14);
    source.kind = row.text(15);
    return source;
}

}  // namespace

Result<std::unique_ptr<SqlitePullSourceStore>> SqlitePullSourceStore::open(const std::string& dataDir) {
    auto db = SqliteDatabase::open((std::filesystem::path(dataDir) / "svc.sqlite3").string());
    if (!db) return db.error();
    return std::unique_ptr<SqlitePullSourceStore>(new SqlitePullSourceStore(std::move(*db)));
}

Result<std::vector<PullSource>> SqlitePullSourceStore::select(const std::string& where, int64_t tenantId, const std::string& text,
                                                              int64_t limit) {
    auto query = db_->prepare(std::string("SELECT ") + kColumns + " FROM pull_sources WHERE " + where);
    if (!query) return query.error();
    query->bind(1, tenantId);
    if (where.find("?2") != std::string::npos) query->bind(2, text);
    if (where.find("?3") != std::string::npos) query->bind(3, limit);
    std::vector<PullSource> sources;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        sources.push_back(readSource(*query));
    }
    return sources;
}

Result<PullSource> SqlitePullSourceStore::add(const PullSource& source) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    auto existing = select("tenant_id = ?1 AND feed = ?2", source.tenantId, source.feed, 0);
    if (!existing) return existing.error();
    if (!existing->empty()) {
        return Error::alreadyExists("--feed: the tenant's feed '" + source.feed + "' already has a pull source; remove it first");
    }
    auto insert = db_->prepare(
        "INSERT INTO pull_sources(tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, credentials, next_run_at, "
        "created_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, source.tenantId).bind(2, source.feed).bind(3, source.url).bind(4, source.intervalSeconds);
    insert->bind(5, static_cast<int64_t>(source.delta)).bind(6, source.identifier).bind(7, std::string(1, source.delimiter));
    insert->bind(8, source.sealedCredentials).bind(9, source.nextRunAt).bind(10, source.createdAt).bind(11, source.kind);
    if (auto status = insert->run(); !status) return status.error();
    PullSource stored = source;
    stored.id = db_->lastInsertRowId();
    if (auto status = transaction->commit(); !status) return status.error();
    return stored;
}

Result<std::vector<PullSource>> SqlitePullSourceStore::list(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    return select("tenant_id = ?1 ORDER BY feed", tenantId, "", 0);
}

Result<std::vector<PullSource>> SqlitePullSourceStore::listAll() {
    std::lock_guard lock(mutex_);
    return select("?1 = ?1 ORDER BY id", 0, "", 0);
}

Result<std::optional<PullSource>> SqlitePullSourceStore::find(int64_t tenantId, const std::string& feed) {
    std::lock_guard lock(mutex_);
    auto found = select("tenant_id = ?1 AND feed = ?2", tenantId, feed, 0);
    if (!found) return found.error();
    if (found->empty()) return std::optional<PullSource>();
    return std::optional<PullSource>(found->front());
}

Result<bool> SqlitePullSourceStore::remove(int64_t tenantId, const std::string& feed) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM pull_sources WHERE tenant_id = ? AND feed = ?");
    if (!statement) return statement.error();
    statement->bind(1, tenantId).bind(2, feed);
    if (auto status = statement->run(); !status) return status.error();
    return db_->changes() > 0;
}

Status SqlitePullSourceStore::change(const PullSource& source) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare(
        "UPDATE pull_sources SET etag = CASE WHEN url = ?1 THEN etag ELSE '' END, "
        "last_modified = CASE WHEN url = ?1 THEN last_modified ELSE '' END, url = ?1, interval_seconds = ?2, delta = ?3, "
        "identifier = ?4, delimiter = ?5, credentials = ?6, next_run_at = ?7 WHERE tenant_id = ?8 AND feed = ?9");
    if (!statement) return statement.error();
    statement->bind(1, source.url).bind(2, source.intervalSeconds).bind(3, static_cast<int64_t>(source.delta));
    statement->bind(4, source.identifier).bind(5, std::string(1, source.delimiter)).bind(6, source.sealedCredentials);
    statement->bind(7, source.nextRunAt).bind(8, source.tenantId).bind(9, source.feed);
    if (auto status = statement->run(); !status) return status;
    if (db_->changes() == 0) return Error::notFound("feed: the tenant has no pull source for feed '" + source.feed + "'");
    return Status::success();
}

Result<std::optional<PullSource>> SqlitePullSourceStore::claimDue(int64_t now, int64_t lease) {
    std::lock_guard lock(mutex_);
    // A few attempts: another process may claim the same row between our SELECT and UPDATE.
    for (int attempt = 0; attempt < 4; ++attempt) {
        auto due = select("next_run_at <= ?1 ORDER BY next_run_at, id LIMIT ?3", now, "", 1);
        if (!due) return due.error();
        if (due->empty()) return std::optional<PullSource>();
        PullSource source = due->front();
        auto claim = db_->prepare("UPDATE pull_sources SET next_run_at = ? WHERE id = ? AND next_run_at = ?");
        if (!claim) return claim.error();
        claim->bind(1, now + lease).bind(2, source.id).bind(3, source.nextRunAt);
        if (auto status = claim->run(); !status) return status.error();
        if (db_->changes() == 1) {
            source.nextRunAt = now + lease;
            return std::optional<PullSource>(source);
        }
    }
    return std::optional<PullSource>();
}

Status SqlitePullSourceStore::finish(const PullSource& source) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare(
        "UPDATE pull_sources SET next_run_at = ?, last_run_at = ?, last_result = ?, etag = ?, last_modified = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, source.nextRunAt).bind(2, source.lastRunAt).bind(3, source.lastResult).bind(4, source.etag);
    statement->bind(5, source.lastModified).bind(6, source.id);
    return statement->run();
}

}  // namespace svc
