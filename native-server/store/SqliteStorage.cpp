#include "store/SqliteStorage.hpp"

#include <filesystem>
#include <system_error>

#include "store/Migrations.hpp"
#include "store/PrivateFiles.hpp"

namespace svc {
namespace {

// Opens one store, its error naming the store: a deployment starts with all of them or not at all.
template <typename Store>
Status openStore(const char* name, Result<std::unique_ptr<Store>> opened, std::unique_ptr<Store>& into) {
    if (!opened) {
        Error error = opened.error();
        error.message = std::string("storage: ") + name + ": " + error.message;
        return error;
    }
    into = std::move(*opened);
    return Status::success();
}

}  // namespace

Result<std::unique_ptr<SqliteStorage>> SqliteStorage::open(const std::string& dataDir, const Clock& clock) {
    if (auto error = PrivateFiles::createDirectories(dataDir)) return Error::unavailable("data dir " + dataDir + ": " + error.message());
    // A data dir made before svc kept it private (0755, 0644 files) is tightened here, once per start.
    if (auto status = PrivateFiles::tighten(dataDir); !status) return status.error();
    auto storage = std::unique_ptr<SqliteStorage>(new SqliteStorage(clock));
    std::filesystem::path dir(dataDir);
    storage->mainPath_ = (dir / "svc.sqlite3").string();
    auto main = SqliteDatabase::open(storage->mainPath_);
    if (!main) return main.error();
    if (auto status = migrate(**main, DatabaseKind::Main); !status) return status.error();
    storage->main_ = std::move(*main);
    if (auto status = openStore("leases", SqliteLeaseStore::open(storage->mainPath_), storage->leases_); !status) return status.error();
    storage->tenants_ = std::make_unique<SqliteTenantStore>(*storage->main_, storage->mainMutex_);
    storage->imports_ = std::make_unique<SqliteFeedImportStore>(*storage->main_, storage->mainMutex_, *storage->leases_, clock);
    storage->content_ = std::make_unique<SqliteContentStore>(*storage->main_, storage->mainMutex_);
    storage->categoryMappings_ = std::make_unique<SqliteCategoryMappingStore>(*storage->main_, storage->mainMutex_);
    storage->catalog_ = std::make_unique<SqliteCatalogStore>((dir / "catalog").string(), clock);
    auto events = SqliteEventStore::open((dir / "events.sqlite3").string());
    if (!events) return events.error();
    storage->events_ = std::move(*events);
    auto ledger = SqliteLedgerStore::open((dir / "events.sqlite3").string());
    if (!ledger) return ledger.error();
    storage->ledger_ = std::move(*ledger);
    // Both databases are migrated now: the stores with connections of their own can open.
    Status opened = openStore("operators", SqliteOperatorStore::open(storage->mainPath_), storage->operators_);
    if (opened) opened = openStore("pull sources", SqlitePullSourceStore::open(dataDir), storage->pullSources_);
    if (opened) opened = openStore("shop registrations", SqliteShopRegistrationStore::open(dataDir), storage->shopRegistrations_);
    if (opened) opened = openStore("widget settings", SqliteWidgetSettingsStore::open(storage->mainPath_), storage->widgetSettings_);
    if (opened) opened = openStore("image facts", SqliteImageFactStore::open(storage->mainPath_, *storage->leases_), storage->imageFacts_);
    if (opened) opened = openStore("fleet", SqliteFleetStore::open(dataDir), storage->fleet_);
    if (opened) opened = openStore("metrics", SqliteMetricsReader::open(dataDir), storage->metrics_);
    if (!opened) return opened.error();
    storage->priceHistory_ = std::make_unique<SqlitePriceHistory>((dir / "catalog").string());
    return storage;
}

}  // namespace svc
