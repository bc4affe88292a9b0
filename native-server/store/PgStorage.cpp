#include "store/PgStorage.hpp"

#include "store/PgMigrations.hpp"

namespace svc {

Result<std::unique_ptr<PgStorage>> PgStorage::open(const std::string& url, const Clock& clock) {
    auto storage = std::unique_ptr<PgStorage>(new PgStorage(clock));
    auto database = PgDatabase::open(url);
    if (!database) return database.error();
    storage->database_ = std::move(*database);
    if (auto migrated = storage->database_->withConnection([](PgConnection& connection) { return PgMigrations::migrate(connection); });
        !migrated) {
        return migrated.error();
    }
    storage->leases_ = std::make_unique<PgLeaseStore>(*storage->database_);
    storage->rateLimits_ = std::make_unique<PgRateLimitStore>(*storage->database_);
    storage->tenants_ = std::make_unique<PgTenantStore>(*storage->database_, clock);
    storage->operatorKeys_ = std::make_unique<PgOperatorKeyStore>(*storage->database_, clock);
    storage->operators_ = std::make_unique<PgOperatorStore>(*storage->database_);
    storage->widgetSettings_ = std::make_unique<PgWidgetSettingsStore>(*storage->database_);
    storage->pullSources_ = std::make_unique<PgPullSourceStore>(*storage->database_);
    storage->shopRegistrations_ = std::make_unique<PgShopRegistrationStore>(*storage->database_);
    storage->imports_ = std::make_unique<PgFeedImportStore>(*storage->database_, *storage->leases_, clock);
    storage->catalog_ = std::make_unique<PgCatalogStore>(*storage->database_, clock);
    storage->priceHistory_ = std::make_unique<PgPriceHistoryStore>(*storage->database_);
    storage->content_ = std::make_unique<PgContentStore>(*storage->database_, clock);
    storage->categoryMappings_ = std::make_unique<PgCategoryMappingStore>(*storage->database_);
    storage->imageFacts_ = std::make_unique<PgImageFactStore>(*storage->database_, *storage->leases_);
    storage->fleet_ = std::make_unique<PgFleetStore>(*storage->database_);
    storage->events_ = std::make_unique<PgEventStore>(*storage->database_);
    storage->ledger_ = std::make_unique<PgLedgerStore>(*storage->database_);
    storage->metrics_ = std::make_unique<PgMetricsReader>(*storage->database_);
    return storage;
}

}  // namespace svc
