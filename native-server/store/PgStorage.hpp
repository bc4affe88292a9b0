#pragma once
// Storage on PostgreSQL (docs/adr/0086), being built store by store (issue 24). The stores that
// have a PostgreSQL class are handed out; asking for one that has none is a bug in the caller
// (std::logic_error naming the store), which is why Storage::open refuses postgres:// until
// missingStores() is empty: only the contract suite opens a PgStorage meanwhile, and it asks
// only for the stores listed in tests/store/StoreBackends.hpp.
#include <memory>
#include <string>
#include <vector>

#include "store/PgCatalogStore.hpp"
#include "store/PgCategoryMappingStore.hpp"
#include "store/PgContentStore.hpp"
#include "store/PgDatabase.hpp"
#include "store/PgFeedImportStore.hpp"
#include "store/PgFleetStore.hpp"
#include "store/PgImageFactStore.hpp"
#include "store/PgLeaseStore.hpp"
#include "store/PgOperatorKeyStore.hpp"
#include "store/PgOperatorStore.hpp"
#include "store/PgPriceHistoryStore.hpp"
#include "store/PgPullSourceStore.hpp"
#include "store/PgShopRegistrationStore.hpp"
#include "store/PgTenantStore.hpp"
#include "store/PgWidgetSettingsStore.hpp"
#include "store/Storage.hpp"

namespace svc {

class PgStorage : public Storage {
public:
    // Connects to `url` and migrates the schema (once across nodes: PgMigrations).
    static Result<std::unique_ptr<PgStorage>> open(const std::string& url, const Clock& clock);
    // The stores that have no PostgreSQL class yet, by their Storage accessor's name.
    static std::vector<std::string> missingStores();

    TenantStore& tenants() override { return *tenants_; }
    OperatorKeyStore& operatorKeys() override { return *operatorKeys_; }
    OperatorStore& operators() override { return *operators_; }
    WidgetSettingsStore& widgetSettings() override { return *widgetSettings_; }
    PullSourceStore& pullSources() override { return *pullSources_; }
    ShopRegistrationStore& shopRegistrations() override { return *shopRegistrations_; }
    FeedImportStore& imports() override { return *imports_; }
    LeaseStore& leases() override { return *leases_; }
    ContentStore& content() override { return *content_; }
    CategoryMappingStore& categoryMappings() override { return *categoryMappings_; }
    ImageFactStore& imageFacts() override { return *imageFacts_; }
    // Its event-side facts read PgMigrations 4's tables (the events and ledger stores).
    FleetStore& fleet() override { return *fleet_; }
    const Clock& clock() const override { return *clock_; }

    CatalogStore& catalog() override { return *catalog_; }
    PriceHistoryStore& priceHistory() override { return *priceHistory_; }
    EventStore& events() override { missing("events"); }
    LedgerStore& ledger() override { missing("ledger"); }
    MetricsReader& metrics() override { missing("metrics"); }

private:
    explicit PgStorage(const Clock& clock) : clock_(&clock) {}
    [[noreturn]] static void missing(const char* store);

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
    const Clock* clock_;
};

}  // namespace svc
