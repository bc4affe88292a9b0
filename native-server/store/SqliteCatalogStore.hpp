#pragma once
// CatalogStore on SQLite. Queries share one reader connection; every import
// writes through its own connection inside one transaction, so readers keep
// seeing the previous catalog (WAL snapshot) until the import commits.
#include <mutex>
#include <string>

#include "core/Clock.hpp"
#include "store/CatalogStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteCatalogStore : public CatalogStore {
public:
    SqliteCatalogStore(std::string databasePath, SqliteDatabase& reader, std::mutex& readerMutex, const Clock& clock)
        : databasePath_(std::move(databasePath)), reader_(reader), readerMutex_(readerMutex), clock_(clock) {}

    Result<std::unique_ptr<CatalogImport>> beginImport(int64_t tenantId, int64_t now) override;
    Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) override;
    Result<std::vector<Product>> availableInCategory(int64_t tenantId, const std::string& categoryPath, size_t limit) override;
    Result<CatalogStats> stats(int64_t tenantId) override;

private:
    std::string databasePath_;
    SqliteDatabase& reader_;
    std::mutex& readerMutex_;
    const Clock& clock_;
};

}  // namespace svc
