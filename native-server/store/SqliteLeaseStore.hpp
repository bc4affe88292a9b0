#pragma once
// LeaseStore in the main database (table leases, main migration 18), on a connection of its
// own. Each operation is one statement, so SQLite's write lock makes a claim atomic between
// processes sharing the data dir.
#include <memory>
#include <mutex>
#include <string>

#include "store/LeaseStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteLeaseStore : public LeaseStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<SqliteLeaseStore>> open(const std::string& mainDatabasePath);

    Result<bool> claim(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) override;
    Result<bool> renew(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) override;
    Status release(const std::string& name, const std::string& owner) override;
    Result<std::optional<Lease>> holder(const std::string& name, int64_t now) override;
    Result<std::vector<Lease>> live(const std::string& prefix, int64_t now) override;

private:
    explicit SqliteLeaseStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}

    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
};

}  // namespace svc
