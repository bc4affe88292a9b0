#pragma once
// Shop plugin registrations (shop_registrations in <data-dir>/svc.sqlite3; spec endpoint 6,
// docs/adr/0035) on a connection of their own. A registration and the pull source that
// schedules its pulls are written in one transaction: there is never one without the other.
// What operators see of a connection is kept here too: the last registration (the shop's
// last contact), the last time the plugin answered svc, and the last pull's result.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "feed/PullSource.hpp"
#include "store/ShopRegistrationStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteShopRegistrationStore : public ShopRegistrationStore {
public:
    // The database must exist and be migrated (SqliteStorage::open does both).
    static Result<std::unique_ptr<SqliteShopRegistrationStore>> open(const std::string& dataDir);

    // Stores a registration of the tenant's feed (`feed`: its name, `feedId`: its UUID) and adds
    // or updates its plugin pull source, due now (or once the prompt-pull spacing has passed).
    // AlreadyExists, naming the feed, when that feed is pulled from a file already.
    Result<StoredShopRegistration> save(int64_t tenantId, const std::string& feed, const std::string& feedId,
                                        const ShopRegistration& record, int64_t now) override;
    Result<std::optional<StoredShopRegistration>> find(int64_t tenantId) override;
    // Every registration, newest first (the operators' console).
    Result<std::vector<StoredShopRegistration>> list() override;
    // After a pull: its result; `contactAt` when the plugin answered at all (0 keeps the last);
    // `full` when a full pull reached the catalog.
    Status recordPull(int64_t tenantId, int64_t finishedAt, const std::string& result, int64_t contactAt, bool full) override;

private:
    explicit SqliteShopRegistrationStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    Result<std::vector<StoredShopRegistration>> select(const std::string& where, int64_t tenantId);

    std::unique_ptr<SqliteDatabase> db_;
    std::mutex mutex_;
};

}  // namespace svc
