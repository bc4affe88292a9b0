#pragma once
// CatalogStore on SQLite, one database file per tenant (catalog/tenant-<id>.sqlite3).
// Queries use one cached reader connection per tenant; every import writes through
// its own connection inside one transaction, so readers keep seeing the previous
// catalog (WAL snapshot) until the import commits.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "store/CatalogStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

// Names of property sets (see the catalog schema), cached per reader connection: sets
// are only ever added, never changed.
class PropertySetNames {
public:
    explicit PropertySetNames(SqliteDatabase& db) : db_(db) {}
    const std::vector<std::string>& names(int64_t setId);

private:
    SqliteDatabase& db_;
    std::map<int64_t, std::vector<std::string>> cache_;
};

class SqliteCatalogStore : public CatalogStore {
public:
    SqliteCatalogStore(std::string directory, const Clock& clock);

    Result<std::unique_ptr<CatalogImport>> beginImport(int64_t tenantId, int64_t now, const std::string& feed) override;
    Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) override;
    Status forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) override;
    Result<int64_t> forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence, const std::function<void(Product&&)>& visit) override;
    Result<ChangedRead> forEachChangedProduct(int64_t tenantId, int64_t sinceSequence, const KnownChanges& known,
                                              const std::function<void(Product&&)>& visit) override;
    Result<CatalogStats> stats(int64_t tenantId) override;

    std::string pathFor(int64_t tenantId) const;

private:
    struct Reader {
        std::unique_ptr<SqliteDatabase> db;
        std::unique_ptr<PropertySetNames> propertyNames;
        std::mutex mutex;
    };
    // The tenant's reader, opened (and migrated) on first use.
    Result<Reader*> reader(int64_t tenantId);
    // Both reads of changes; `known` null: scan the stamps.
    Result<ChangedRead> readChanges(int64_t tenantId, int64_t sinceSequence, const KnownChanges* known,
                                    const std::function<void(Product&&)>& visit);

    std::string directory_;
    const Clock& clock_;
    std::mutex readersMutex_;
    std::map<int64_t, std::unique_ptr<Reader>> readers_;
};

}  // namespace svc
