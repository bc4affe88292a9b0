#pragma once
// RateLimitStore on PostgreSQL (docs/adr/0094): one row per bucket in an UNLOGGED table, shared
// by every node. A take is one statement: an upsert whose WHERE lets it through only when the
// refilled bucket holds enough, under the row's lock, so takes racing from many nodes never
// spend more than the bucket holds. The table is not WAL-logged: after a crash of the database
// server it starts empty, every bucket full, which only forgives the clients of that moment; in
// return a limit costs no WAL and no replication traffic.
#include "store/PgDatabase.hpp"
#include "store/RateLimitStore.hpp"

namespace svc {

class PgRateLimitStore : public RateLimitStore {
public:
    explicit PgRateLimitStore(PgDatabase& database) : database_(database) {}

    Result<TokenTake> take(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) override;
    Status giveBack(const std::string& key, double tokens, TokenBucketLimit limit, int64_t nowMillis) override;
    Result<int64_t> forgetFull(int64_t nowMillis) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
