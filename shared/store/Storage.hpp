#pragma once
// Every store of one svc deployment, opened once (docs/adr/0078). Code that needs storage takes
// the store interfaces it uses from here; only the backend behind Storage::open knows how they
// are kept. Stores are safe to use from many threads; a backend keeps whatever connections it
// needs internally.
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "store/CatalogStore.hpp"
#include "store/CategoryMappingStore.hpp"
#include "store/ContentStore.hpp"
#include "store/EventStore.hpp"
#include "store/FeedImportStore.hpp"
#include "store/FleetStore.hpp"
#include "store/ImageFactStore.hpp"
#include "store/LeaseStore.hpp"
#include "store/LedgerStore.hpp"
#include "store/MetricsReader.hpp"
#include "store/OperatorKeyStore.hpp"
#include "store/OperatorStore.hpp"
#include "store/PriceHistoryStore.hpp"
#include "store/PullSourceStore.hpp"
#include "store/RateLimitStore.hpp"
#include "store/ShopRegistrationStore.hpp"
#include "store/TenantStore.hpp"
#include "store/WidgetSettingsStore.hpp"

namespace svc {

class Storage {
public:
    virtual ~Storage() = default;

    // Opens (creating and migrating where needed) every store at `location`: a data dir path, or
    // "sqlite:" and a data dir path. Fails as a whole, the error naming the store that could not
    // be opened. `clock` must outlive the storage. Defined by the host (native-server/store/).
    static Result<std::unique_ptr<Storage>> open(const std::string& location, const Clock& clock);

    virtual TenantStore& tenants() = 0;
    virtual CatalogStore& catalog() = 0;
    virtual FeedImportStore& imports() = 0;
    virtual ContentStore& content() = 0;
    // Each tenant's categories mapped onto the content pool's slots (ADR 0075).
    virtual CategoryMappingStore& categoryMappings() = 0;
    virtual OperatorKeyStore& operatorKeys() = 0;
    virtual EventStore& events() = 0;
    virtual LedgerStore& ledger() = 0;
    virtual OperatorStore& operators() = 0;
    virtual PullSourceStore& pullSources() = 0;
    virtual ShopRegistrationStore& shopRegistrations() = 0;
    virtual WidgetSettingsStore& widgetSettings() = 0;
    virtual PriceHistoryStore& priceHistory() = 0;
    virtual ImageFactStore& imageFacts() = 0;
    virtual FleetStore& fleet() = 0;
    virtual MetricsReader& metrics() = 0;
    // Work that must run once across processes and nodes is claimed here (app/BackgroundWorkers.hpp).
    virtual LeaseStore& leases() = 0;
    // Rate limits that hold over every node (purchases, shop registrations, failed sign-ins; ADR 0094).
    virtual RateLimitStore& rateLimits() = 0;
    // The clock the stores stamp rows with (the one given to open).
    virtual const Clock& clock() const = 0;
};

}  // namespace svc
