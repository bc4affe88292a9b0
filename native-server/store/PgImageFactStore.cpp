#include "store/PgImageFactStore.hpp"

#include <sodium.h>

#include <array>

#include "store/ImageFactColumns.hpp"

namespace svc {
namespace {

#define SVC_IMAGE_FACT_COLUMNS                                                                                                      \
    "tenant_id, url, thumb_key, status, reason, http_status, etag, content_sha256, content_type, bytes, width, height, colors, phash, " \
    "attempts, fetched_at, next_attempt_at"

// The key of a URL: its SHA-256, computed by the server from the same parameter.
#define SVC_URL_HASH(parameter) "sha256(convert_to(" parameter ", 'UTF8'))"

ImageFacts readFacts(const PgResult& rows, int row) {
    ImageFacts facts;
    facts.tenantId = rows.integer(row, 0);
    facts.url = rows.text(row, 1);
    facts.thumbKey = rows.text(row, 2);
    facts.status = rows.text(row, 3) == "ok" ? ImageFactStatus::Ok : ImageFactStatus::Failed;
    facts.reason = rows.text(row, 4);
    facts.httpStatus = static_cast<long>(rows.integer(row, 5));
    facts.etag = rows.text(row, 6);
    facts.contentSha256 = rows.text(row, 7);
    facts.contentType = rows.text(row, 8);
    facts.bytes = rows.integer(row, 9);
    facts.width = static_cast<int>(rows.integer(row, 10));
    facts.height = static_cast<int>(rows.integer(row, 11));
    facts.colors = ImageFactColumns::colorsFrom(rows.text(row, 12));
    facts.phash = static_cast<uint64_t>(rows.integer(row, 13));
    facts.attempts = static_cast<int>(rows.integer(row, 14));
    facts.fetchedAt = rows.integer(row, 15);
    facts.nextAttemptAt = rows.integer(row, 16);
    return facts;
}

}  // namespace

Status PgImageFactStore::save(const ImageFacts& facts) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto saved = connection.execute(
            "save image facts",
            "INSERT INTO image_facts(url_hash, " SVC_IMAGE_FACT_COLUMNS ") VALUES (" SVC_URL_HASH("$2") ", "
            "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) "
            "ON CONFLICT (tenant_id, url_hash) DO UPDATE SET thumb_key = excluded.thumb_key, status = excluded.status, reason = excluded.reason, "
            "http_status = excluded.http_status, etag = excluded.etag, content_sha256 = excluded.content_sha256, content_type = excluded.content_type, "
            "bytes = excluded.bytes, width = excluded.width, height = excluded.height, colors = excluded.colors, phash = excluded.phash, "
            "attempts = excluded.attempts, fetched_at = excluded.fetched_at, next_attempt_at = excluded.next_attempt_at",
            {facts.tenantId, facts.url, facts.thumbKey, facts.ok() ? "ok" : "failed", facts.reason, static_cast<int64_t>(facts.httpStatus), facts.etag,
             facts.contentSha256, facts.contentType, facts.bytes, facts.width, facts.height, ImageFactColumns::colorsJson(facts.colors),
             static_cast<int64_t>(facts.phash), facts.attempts, facts.fetchedAt, facts.nextAttemptAt});
        if (!saved) return saved.error();
        return Status::success();
    });
}

Result<std::optional<ImageFacts>> PgImageFactStore::findOne(const char* purpose, const char* sql, int64_t tenantId, const std::string& value) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<ImageFacts>> {
        auto rows = connection.execute(purpose, sql, {tenantId, value});
        if (!rows) return rows.error();
        if (rows->rows() == 0) return std::optional<ImageFacts>();
        return std::optional<ImageFacts>(readFacts(*rows, 0));
    });
}

Result<std::optional<ImageFacts>> PgImageFactStore::find(int64_t tenantId, const std::string& url) {
    return findOne("find image facts",
                   "SELECT " SVC_IMAGE_FACT_COLUMNS " FROM image_facts WHERE tenant_id = $1 AND url_hash = " SVC_URL_HASH("$2") " AND url = $2",
                   tenantId, url);
}

Result<std::optional<ImageFacts>> PgImageFactStore::findByThumbKey(int64_t tenantId, const std::string& thumbKey) {
    return findOne("find image facts by thumbnail key",
                   "SELECT " SVC_IMAGE_FACT_COLUMNS " FROM image_facts WHERE tenant_id = $1 AND thumb_key = $2 LIMIT 1", tenantId, thumbKey);
}

Result<std::set<std::string>> PgImageFactStore::settledUrls(int64_t tenantId, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::set<std::string>> {
        auto rows = connection.execute("read settled image URLs",
                                       "SELECT url FROM image_facts WHERE tenant_id = $1 AND (status = 'ok' OR next_attempt_at > $2)", {tenantId, now});
        if (!rows) return rows.error();
        std::set<std::string> urls;
        for (int row = 0; row < rows->rows(); ++row) urls.insert(rows->text(row, 0));
        return urls;
    });
}

Result<std::vector<ImageFacts>> PgImageFactStore::fetched(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<ImageFacts>> {
        auto rows = connection.execute("read fetched images",
                                       "SELECT url, thumb_key, width, height, phash FROM image_facts WHERE tenant_id = $1 AND status = 'ok'", {tenantId});
        if (!rows) return rows.error();
        std::vector<ImageFacts> all;
        for (int row = 0; row < rows->rows(); ++row) {
            ImageFacts facts;
            facts.tenantId = tenantId;
            facts.status = ImageFactStatus::Ok;
            facts.url = rows->text(row, 0);
            facts.thumbKey = rows->text(row, 1);
            facts.width = static_cast<int>(rows->integer(row, 2));
            facts.height = static_cast<int>(rows->integer(row, 3));
            facts.phash = static_cast<uint64_t>(rows->integer(row, 4));
            all.push_back(std::move(facts));
        }
        return all;
    });
}

namespace {

// A claim is a lease named by tenant and the URL's SHA-256: any URL length fits the key.
std::string claimName(int64_t tenantId, const std::string& url) {
    std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(url.data()), url.size());
    std::string hex(digest.size() * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
    hex.pop_back();
    return "image-fetch/" + std::to_string(tenantId) + "/" + hex;
}

}  // namespace

Result<bool> PgImageFactStore::claimFetch(int64_t tenantId, const std::string& url, const std::string& owner, int64_t now, int64_t leaseSeconds) {
    return leases_.claim(claimName(tenantId, url), owner, now, leaseSeconds);
}

Status PgImageFactStore::releaseFetch(int64_t tenantId, const std::string& url, const std::string& owner) {
    return leases_.release(claimName(tenantId, url), owner);
}

}  // namespace svc
