#include "store/PgRateLimitStore.hpp"

#include <algorithm>

namespace svc {

namespace {

// The bucket refilled up to $5 (ms) at $4 tokens a second, at most $3: TokenBucket::refill in SQL.
#define SVC_REFILLED "least($3::float8, b.tokens + greatest(0, $5::bigint - b.updated_ms) * $4::float8 / 1000.0)"

// $1 key, $2 tokens wanted, $3 burst, $4 per second, $5 now (ms). A key never seen starts full
// (the insert); a kept one is updated only when its refilled level holds what is wanted. The
// second SELECT reads the level of a refused bucket, for its Retry-After.
constexpr const char* kTake =
    "WITH taken AS ("
    " INSERT INTO rate_buckets AS b (key, tokens, updated_ms, full_at_ms)"
    " SELECT $1, $3::float8 - $2::float8, $5::bigint, $5::bigint + ceil($2::float8 * 1000 / $4::float8)::bigint WHERE $2::float8 <= $3::float8"
    " ON CONFLICT (key) DO UPDATE SET (tokens, updated_ms, full_at_ms) ="
    "  (SELECT r.level - $2::float8, r.at, r.at + ceil(($3::float8 - r.level + $2::float8) * 1000 / $4::float8)::bigint"
    "     FROM (SELECT " SVC_REFILLED " AS level, greatest(b.updated_ms, $5::bigint) AS at) r)"
    " WHERE " SVC_REFILLED " >= $2::float8"
    " RETURNING tokens)"
    " SELECT true, tokens FROM taken"
    " UNION ALL"
    " SELECT false, " SVC_REFILLED " FROM rate_buckets b WHERE b.key = $1 AND NOT EXISTS (SELECT 1 FROM taken)";

// $1 key, $2 tokens given back, $3 burst, $4 per second, $5 now (ms).
constexpr const char* kGiveBack =
    "UPDATE rate_buckets AS b SET (tokens, updated_ms, full_at_ms) ="
    " (SELECT r.level, r.at, r.at + ceil(($3::float8 - r.level) * 1000 / $4::float8)::bigint"
    "    FROM (SELECT least($3::float8, " SVC_REFILLED " + $2::float8) AS level, greatest(b.updated_ms, $5::bigint) AS at) r)"
    " WHERE b.key = $1";

#undef SVC_REFILLED

}  // namespace

Result<TokenTake> PgRateLimitStore::take(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) {
    if (limit.perSecond <= 0) return TokenTake{};
    return database_.withConnection([&](PgConnection& connection) -> Result<TokenTake> {
        auto found = connection.execute("take rate-limit tokens", kTake, {key, tokens, limit.burst, limit.perSecond, nowMillis});
        if (!found) return found.error();
        if (found->rows() == 1 && found->text(0, 0) == "t") return TokenTake{true, found->real(0, 1), 0};
        // Refused. No row: more than the burst was asked of a bucket never seen (full), or another
        // node created it after this statement's snapshot (full, less what that node took).
        double level = found->rows() == 1 ? found->real(0, 1) : limit.burst;
        return TokenTake{false, level, retryAfterSeconds(std::min(tokens, limit.burst) - level, limit.perSecond)};
    });
}

Status PgRateLimitStore::giveBack(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) {
    if (limit.perSecond <= 0) return Status::success();
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto given = connection.execute("give rate-limit tokens back", kGiveBack, {key, tokens, limit.burst, limit.perSecond, nowMillis});
        if (!given) return given.error();
        return Status::success();
    });
}

Result<int64_t> PgRateLimitStore::forgetFull(int64_t nowMillis) {
    return database_.withConnection([&](PgConnection& connection) -> Result<int64_t> {
        auto forgotten = connection.execute("forget full rate-limit buckets", "DELETE FROM rate_buckets WHERE full_at_ms <= $1", {nowMillis});
        if (!forgotten) return forgotten.error();
        return forgotten->changedRows();
    });
}

}  // namespace svc
