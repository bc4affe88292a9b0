#include "store/SqliteFeedImportStore.hpp"

#include <algorithm>

#include "store/FeedImportColumns.hpp"

namespace svc {
namespace {

constexpr const char* kColumns =
    "id, tenant_id, source, delta, identifier, delimiter, status, file_key, created_at, started_at, finished_at, "
    "rows_read, inserted, updated, unchanged, rejected, marked_deleted, message, row_errors, feed, catalog_products, "
    "warnings, unknown_skus, describes_products";

FeedImportRecord readRecord(const SqliteStatement& row, bool withRowErrors) {
    FeedImportRecord record;
    record.id = row.integer(0);
    record.tenantId = row.integer(1);
    record.source = row.text(2);
    record.delta = row.integer(3) != 0;
    record.identifier = row.text(4);
    std::string delimiter = row.text(5);
    record.delimiter = delimiter.empty() ? ';' : delimiter[0];
    if (!parseImportStatus(row.text(6), record.status)) record.status = ImportStatus::Failed;
    record.fileKey = row.text(7);
    record.createdAt = row.integer(8);
    record.startedAt = row.integer(9);
    record.finishedAt = row.integer(10);
    record.rowsRead = row.integer(11);
    record.counts.inserted = row.integer(12);
    record.counts.updated = row.integer(13);
    record.counts.unchanged = row.integer(14);
    record.rejected = row.integer(15);
    record.counts.markedDeleted = row.integer(16);
    record.message = row.text(17);
    record.feed = row.text(19);
    record.catalogProducts = row.isNull(20) ? -1 : row.integer(20);
    record.counts.unknown = row.integer(22);
    record.describesProducts = row.isNull(23) ? std::optional<bool>() : std::optional<bool>(row.integer(23) != 0);
    record.warnings = FeedImportColumns::warningsFrom(row.text(21));
    if (withRowErrors) record.rowErrors = FeedImportColumns::rowErrorsFrom(row.text(18));
    return record;
}

}  // namespace

Result<int64_t> SqliteFeedImportStore::insertRecord(const FeedImportRecord& record) {
    auto insert = db_.prepare(
        "INSERT INTO feed_imports(tenant_id, source, delta, identifier, delimiter, status, file_key, created_at, feed) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, record.tenantId).bind(2, record.source).bind(3, static_cast<int64_t>(record.delta));
    insert->bind(4, record.identifier).bind(5, std::string(1, record.delimiter));
    insert->bind(6, importStatusName(record.status)).bind(7, record.fileKey).bind(8, record.createdAt).bind(9, record.feed);
    if (auto status = insert->run(); !status) return status.error();
    return db_.lastInsertRowId();
}

Status SqliteFeedImportStore::writeLease(int64_t importId) {
    // The import was queued (or is new), so whoever held a lease of that name before has lost it.
    auto lease = leases_.rowForNewImport();
    auto insert = db_.prepare("INSERT INTO leases(name, owner, expires_at) VALUES (?1 || ?2, ?3, ?4) "
                              "ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at");
    if (!insert) return insert.error();
    insert->bind(1, lease.prefix).bind(2, importId).bind(3, lease.owner).bind(4, lease.expiresAt);
    return insert->run();
}

Result<int64_t> SqliteFeedImportStore::create(const FeedImportRecord& record) {
    std::lock_guard lock(mutex_);
    bool running = record.status == ImportStatus::Running;
    if (record.status == ImportStatus::Queued) return insertRecord(record);
    // Created running (a CLI or pulled import run at once): its lease is written in the same
    // transaction, so the server's requeue never sees it running and ownerless (docs/adr/0091).
    // Created finished: its outcome in the same transaction, so nobody reads it ended without why.
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto id = insertRecord(record);
    if (!id) return id.error();
    if (running) {
        if (auto status = writeLease(*id); !status) return status.error();
    } else {
        FeedImportRecord stored = record;
        stored.id = *id;
        if (auto status = writeProgress(stored); !status) return status.error();
    }
    if (auto status = transaction->commit(); !status) return status.error();
    if (running) leases_.adopt(*id);
    return id;
}

Status SqliteFeedImportStore::update(const FeedImportRecord& record) {
    std::lock_guard lock(mutex_);
    // Leased before it shows as running (a held import confirmed): a requeue never sees it ownerless.
    if (record.status == ImportStatus::Running) leases_.hold(record.id);
    if (auto status = writeProgress(record); !status) return status;
    if (record.status != ImportStatus::Running) leases_.release(record.id);
    return Status::success();
}

Status SqliteFeedImportStore::writeProgress(const FeedImportRecord& record) {
    auto statement = db_.prepare(
        "UPDATE feed_imports SET status = ?, file_key = ?, started_at = ?, finished_at = ?, rows_read = ?, inserted = ?, "
        "updated = ?, unchanged = ?, rejected = ?, marked_deleted = ?, message = ?, row_errors = ?, catalog_products = ?, "
        "warnings = ?, unknown_skus = ?, describes_products = ? WHERE id = ? AND tenant_id = ?");
    if (!statement) return statement.error();
    statement->bind(1, importStatusName(record.status)).bind(2, record.fileKey).bind(3, record.startedAt);
    statement->bind(4, record.finishedAt).bind(5, record.rowsRead).bind(6, record.counts.inserted);
    statement->bind(7, record.counts.updated).bind(8, record.counts.unchanged).bind(9, record.rejected);
    statement->bind(10, record.counts.markedDeleted).bind(11, record.message).bind(12, FeedImportColumns::rowErrorsJson(record.rowErrors));
    statement->bind(13, record.catalogProducts < 0 ? std::optional<int64_t>() : std::optional<int64_t>(record.catalogProducts));
    statement->bind(14, FeedImportColumns::warningsJson(record.warnings)).bind(15, record.counts.unknown);
    statement->bind(16, record.describesProducts ? std::optional<int64_t>(*record.describesProducts ? 1 : 0) : std::optional<int64_t>());
    statement->bind(17, record.id).bind(18, record.tenantId);
    return statement->run();
}

Result<std::optional<FeedImportRecord>> SqliteFeedImportStore::find(int64_t tenantId, int64_t importId) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare(std::string("SELECT ") + kColumns + " FROM feed_imports WHERE tenant_id = ? AND id = ?");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, importId);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<FeedImportRecord>{};
    return std::optional<FeedImportRecord>{readRecord(*query, true)};
}

Result<std::vector<FeedImportRecord>> SqliteFeedImportStore::list(int64_t tenantId, const std::string& feed, size_t limit) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare(std::string("SELECT ") + kColumns +
                             " FROM feed_imports WHERE tenant_id = ?1 AND (?2 = '' OR feed = ?2) ORDER BY id DESC LIMIT ?3");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, feed).bind(3, static_cast<int64_t>(limit));
    std::vector<FeedImportRecord> records;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) return records;
        records.push_back(readRecord(*query, false));
    }
}

Result<std::vector<FeedImportRecord>> SqliteFeedImportStore::select(const std::string& sql, int64_t tenantId, int64_t limit) {
    auto query = db_.prepare(sql);
    if (!query) return query.error();
    query->bind(1, tenantId);
    if (limit > 0) query->bind(2, limit);
    std::vector<FeedImportRecord> records;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) return records;
        records.push_back(readRecord(*query, false));
    }
}

Result<std::vector<FeedImportRecord>> SqliteFeedImportStore::lastApplied(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    // The newest applied import of each feed (feed_imports_by_feed serves the inner lookups).
    return select(std::string("SELECT ") + kColumns +
                      " FROM feed_imports WHERE id IN (SELECT MAX(id) FROM feed_imports WHERE tenant_id = ?1 AND status = 'applied' "
                      "GROUP BY feed) ORDER BY feed",
                  tenantId, 0);
}

Result<std::vector<FeedImportRecord>> SqliteFeedImportStore::catalogSizeHistory(int64_t tenantId, size_t limit) {
    std::lock_guard lock(mutex_);
    auto newest = select(std::string("SELECT ") + kColumns +
                             " FROM feed_imports WHERE tenant_id = ?1 AND status = 'applied' AND catalog_products IS NOT NULL "
                             "ORDER BY id DESC LIMIT ?2",
                         tenantId, static_cast<int64_t>(limit));
    if (!newest) return newest.error();
    std::reverse(newest->begin(), newest->end());
    return newest;
}

Result<std::optional<FeedImportRecord>> SqliteFeedImportStore::claimNextQueued(int64_t now) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto query = db_.prepare(std::string("SELECT ") + kColumns + " FROM feed_imports WHERE status = 'queued' ORDER BY id LIMIT 1");
    if (!query) return query.error();
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<FeedImportRecord>{};
    FeedImportRecord record = readRecord(*query, false);
    auto claim = db_.prepare("UPDATE feed_imports SET status = 'running', started_at = ? WHERE id = ?");
    if (!claim) return claim.error();
    claim->bind(1, now).bind(2, record.id);
    if (auto status = claim->run(); !status) return status.error();
    if (auto status = writeLease(record.id); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    leases_.adopt(record.id);
    record.status = ImportStatus::Running;
    record.startedAt = now;
    return std::optional<FeedImportRecord>{record};
}

Result<std::vector<int64_t>> SqliteFeedImportStore::requeueInterrupted() {
    std::lock_guard lock(mutex_);
    // Only imports whose owner is gone: a CLI import running in another process (or one
    // this process runs) holds its lease.
    std::vector<std::pair<int64_t, bool>> ownerless;  // id, has a stored file
    {
        auto running = db_.prepare("SELECT id, file_key <> '' FROM feed_imports WHERE status = 'running'");
        if (!running) return running.error();
        while (true) {
            auto row = running->step();
            if (!row) return row.error();
            if (!*row) break;
            int64_t id = running->integer(0);
            if (!leases_.held(id)) ownerless.emplace_back(id, running->integer(1) != 0);
        }
    }
    // Stored files (pushes) run again; an interrupted CLI import has no file to run from.
    auto requeue = db_.prepare("UPDATE feed_imports SET status = 'queued', started_at = 0 WHERE id = ? AND status = 'running'");
    auto fail = db_.prepare("UPDATE feed_imports SET status = 'failed', message = 'interrupted: the process stopped during the import; "
                            "nothing was applied' WHERE id = ? AND status = 'running'");
    if (!requeue) return requeue.error();
    if (!fail) return fail.error();
    std::vector<int64_t> requeued;
    for (const auto& [id, hasFile] : ownerless) {
        auto& statement = hasFile ? *requeue : *fail;
        statement.reset();
        statement.bind(1, id);
        if (auto status = statement.run(); !status) return status.error();
        if (hasFile && db_.changes() == 1) requeued.push_back(id);
    }
    return requeued;
}

Status SqliteFeedImportStore::createUpload(const FeedUpload& upload) {
    std::lock_guard lock(mutex_);
    auto insert = db_.prepare(
        "INSERT INTO feed_uploads(id, tenant_id, identifier, delimiter, delta, expires_at, feed) VALUES (?, ?, ?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, upload.id).bind(2, upload.tenantId).bind(3, upload.identifier).bind(4, std::string(1, upload.delimiter));
    insert->bind(5, static_cast<int64_t>(upload.delta)).bind(6, upload.expiresAt).bind(7, upload.feed);
    return insert->run();
}

Result<std::optional<FeedUpload>> SqliteFeedImportStore::findUpload(const std::string& uploadId) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT id, tenant_id, identifier, delimiter, delta, expires_at, feed FROM feed_uploads WHERE id = ?");
    if (!query) return query.error();
    query->bind(1, uploadId);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<FeedUpload>{};
    FeedUpload upload;
    upload.id = query->text(0);
    upload.tenantId = query->integer(1);
    upload.identifier = query->text(2);
    std::string delimiter = query->text(3);
    upload.delimiter = delimiter.empty() ? ';' : delimiter[0];
    upload.delta = query->integer(4) != 0;
    upload.expiresAt = query->integer(5);
    upload.feed = query->text(6);
    return std::optional<FeedUpload>{upload};
}

Status SqliteFeedImportStore::consumeUpload(const std::string& uploadId, int64_t now) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare("UPDATE feed_uploads SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL");
    if (!statement) return statement.error();
    statement->bind(1, now).bind(2, uploadId);
    if (auto status = statement->run(); !status) return status;
    if (db_.changes() != 1) return Error::permissionDenied("this upload URL was already used");
    return Status::success();
}

Result<int64_t> SqliteFeedImportStore::queueUploadedFile(const std::string& uploadId, const FeedImportRecord& record) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto id = insertRecord(record);
    if (!id) return id.error();
    auto link = db_.prepare("UPDATE feed_uploads SET import_id = ? WHERE id = ?");
    if (!link) return link.error();
    link->bind(1, *id).bind(2, uploadId);
    if (auto status = link->run(); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    return *id;
}

}  // namespace svc
