#pragma once
// Storage on PostgreSQL (docs/adr/0086-0089): every store of svc in one database shared by every
// node; Storage::open hands it out for postgres:// and postgresql:// URLs.
#include <memory>
#include <string>
#include <vector>

#include "store/PgCatalogStore.hpp"
#include "store/PgCategoryMappingStore.hpp"
#include "store/PgContentStore.hpp"
#include "store/PgDatabase.hpp"
#include "store/PgEventStore.hpp"
#include "store/PgFeedImportStore.hpp"
#include "store/PgFleetStore.hpp"
#include "store/PgImageFactStore.hpp"
#include "store/PgLeaseStore.hpp"
#include "store/PgLedgerStore.hpp"
#include "store/PgMetricsReader.hpp"
#include "store/PgOperatorKeyStore.hpp"
#include "store/PgOperatorStore.hpp"
#include "store/PgPriceHistoryStore.hpp"
#include "store/PgPullSourceStore.hpp"
#include "store/PgRateLimitStore.hpp"
#include "store/PgShopRegistrationStore.hpp"
#include "store/PgTenantStore.hpp"
#include "store/PgWidgetSettingsStore.hpp"
#include "store/Storage.hpp"

namespace svc {

class PgStorage : public Storage {
public:
    // Connects to `url` and migrates the schema (once across nodes: PgMigrations).
    static Result<std::unique_ptr<PgStorage>> open(const std::string& url, const Clock& clock);

    TenantStore& tenants() override { return *tenants_; }
    OperatorKeyStore& operatorKeys() override { return *operatorKeys_; }
    OperatorStore& operators() override { return *operators_; }
    WidgetSettingsStore& widgetSettings() override { return *widgetSettings_; }
    PullSourceStore& pullSources() override { return *pullSources_; }
    ShopRegistrationStore& shopRegistrations() override { return *shopRegistrations_; }
    FeedImportStore& imports() override { return *imports_; }
    LeaseStore& leases() override { return *leases_; }
    RateLimitStore& rateLimits() override { return *rateLimits_; }
    ContentStore& content() override { return *content_; }
    CategoryMappingStore& categoryMappings() override { return *categoryMappings_; }
    ImageFactStore& imageFacts() override { return *imageFacts_; }
    FleetStore& fleet() override { return *fleet_; }
    CatalogStore& catalog() override { return *catalog_; }
    PriceHistoryStore& priceHistory() override { return *priceHistory_; }
    EventStore& events() override { return *events_; }
    LedgerStore& ledger() override { return *ledger_; }
    MetricsReader& metrics() override { return *metrics_; }
    const Clock& clock() const override { return *clock_; }

private:
    explicit PgStorage(const Clock& clock) : clock_(&clock) {}

    std::unique_ptr<PgDatabase> database_;
    std::unique_ptr<PgLeaseStore> leases_;  // before imports_, whose import leases live here
    std::unique_ptr<PgTenantStore> tenants_;
    std::unique_ptr<PgOperatorKeyStore> operatorKeys_;
    std::unique_ptr<PgOperatorStore> operators_;
    std::unique_ptr<PgWidgetSettingsStore> widgetSettings_;
    std::unique_ptr<PgPullSourceStore> pullSources_;
    std::unique_ptr<PgShopRegistrationStore> shopRegistrations_;
    std::unique_ptr<PgFeedImportStore> imports_;
    std::unique_ptr<PgCatalogStore> catalog_;
    std::unique_ptr<PgPriceHistoryStore> priceHistory_;
    std::unique_ptr<PgContentStore> content_;
    std::unique_ptr<PgCategoryMappingStore> categoryMappings_;
    std::unique_ptr<PgImageFactStore> imageFacts_;
    std::unique_ptr<PgFleetStore> fleet_;
    std::unique_ptr<PgEventStore> events_;
    std::unique_ptr<PgLedgerStore> ledger_;
    std::unique_ptr<PgMetricsReader> metrics_;
    std::unique_ptr<PgRateLimitStore> rateLimits_;
    const Clock* clock_;
};

}  // namespace svc
