#pragma once
// The pull sources of every tenant (pull_sources in <data-dir>/svc.sqlite3), on a connection
// of its own so the scheduler never waits behind the import history's lock. Claiming a due
// source moves its next run forward in one UPDATE, so two processes never pull it twice.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/PullSourceStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqlitePullSourceStore : public PullSourceStore {
public:
    // The database must exist and be migrated (SqliteStorage::open does both).
    static Result<std::unique_ptr<SqlitePullSourceStore>> open(const std::string& dataDir);

    // AlreadyExists (naming the feed) when the tenant's feed has a source already.
    Result<PullSource> add(const PullSource& source) override;
    Result<std::vector<PullSource>> list(int64_t tenantId) override;
    // Every tenant's sources (the sealing of URL queries stored by an older svc).
    Result<std::vector<PullSource>> listAll() override;
    Result<std::optional<PullSource>> find(int64_t tenantId, const std::string& feed) override;
    Result<bool> remove(int64_t tenantId, const std::string& feed) override;
    // Changes what the operator set (URL, interval, kind of feed, columns, credentials) and when
    // it runs next; the validators are dropped when the URL changes. NotFound without the source.
    Status change(const PullSource& source) override;
    // The source due longest (next_run_at <= now), its next run moved to now + `lease` so no other
    // claim takes it while it runs; nullopt when none is due.
    Result<std::optional<PullSource>> claimDue(int64_t now, int64_t lease) override;
    // After a run: when to run next, what happened, and the validators of the imported file.
    Status finish(const PullSource& source) override;

private:
    explicit SqlitePullSourceStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    Result<std::vector<PullSource>> select(const std::string& where, int64_t tenantId, const std::string& text, int64_t limit);

    std::unique_ptr<SqliteDatabase> db_;
    std::mutex mutex_;
};

}  // namespace svc
