#include "store/SqliteImageFactStore.hpp"

#include "store/ImageFactColumns.hpp"

namespace svc {
namespace {

constexpr const char* kColumns =
    "tenant_id, url, thumb_key, status, reason, http_status, etag, content_sha256, content_type, bytes, width, height, colors, phash, "
    "attempts, fetched_at, next_attempt_at";

std::string claimName(int64_t tenantId, const std::string& url) { return "image-fetch/" + std::to_string(tenantId) + "/" + url; }

}  // namespace

Result<std::unique_ptr<SqliteImageFactStore>> SqliteImageFactStore::open(const std::string& mainDatabasePath, LeaseStore& leases) {
    auto db = SqliteDatabase::open(mainDatabasePath);
    if (!db) return db.error();
    return std::unique_ptr<SqliteImageFactStore>(new SqliteImageFactStore(std::move(*db), leases));
}

Status SqliteImageFactStore::save(const ImageFacts& facts) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare(std::string("INSERT OR REPLACE INTO image_facts(") + kColumns +
                                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!statement) return statement.error();
    statement->bind(1, facts.tenantId)
        .bind(2, facts.url)
        .bind(3, facts.thumbKey)
        .bind(4, facts.ok() ? "ok" : "failed")
        .bind(5, facts.reason)
        .bind(6, static_cast<int64_t>(facts.httpStatus))
        .bind(7, facts.etag)
        .bind(8, facts.contentSha256)
        .bind(9, facts.contentType)
        .bind(10, facts.bytes)
        .bind(11, static_cast<int64_t>(facts.width))
        .bind(12, static_cast<int64_t>(facts.height))
        .bind(13, ImageFactColumns::colorsJson(facts.colors))
        .bind(14, static_cast<int64_t>(facts.phash))
        .bind(15, static_cast<int64_t>(facts.attempts))
        .bind(16, facts.fetchedAt)
        .bind(17, facts.nextAttemptAt);
    return statement->run();
}

Result<std::optional<ImageFacts>> SqliteImageFactStore::findWhere(const char* column, int64_t tenantId, const std::string& value) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(std::string("SELECT ") + kColumns + " FROM image_facts WHERE tenant_id = ? AND " + column + " = ? LIMIT 1");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, value);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<ImageFacts>();
    ImageFacts facts;
    facts.tenantId = query->integer(0);
    facts.url = query->text(1);
    facts.thumbKey = query->text(2);
    facts.status = query->text(3) == "ok" ? ImageFactStatus::Ok : ImageFactStatus::Failed;
    facts.reason = query->text(4);
    facts.httpStatus = static_cast<long>(query->integer(5));
    facts.etag = query->text(6);
    facts.contentSha256 = query->text(7);
    facts.contentType = query->text(8);
    facts.bytes = query->integer(9);
    facts.width = static_cast<int>(query->integer(10));
    facts.height = static_cast<int>(query->integer(11));
    facts.colors = ImageFactColumns::colorsFrom(query->text(12));
    facts.phash = static_cast<uint64_t>(query->integer(13));
    facts.attempts = static_cast<int>(query->integer(14));
    facts.fetchedAt = query->integer(15);
    facts.nextAttemptAt = query->integer(16);
    return std::optional<ImageFacts>(std::move(facts));
}

Result<std::optional<ImageFacts>> SqliteImageFactStore::find(int64_t tenantId, const std::string& url) { return findWhere("url", tenantId, url); }

Result<std::optional<ImageFacts>> SqliteImageFactStore::findByThumbKey(int64_t tenantId, const std::string& thumbKey) {
    return findWhere("thumb_key", tenantId, thumbKey);
}

Result<std::set<std::string>> SqliteImageFactStore::settledUrls(int64_t tenantId, int64_t now) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT url FROM image_facts WHERE tenant_id = ? AND (status = 'ok' OR next_attempt_at > ?)");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, now);
    std::set<std::string> urls;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        urls.insert(query->text(0));
    }
    return urls;
}

Result<std::vector<ImageFacts>> SqliteImageFactStore::fetched(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT url, thumb_key, width, height, phash FROM image_facts WHERE tenant_id = ? AND status = 'ok'");
    if (!query) return query.error();
    query->bind(1, tenantId);
    std::vector<ImageFacts> all;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        ImageFacts facts;
        facts.tenantId = tenantId;
        facts.status = ImageFactStatus::Ok;
        facts.url = query->text(0);
        facts.thumbKey = query->text(1);
        facts.width = static_cast<int>(query->integer(2));
        facts.height = static_cast<int>(query->integer(3));
        facts.phash = static_cast<uint64_t>(query->integer(4));
        all.push_back(std::move(facts));
    }
    return all;
}

Result<bool> SqliteImageFactStore::claimFetch(int64_t tenantId, const std::string& url, const std::string& owner, int64_t now, int64_t leaseSeconds) {
    return leases_.claim(claimName(tenantId, url), owner, now, leaseSeconds);
}

Status SqliteImageFactStore::releaseFetch(int64_t tenantId, const std::string& url, const std::string& owner) {
    return leases_.release(claimName(tenantId, url), owner);
}

}  // namespace svc
