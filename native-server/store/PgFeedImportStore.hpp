#pragma once
// FeedImportStore on PostgreSQL (docs/adr/0086). claimNextQueued is one UPDATE of the oldest
// queued import chosen FOR UPDATE SKIP LOCKED (nodes claiming at once get different imports);
// the claimer then holds the lease import/<id> (ImportLeases) while it runs, so a node reclaims
// only imports whose owner is gone. The fleet view's feed_states (kept by triggers on SQLite)
// come with PgFleetStore.
#include "core/Clock.hpp"
#include "store/FeedImportStore.hpp"
#include "store/ImportLeases.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgFeedImportStore : public FeedImportStore {
public:
    // `leases`: where running imports hold their leases (ImportLeases).
    PgFeedImportStore(PgDatabase& database, LeaseStore& leases, const Clock& clock) : database_(database), leases_(leases, clock) {}

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
    Result<std::vector<FeedImportRecord>> select(const char* purpose, const char* sql, std::initializer_list<PgParam> params, bool withRowErrors);

    PgDatabase& database_;
    ImportLeases leases_;  // of the imports this node runs
};

}  // namespace svc
