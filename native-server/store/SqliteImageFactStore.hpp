#pragma once
// ImageFactStore in the main database (table image_facts, main migration 7), on a connection
// of its own: the bot's workers write while requests read. Fetch claims are rows of `leases`
// (main migration 18) named image-fetch/<tenant>/<url>: one data dir needs no table of its own.
#include <memory>
#include <mutex>
#include <string>

#include "store/ImageFactStore.hpp"
#include "store/LeaseStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteImageFactStore : public ImageFactStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    // `leases`: where fetch claims are held.
    static Result<std::unique_ptr<SqliteImageFactStore>> open(const std::string& mainDatabasePath, LeaseStore& leases);

    Status save(const ImageFacts& facts) override;
    Result<std::optional<ImageFacts>> find(int64_t tenantId, const std::string& url) override;
    Result<std::optional<ImageFacts>> findByThumbKey(int64_t tenantId, const std::string& thumbKey) override;
    Result<std::set<std::string>> settledUrls(int64_t tenantId, int64_t now) override;
    Result<std::vector<ImageFacts>> fetched(int64_t tenantId) override;
    Result<bool> claimFetch(int64_t tenantId, const std::string& url, const std::string& owner, int64_t now, int64_t leaseSeconds) override;
    Status releaseFetch(int64_t tenantId, const std::string& url, const std::string& owner) override;

private:
    SqliteImageFactStore(std::unique_ptr<SqliteDatabase> db, LeaseStore& leases) : db_(std::move(db)), leases_(leases) {}
    Result<std::optional<ImageFacts>> findWhere(const char* column, int64_t tenantId, const std::string& value);

    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
    LeaseStore& leases_;
};

}  // namespace svc
