#include "store/PgFeedImportStore.hpp"

#include <algorithm>

#include "store/FeedImportColumns.hpp"

namespace svc {
namespace {

#define SVC_IMPORT_COLUMNS                                                                                                          \
    "id, tenant_id, source, delta::int, identifier, delimiter, status, file_key, created_at, started_at, finished_at, "            \
    "rows_read, inserted, updated, unchanged, rejected, marked_deleted, message, row_errors, feed, catalog_products, warnings, " \
    "unknown_skus, describes_products::int"

// The import was queued (or is new), so whoever held a lease of that name before has lost it.
#define SVC_TAKE_IMPORT_LEASE "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at"

FeedImportRecord readRecord(const PgResult& rows, int row, bool withRowErrors) {
    FeedImportRecord record;
    record.id = rows.integer(row, 0);
    record.tenantId = rows.integer(row, 1);
    record.source = rows.text(row, 2);
    record.delta = rows.integer(row, 3) != 0;
    record.identifier = rows.text(row, 4);
    std::string delimiter = rows.text(row, 5);
    record.delimiter = delimiter.empty() ? ';' : delimiter[0];
    if (!parseImportStatus(rows.text(row, 6), record.status)) record.status = ImportStatus::Failed;
    record.fileKey = rows.text(row, 7);
    record.createdAt = rows.integer(row, 8);
    record.startedAt = rows.integer(row, 9);
    record.finishedAt = rows.integer(row, 10);
    record.rowsRead = rows.integer(row, 11);
    record.counts.inserted = rows.integer(row, 12);
    record.counts.updated = rows.integer(row, 13);
    record.counts.unchanged = rows.integer(row, 14);
    record.rejected = rows.integer(row, 15);
    record.counts.markedDeleted = rows.integer(row, 16);
    record.message = rows.text(row, 17);
    if (withRowErrors) record.rowErrors = FeedImportColumns::rowErrorsFrom(rows.text(row, 18));
    record.feed = rows.text(row, 19);
    record.catalogProducts = rows.isNull(row, 20) ? -1 : rows.integer(row, 20);
    record.warnings = FeedImportColumns::warningsFrom(rows.text(row, 21));
    record.counts.unknown = rows.integer(row, 22);
    record.describesProducts = rows.isNull(row, 23) ? std::optional<bool>() : std::optional<bool>(rows.integer(row, 23) != 0);
    return record;
}

Result<int64_t> insertRecord(PgConnection& connection, const FeedImportRecord& record) {
    auto inserted = connection.execute("create import record",
                                       "INSERT INTO feed_imports(tenant_id, source, delta, identifier, delimiter, status, file_key, created_at, feed) "
                                       "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                                       {record.tenantId, record.source, record.delta ? 1 : 0, record.identifier, std::string(1, record.delimiter),
                                        importStatusName(record.status), record.fileKey, record.createdAt, record.feed});
    if (!inserted) return inserted.error();
    return inserted->integer(0, 0);
}

// Every column an import's run changes, for the record's id.
Status writeProgress(PgConnection& connection, const FeedImportRecord& record) {
    auto updated = connection.execute(
        "update import record",
        "UPDATE feed_imports SET status = $1, file_key = $2, started_at = $3, finished_at = $4, rows_read = $5, inserted = $6, "
        "updated = $7, unchanged = $8, rejected = $9, marked_deleted = $10, message = $11, row_errors = $12, catalog_products = $13, "
        "warnings = $14, unknown_skus = $15, describes_products = $16 WHERE id = $17 AND tenant_id = $18",
        {importStatusName(record.status), record.fileKey, record.startedAt, record.finishedAt, record.rowsRead, record.counts.inserted,
         record.counts.updated, record.counts.unchanged, record.rejected, record.counts.markedDeleted, record.message,
         FeedImportColumns::rowErrorsJson(record.rowErrors),
         record.catalogProducts < 0 ? std::optional<int64_t>() : std::optional<int64_t>(record.catalogProducts),
         FeedImportColumns::warningsJson(record.warnings), record.counts.unknown,
         record.describesProducts ? std::optional<std::string>(*record.describesProducts ? "true" : "false") : std::optional<std::string>(),
         record.id, record.tenantId});
    if (!updated) return updated.error();
    return Status::success();
}

}  // namespace

Result<std::vector<FeedImportRecord>> PgFeedImportStore::select(const char* purpose, const char* sql, std::initializer_list<PgParam> params,
                                                                bool withRowErrors) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<FeedImportRecord>> {
        auto found = connection.execute(purpose, sql, params);
        if (!found) return found.error();
        std::vector<FeedImportRecord> records;
        for (int row = 0; row < found->rows(); ++row) records.push_back(readRecord(*found, row, withRowErrors));
        return records;
    });
}

Result<int64_t> PgFeedImportStore::create(const FeedImportRecord& record) {
    if (record.status == ImportStatus::Queued) {
        return database_.withConnection([&](PgConnection& connection) { return insertRecord(connection, record); });
    }
    if (record.status != ImportStatus::Running) {
        // Created finished: inserted with its outcome in one transaction, so nobody reads it ended without why.
        return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
            int64_t id = 0;
            auto stored = connection.inTransaction("create finished import record", [&]() -> Status {
                auto inserted = insertRecord(connection, record);
                if (!inserted) return inserted.error();
                id = *inserted;
                FeedImportRecord withId = record;
                withId.id = id;
                return writeProgress(connection, withId);
            });
            if (!stored) return stored.error();
            return id;
        });
    }
    // Created running (a CLI or pulled import run at once): its lease is written by the same statement.
    auto lease = leases_.rowForNewImport();
    auto created = database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        auto inserted = connection.execute(
            "create running import record",
            "WITH created AS (INSERT INTO feed_imports(tenant_id, source, delta, identifier, delimiter, status, file_key, created_at, feed) "
            "VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, $8) RETURNING id), "
            "held AS (INSERT INTO leases(name, owner, expires_at) SELECT $9::text || id, $10::text, $11::bigint FROM created " SVC_TAKE_IMPORT_LEASE ") "
            "SELECT id FROM created",
            {record.tenantId, record.source, record.delta ? 1 : 0, record.identifier, std::string(1, record.delimiter), record.fileKey,
             record.createdAt, record.feed, lease.prefix, lease.owner, lease.expiresAt});
        if (!inserted) return inserted.error();
        return inserted->integer(0, 0);
    });
    if (created) leases_.adopt(*created);
    return created;
}

Status PgFeedImportStore::update(const FeedImportRecord& record) {
    // Leased before it shows as running (a held import confirmed): a requeue never sees it ownerless.
    if (record.status == ImportStatus::Running) leases_.hold(record.id);
    Status status = database_.withConnection([&](PgConnection& connection) { return writeProgress(connection, record); });
    if (!status) return status;
    if (record.status != ImportStatus::Running) leases_.release(record.id);
    return Status::success();
}

Result<std::optional<FeedImportRecord>> PgFeedImportStore::find(int64_t tenantId, int64_t importId) {
    auto found = select("find import record", "SELECT " SVC_IMPORT_COLUMNS " FROM feed_imports WHERE tenant_id = $1 AND id = $2",
                        {tenantId, importId}, true);
    if (!found) return found.error();
    if (found->empty()) return std::optional<FeedImportRecord>{};
    return std::optional<FeedImportRecord>{found->front()};
}

Result<std::vector<FeedImportRecord>> PgFeedImportStore::list(int64_t tenantId, const std::string& feed, size_t limit) {
    return select("list import records",
                  "SELECT " SVC_IMPORT_COLUMNS " FROM feed_imports WHERE tenant_id = $1 AND ($2 = '' OR feed = $2) ORDER BY id DESC LIMIT $3",
                  {tenantId, feed, static_cast<int64_t>(limit)}, false);
}

Result<std::vector<FeedImportRecord>> PgFeedImportStore::lastApplied(int64_t tenantId) {
    return select("list last applied imports",
                  "SELECT DISTINCT ON (feed) " SVC_IMPORT_COLUMNS
                  " FROM feed_imports WHERE tenant_id = $1 AND status = 'applied' ORDER BY feed, id DESC",
                  {tenantId}, false);
}

Result<std::vector<FeedImportRecord>> PgFeedImportStore::catalogSizeHistory(int64_t tenantId, size_t limit) {
    auto newest = select("read catalog size history",
                         "SELECT " SVC_IMPORT_COLUMNS " FROM feed_imports WHERE tenant_id = $1 AND status = 'applied' "
                         "AND catalog_products IS NOT NULL ORDER BY id DESC LIMIT $2",
                         {tenantId, static_cast<int64_t>(limit)}, false);
    if (!newest) return newest.error();
    std::reverse(newest->begin(), newest->end());
    return newest;
}

Result<std::optional<FeedImportRecord>> PgFeedImportStore::claimNextQueued(int64_t now) {
    // The claim and its lease in one statement: a requeue on another node sees the import either
    // queued or running with a live owner, never running and ownerless (docs/adr/0091).
    auto lease = leases_.rowForNewImport();
    auto claimed = select("claim queued import",
                          "WITH claimed AS (UPDATE feed_imports SET status = 'running', started_at = $1 WHERE id = (SELECT id FROM feed_imports "
                          "WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " SVC_IMPORT_COLUMNS "), "
                          "held AS (INSERT INTO leases(name, owner, expires_at) SELECT $2::text || id, $3::text, $4::bigint FROM claimed " SVC_TAKE_IMPORT_LEASE ") "
                          "SELECT * FROM claimed",
                          {now, lease.prefix, lease.owner, lease.expiresAt}, false);
    if (!claimed) return claimed.error();
    if (claimed->empty()) return std::optional<FeedImportRecord>{};
    leases_.adopt(claimed->front().id);
    return std::optional<FeedImportRecord>{claimed->front()};
}

Result<std::vector<int64_t>> PgFeedImportStore::requeueInterrupted() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<int64_t>> {
        std::vector<int64_t> requeued;
        // Only imports whose owner is gone: another node or process running one holds its lease.
        auto running = connection.execute("find running imports", "SELECT id, (file_key <> '')::int FROM feed_imports WHERE status = 'running'");
        if (!running) return running.error();
        for (int row = 0; row < running->rows(); ++row) {
            int64_t id = running->integer(row, 0);
            if (leases_.held(id)) continue;
            // Stored files (pushes) run again; an interrupted CLI import has no file to run from.
            auto changed = running->integer(row, 1) != 0
                               ? connection.execute("requeue interrupted import",
                                                    "UPDATE feed_imports SET status = 'queued', started_at = 0 WHERE id = $1 AND status = 'running'", {id})
                               : connection.execute("fail interrupted import",
                                                    "UPDATE feed_imports SET status = 'failed', message = 'interrupted: the process stopped during "
                                                    "the import; nothing was applied' WHERE id = $1 AND status = 'running'",
                                                    {id});
            if (!changed) return changed.error();
            if (running->integer(row, 1) != 0 && changed->changedRows() == 1) requeued.push_back(id);
        }
        return requeued;
    });
}

Status PgFeedImportStore::createUpload(const FeedUpload& upload) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto created = connection.execute(
            "create feed upload",
            "INSERT INTO feed_uploads(id, tenant_id, identifier, delimiter, delta, expires_at, feed) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            {upload.id, upload.tenantId, upload.identifier, std::string(1, upload.delimiter), upload.delta ? 1 : 0, upload.expiresAt, upload.feed});
        if (!created) return created.error();
        return Status::success();
    });
}

Result<std::optional<FeedUpload>> PgFeedImportStore::findUpload(const std::string& uploadId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<FeedUpload>> {
        auto found = connection.execute("find feed upload",
                                        "SELECT id, tenant_id, identifier, delimiter, delta::int, expires_at, feed FROM feed_uploads WHERE id = $1",
                                        {uploadId});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<FeedUpload>{};
        FeedUpload upload;
        upload.id = found->text(0, 0);
        upload.tenantId = found->integer(0, 1);
        upload.identifier = found->text(0, 2);
        std::string delimiter = found->text(0, 3);
        upload.delimiter = delimiter.empty() ? ';' : delimiter[0];
        upload.delta = found->integer(0, 4) != 0;
        upload.expiresAt = found->integer(0, 5);
        upload.feed = found->text(0, 6);
        return std::optional<FeedUpload>{upload};
    });
}

Status PgFeedImportStore::consumeUpload(const std::string& uploadId, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto consumed = connection.execute("consume feed upload", "UPDATE feed_uploads SET consumed_at = $1 WHERE id = $2 AND consumed_at IS NULL",
                                           {now, uploadId});
        if (!consumed) return consumed.error();
        if (consumed->changedRows() != 1) return Error::permissionDenied("this upload URL was already used");
        return Status::success();
    });
}

Result<int64_t> PgFeedImportStore::queueUploadedFile(const std::string& uploadId, const FeedImportRecord& record) {
    return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        int64_t id = 0;
        Status status = connection.inTransaction("queue uploaded file", [&]() -> Status {
            auto created = insertRecord(connection, record);
            if (!created) return created.error();
            id = *created;
            auto linked = connection.execute("queue uploaded file: link the upload", "UPDATE feed_uploads SET import_id = $1 WHERE id = $2",
                                             {id, uploadId});
            if (!linked) return linked.error();
            return Status::success();
        });
        if (!status) return status.error();
        return id;
    });
}

}  // namespace svc
