#pragma once
// Storage of the product catalog, owned by the domain: feed, GraphQL and
// recommendation code see only this interface. SQLite implements it today;
// PostgreSQL can later without touching them.
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalog/Product.hpp"
#include "core/Result.hpp"
#include "feed/FeedColumns.hpp"

namespace svc {

// The SKUs a feed lists (each once: the parser rejects duplicates).
using SkuSet = std::unordered_set<std::string>;

struct ImportCounts {
    int64_t inserted = 0;
    int64_t updated = 0;
    int64_t unchanged = 0;
    int64_t markedDeleted = 0;
};

// One import, applied atomically: nothing is visible before commit(), and an
// import destroyed without commit() leaves the catalog exactly as before.
class CatalogImport {
public:
    virtual ~CatalogImport() = default;
    // Inserts or updates one product; only `fields` (the feed's columns) are written,
    // so a stock-and-price feed never blanks names or images. Properties are
    // replaced when `replaceProperties` is set (the feed has property columns).
    virtual Status upsert(const Product& product, const std::set<FeedField>& fields, bool replaceProperties) = 0;
    // Live (not deleted) products of the tenant when the import began (may be computed
    // lazily; callers ask only for full feeds).
    virtual int64_t liveBefore() const = 0;
    // Counts so far (inserted, updated, unchanged); markedDeleted stays 0 until commit.
    virtual ImportCounts pendingCounts() const = 0;
    // Live (not deleted) products of the tenant that this import has not upserted:
    // what a full feed would mark deleted.
    virtual Result<int64_t> countMissing() = 0;
    // Applies the import. For a full feed `listedInFeed` holds its SKUs, and every live
    // product not among them is marked deleted; a delta feed passes nullptr.
    virtual Result<ImportCounts> commit(const SkuSet* listedInFeed) = 0;
};

struct CatalogStats {
    int64_t products = 0;   // not deleted
    int64_t available = 0;  // not deleted and in stock
};

class CatalogStore {
public:
    virtual ~CatalogStore() = default;
    // `now` is recorded as the time the feed's products were last seen.
    virtual Result<std::unique_ptr<CatalogImport>> beginImport(int64_t tenantId, int64_t now) = 0;
    // All variants of the article named by a SKU or a main SKU (deleted ones included;
    // callers filter; `stale` is set by the 24-hour rule). Empty when the id is unknown.
    virtual Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) = 0;
    // Every live (not deleted) product of the tenant, ordered by main SKU then SKU, from
    // one consistent read (a concurrent import is seen whole or not at all). `stale` is set.
    virtual Status forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) = 0;
    // Every product (deleted ones included, `deleted` set) of the main SKUs that an import
    // changed after `sinceSequence`, ordered by main SKU; all products when `sinceSequence`
    // is negative. Returns the catalog's change sequence as of the same consistent read: the
    // `sinceSequence` of the next call.
    virtual Result<int64_t> forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence,
                                                       const std::function<void(Product&&)>& visit) = 0;
    virtual Result<CatalogStats> stats(int64_t tenantId) = 0;
};

}  // namespace svc
