#pragma once
// Storage on SQLite in a data dir: svc.sqlite3 (tenants, imports, content, operators, pull
// sources, registrations, settings, image facts), events.sqlite3 (events, ledger) and one
// catalog file per tenant. The main connection is shared by the stores that write with the
// import history; the others have connections of their own, so a CLI write, a scrape or the
// console never waits behind an import (each store's header says why).
#include <memory>
#include <mutex>
#include <string>

#include "store/SqliteCatalogStore.hpp"
#include "store/SqliteCategoryMappingStore.hpp"
#include "store/SqliteContentStore.hpp"
#include "store/SqliteDatabase.hpp"
#include "store/SqliteEventStore.hpp"
#include "store/SqliteFeedImportStore.hpp"
#include "store/SqliteFleetStore.hpp"
#include "store/SqliteImageFactStore.hpp"
#include "store/MemoryRateLimitStore.hpp"
#include "store/SqliteLeaseStore.hpp"
#include "store/SqliteLedgerStore.hpp"
#include "store/SqliteMetricsReader.hpp"
#include "store/SqliteOperatorStore.hpp"
#include "store/SqlitePriceHistory.hpp"
#include "store/SqlitePullSourceStore.hpp"
#include "store/SqliteShopRegistrationStore.hpp"
#include "store/SqliteTenantStore.hpp"
#include "store/SqliteWidgetSettingsStore.hpp"
#include "store/Storage.hpp"

namespace svc {

class SqliteStorage : public Storage {
public:
    // Creates the data dir when missing, migrates its databases and opens every store.
    static Result<std::unique_ptr<SqliteStorage>> open(const std::string& dataDir, const Clock& clock);

    TenantStore& tenants() override { return *tenants_; }
    CatalogStore& catalog() override { return *catalog_; }
    FeedImportStore& imports() override { return *imports_; }
    ContentStore& content() override { return *content_; }
    CategoryMappingStore& categoryMappings() override { return *categoryMappings_; }
    OperatorKeyStore& operatorKeys() override { return *content_; }
    EventStore& events() override { return *events_; }
    LedgerStore& ledger() override { return *ledger_; }
    OperatorStore& operators() override { return *operators_; }
    PullSourceStore& pullSources() override { return *pullSources_; }
    ShopRegistrationStore& shopRegistrations() override { return *shopRegistrations_; }
    WidgetSettingsStore& widgetSettings() override { return *widgetSettings_; }
    PriceHistoryStore& priceHistory() override { return *priceHistory_; }
    ImageFactStore& imageFacts() override { return *imageFacts_; }
    FleetStore& fleet() override { return *fleet_; }
    MetricsReader& metrics() override { return *metrics_; }
    LeaseStore& leases() override { return *leases_; }
    // In memory: a data dir has one serving process (its lock), and the CLI limits nothing (ADR 0094).
    RateLimitStore& rateLimits() override { return rateLimits_; }
    const Clock& clock() const override { return *clock_; }

private:
    explicit SqliteStorage(const Clock& clock) : clock_(&clock) {}

    std::string mainPath_;
    std::unique_ptr<SqliteDatabase> main_;
    std::mutex mainMutex_;
    std::unique_ptr<SqliteLeaseStore> leases_;  // before imports_, whose import leases live here
    std::unique_ptr<SqliteTenantStore> tenants_;
    std::unique_ptr<SqliteCatalogStore> catalog_;
    std::unique_ptr<SqliteFeedImportStore> imports_;
    std::unique_ptr<SqliteContentStore> content_;
    std::unique_ptr<SqliteCategoryMappingStore> categoryMappings_;  // on the main connection: a replace bumps the generation
    std::unique_ptr<SqliteEventStore> events_;  // events.sqlite3: its own file, so event commits never wait for imports
    std::unique_ptr<SqliteLedgerStore> ledger_;  // the same file, its own connection
    std::unique_ptr<SqliteOperatorStore> operators_;
    std::unique_ptr<SqlitePullSourceStore> pullSources_;
    std::unique_ptr<SqliteShopRegistrationStore> shopRegistrations_;
    std::unique_ptr<SqliteWidgetSettingsStore> widgetSettings_;
    std::unique_ptr<SqlitePriceHistory> priceHistory_;
    std::unique_ptr<SqliteImageFactStore> imageFacts_;
    std::unique_ptr<SqliteFleetStore> fleet_;
    std::unique_ptr<SqliteMetricsReader> metrics_;
    MemoryRateLimitStore rateLimits_;
    const Clock* clock_;
};

}  // namespace svc
