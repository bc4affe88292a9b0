#pragma once
// Opens the data dir's SQLite database, migrates it and hands out the stores.
#include <memory>
#include <mutex>
#include <string>

#include "store/SqliteCatalogStore.hpp"
#include "store/SqliteDatabase.hpp"
#include "store/SqliteTenantStore.hpp"

namespace svc {

class SqliteStorage {
public:
    static Result<std::unique_ptr<SqliteStorage>> open(const std::string& dataDir);

    TenantStore& tenants() { return *tenants_; }
    CatalogStore& catalog() { return *catalog_; }
    const std::string& databasePath() const { return databasePath_; }

private:
    std::string databasePath_;
    std::unique_ptr<SqliteDatabase> reader_;
    std::mutex readerMutex_;
    std::unique_ptr<SqliteTenantStore> tenants_;
    std::unique_ptr<SqliteCatalogStore> catalog_;
};

}  // namespace svc
