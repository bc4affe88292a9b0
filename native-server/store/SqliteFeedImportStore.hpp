#pragma once
#include <mutex>

#include "store/FeedImportStore.hpp"
#include "store/ImportLeases.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteFeedImportStore : public FeedImportStore {
public:
    // `leases`: where running imports hold their leases (ImportLeases).
    SqliteFeedImportStore(SqliteDatabase& db, std::mutex& mutex, LeaseStore& leases, const Clock& clock)
        : db_(db), mutex_(mutex), leases_(leases, clock) {}

    Result<int64_t> create(const FeedImportRecord& record) override;
    Status update(const FeedImportRecord& record) override;
    Result<std::optional<FeedImportRecord>> find(int64_t tenantId, int64_t importId) override;
    Result<std::vector<FeedImportRecord>> list(int64_t tenantId, const std::string& feed, size_t limit) override;
    Result<std::vector<FeedImportRecord>> lastApplied(int64_t tenantId) override;
    Result<std::vector<FeedImportRecord>> catalogSizeHistory(int64_t tenantId, size_t limit) override;
    Result<std::optional<FeedImportRecord>> claimNextQueued(int64_t now) override;
    Result<std::vector<int64_t>> requeueInterrupted() override;

    Status createUpload(const FeedUpload& upload) override;
    Result<std::optional<FeedUpload>> findUpload(const std::string& uploadId) override;
    Status consumeUpload(const std::string& uploadId, int64_t now) override;
    Result<int64_t> queueUploadedFile(const std::string& uploadId, const FeedImportRecord& record) override;

private:
    Result<int64_t> insertRecord(const FeedImportRecord& record);
    // Every column an import's run changes, for the record's id (the caller holds the mutex).
    Status writeProgress(const FeedImportRecord& record);
    // This process's lease on a running import, in the caller's transaction (the caller holds the mutex).
    Status writeLease(int64_t importId);
    // Records of `sql` with ?1 the tenant and ?2 `limit` (when > 0); the caller holds the mutex.
    Result<std::vector<FeedImportRecord>> select(const std::string& sql, int64_t tenantId, int64_t limit);
    SqliteDatabase& db_;
    std::mutex& mutex_;
    ImportLeases leases_;  // of the imports this process runs
};

}  // namespace svc
