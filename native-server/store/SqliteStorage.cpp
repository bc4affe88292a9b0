#include "store/SqliteStorage.hpp"

#include <filesystem>
#include <system_error>

#include "store/Migrations.hpp"

namespace svc {

Result<std::unique_ptr<SqliteStorage>> SqliteStorage::open(const std::string& dataDir) {
    std::error_code error;
    std::filesystem::create_directories(dataDir, error);
    if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    auto storage = std::unique_ptr<SqliteStorage>(new SqliteStorage());
    storage->databasePath_ = (std::filesystem::path(dataDir) / "svc.sqlite3").string();
    auto db = SqliteDatabase::open(storage->databasePath_);
    if (!db) return db.error();
    if (auto status = migrate(**db); !status) return status.error();
    storage->reader_ = std::move(*db);
    storage->tenants_ = std::make_unique<SqliteTenantStore>(*storage->reader_, storage->readerMutex_);
    storage->catalog_ = std::make_unique<SqliteCatalogStore>(storage->databasePath_, *storage->reader_, storage->readerMutex_);
    return storage;
}

}  // namespace svc
