#include "store/SqliteStorage.hpp"

#include <filesystem>
#include <system_error>

#include "app/SystemClock.hpp"
#include "store/Migrations.hpp"
#include "store/PrivateFiles.hpp"

namespace svc {

Result<std::unique_ptr<SqliteStorage>> SqliteStorage::open(const std::string& dataDir, const Clock* clock) {
    if (auto error = PrivateFiles::createDirectories(dataDir)) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    // A data dir made before svc kept it private (0755, 0644 files) is tightened here, once per start.
    if (auto status = PrivateFiles::tighten(dataDir); !status) return status.error();
    auto storage = std::unique_ptr<SqliteStorage>(new SqliteStorage());
    if (!clock) {
        storage->ownedClock_ = std::make_unique<SystemClock>();
        clock = storage->ownedClock_.get();
    }
    storage->clock_ = clock;
    storage->mainPath_ = (std::filesystem::path(dataDir) / "svc.sqlite3").string();
    auto main = SqliteDatabase::open(storage->mainPath_);
    if (!main) return main.error();
    if (auto status = migrate(**main, DatabaseKind::Main); !status) return status.error();
    storage->main_ = std::move(*main);
    storage->tenants_ = std::make_unique<SqliteTenantStore>(*storage->main_, storage->mainMutex_);
    storage->imports_ = std::make_unique<SqliteFeedImportStore>(*storage->main_, storage->mainMutex_,
                                                                (std::filesystem::path(dataDir) / "locks").string());
    storage->content_ = std::make_unique<SqliteContentStore>(*storage->main_, storage->mainMutex_);
    storage->categoryMappings_ = std::make_unique<SqliteCategoryMappingStore>(*storage->main_, storage->mainMutex_);
    storage->catalog_ = std::make_unique<SqliteCatalogStore>((std::filesystem::path(dataDir) / "catalog").string(), *clock);
    auto events = SqliteEventStore::open((std::filesystem::path(dataDir) / "events.sqlite3").string());
    if (!events) return events.error();
    storage->events_ = std::move(*events);
    auto ledger = SqliteLedgerStore::open((std::filesystem::path(dataDir) / "events.sqlite3").string());
    if (!ledger) return ledger.error();
    storage->ledger_ = std::move(*ledger);
    return storage;
}

}  // namespace svc
