#pragma once
// Opens the data dir's SQLite database, migrates it and hands out the stores.
#include <memory>
#include <mutex>
#include <string>

#include "core/Clock.hpp"
#include "store/SqliteCatalogStore.hpp"
#include "store/SqliteCategoryMappingStore.hpp"
#include "store/SqliteContentStore.hpp"
#include "store/SqliteFeedImportStore.hpp"
#include "store/SqliteDatabase.hpp"
#include "store/SqliteEventStore.hpp"
#include "store/SqliteLedgerStore.hpp"
#include "store/SqliteTenantStore.hpp"

namespace svc {

class SqliteStorage {
public:
    // `clock` must outlive the storage; the system clock when none is given.
    static Result<std::unique_ptr<SqliteStorage>> open(const std::string& dataDir, const Clock* clock = nullptr);

    TenantStore& tenants() { return *tenants_; }
    CatalogStore& catalog() { return *catalog_; }
    FeedImportStore& imports() { return *imports_; }
    ContentStore& content() { return *content_; }
    CategoryMappingStore& categoryMappings() { return *categoryMappings_; }
    OperatorKeyStore& operatorKeys() { return *content_; }
    EventStore& events() { return *events_; }
    LedgerStore& ledger() { return *ledger_; }
    const Clock& clock() const { return *clock_; }

private:
    std::string mainPath_;
    std::unique_ptr<SqliteDatabase> main_;
    std::mutex mainMutex_;
    std::unique_ptr<SqliteTenantStore> tenants_;
    std::unique_ptr<SqliteCatalogStore> catalog_;
    std::unique_ptr<SqliteFeedImportStore> imports_;
    std::unique_ptr<SqliteContentStore> content_;
    std::unique_ptr<SqliteCategoryMappingStore> categoryMappings_;  // on the main connection: a replace bumps the generation
    std::unique_ptr<SqliteEventStore> events_;  // events.sqlite3: its own file, so event commits never wait for imports
    std::unique_ptr<SqliteLedgerStore> ledger_;  // the same file, its own connection
    std::unique_ptr<Clock> ownedClock_;
    const Clock* clock_ = nullptr;
};

}  // namespace svc
