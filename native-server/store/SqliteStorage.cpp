#include "store/SqliteStorage.hpp"

#include <filesystem>
#include <system_error>

#include "app/SystemClock.hpp"
#include "store/Migrations.hpp"

namespace svc {

Result<std::unique_ptr<SqliteStorage>> SqliteStorage::open(const std::string& dataDir, const Clock* clock) {
    std::error_code error;
    std::filesystem::create_directories(dataDir, error);
    if (error) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    auto storage = std::unique_ptr<SqliteStorage>(new SqliteStorage());
    if (!clock) {
        storage->ownedClock_ = std::make_unique<SystemClock>();
        clock = storage->ownedClock_.get();
    }
    storage->clock_ = clock;
    storage->mainPath_ = (std::filesystem::path(dataDir) / "svc.sqlite3").string();
    storage->catalogPath_ = (std::filesystem::path(dataDir) / "catalog.sqlite3").string();
    auto main = SqliteDatabase::open(storage->mainPath_);
    if (!main) return main.error();
    if (auto status = migrate(**main, DatabaseKind::Main); !status) return status.error();
    auto catalog = SqliteDatabase::open(storage->catalogPath_);
    if (!catalog) return catalog.error();
    if (auto status = migrate(**catalog, DatabaseKind::Catalog); !status) return status.error();
    storage->main_ = std::move(*main);
    storage->catalogReader_ = std::move(*catalog);
    storage->tenants_ = std::make_unique<SqliteTenantStore>(*storage->main_, storage->mainMutex_);
    storage->imports_ = std::make_unique<SqliteFeedImportStore>(*storage->main_, storage->mainMutex_);
    storage->catalog_ = std::make_unique<SqliteCatalogStore>(storage->catalogPath_, *storage->catalogReader_,
                                                             storage->catalogMutex_, *clock);
    return storage;
}

}  // namespace svc
