#pragma once
// Import history and pending push uploads, owned by the feed domain.
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "feed/FeedImportRecord.hpp"

namespace svc {

// A pre-signed upload URL handed out by POST /feeds/uploads, usable once.
struct FeedUpload {
    std::string id;  // random, in the URL path
    int64_t tenantId = 0;
    std::string feed = "default";
    std::string identifier;
    char delimiter = ';';
    bool delta = false;
    int64_t expiresAt = 0;
};

class FeedImportStore {
public:
    virtual ~FeedImportStore() = default;
    // Stores a new record and returns its id. A record created already finished (a pull that failed
    // before its import began) is stored whole at once: no reader sees it ended without its message.
    virtual Result<int64_t> create(const FeedImportRecord& record) = 0;
    virtual Status update(const FeedImportRecord& record) = 0;
    virtual Result<std::optional<FeedImportRecord>> find(int64_t tenantId, int64_t importId) = 0;
    // Newest first, without row errors; only `feed`'s imports when it is not empty.
    virtual Result<std::vector<FeedImportRecord>> list(int64_t tenantId, const std::string& feed, size_t limit) = 0;
    // The newest applied import of each of the tenant's feeds, by feed name (the feeds' freshness).
    virtual Result<std::vector<FeedImportRecord>> lastApplied(int64_t tenantId) = 0;
    // The newest `limit` applied imports that recorded the catalog's size after them, oldest first.
    virtual Result<std::vector<FeedImportRecord>> catalogSizeHistory(int64_t tenantId, size_t limit) = 0;
    // Oldest queued import of any tenant, atomically switched to running.
    virtual Result<std::optional<FeedImportRecord>> claimNextQueued(int64_t now) = 0;
    // Imports left running by a process that died: back to queued (their transaction rolled back)
    // when their file is stored, failed otherwise. The ids queued again.
    virtual Result<std::vector<int64_t>> requeueInterrupted() = 0;

    virtual Status createUpload(const FeedUpload& upload) = 0;
    virtual Result<std::optional<FeedUpload>> findUpload(const std::string& uploadId) = 0;
    // Marks the upload used; PermissionDenied when it already was (a replay).
    virtual Status consumeUpload(const std::string& uploadId, int64_t now) = 0;
    // Records the stored file as a queued import in one step with the upload.
    virtual Result<int64_t> queueUploadedFile(const std::string& uploadId, const FeedImportRecord& record) = 0;
};

}  // namespace svc
