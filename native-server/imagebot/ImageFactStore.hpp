#pragma once
// The image bot's facts in the main database (table image_facts, main migration 7). Its own
// connection, like the widget settings: the bot's workers write while requests read.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>
#include <string>

#include "core/Result.hpp"
#include "imagebot/ImageFacts.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class ImageFactStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<ImageFactStore>> open(const std::string& mainDatabasePath);

    Status save(const ImageFacts& facts);  // insert or replace (tenant, url)
    Result<std::optional<ImageFacts>> find(int64_t tenantId, const std::string& url);
    Result<std::optional<ImageFacts>> findByThumbKey(int64_t tenantId, const std::string& thumbKey);
    // URLs that need no fetch at `now`: done, or failed and not yet due again.
    Result<std::set<std::string>> settledUrls(int64_t tenantId, int64_t now);
    // Every fetched URL's facts that content answers use (thumbnail key, size, pHash).
    Result<std::vector<ImageFacts>> fetched(int64_t tenantId);

private:
    explicit ImageFactStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    Result<std::optional<ImageFacts>> findWhere(const char* column, int64_t tenantId, const std::string& value);

    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
};

}  // namespace svc
