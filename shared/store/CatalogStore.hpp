#pragma once
// Storage of the product catalog, owned by the domain: feed, GraphQL and
// recommendation code see only this interface. SQLite implements it today;
// PostgreSQL can later without touching them.
//
// Contract (tests/store/CatalogStoreContractTest.cpp):
// - each tenant's catalog is its own: no read of one tenant ever returns another's products; a
//   tenant that never imported answers no products and zero stats, not an error.
// - SKUs and main SKUs are ordered and compared byte for byte (no collation), on every backend.
// - a read during an open import answers the catalog as it was before it, without waiting for
//   the import (an initial load into an empty catalog may keep readers waiting until it commits).
// - text and prices are read back exactly as written (an absent price stays absent, not 0).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalog/Product.hpp"
#include "core/Result.hpp"
#include "feed/FeedColumns.hpp"
#include "feed/FeedShape.hpp"

namespace svc {

// The SKUs a feed lists (each once: the parser rejects duplicates).
using SkuSet = std::unordered_set<std::string>;

// What one applied import changed: its change sequence and the SKUs it stamped with it
// (inserted, updated, seen again, marked deleted). The host hands it to the content engine,
// which then reads just those articles by key instead of scanning every row's stamp. An
// import that wrote too many rows to list them (an initial load, a full feed seen again
// after an hour) leaves `complete` false: then only the scan tells what changed.
struct CatalogChange {
    int64_t sequence = 0;
    bool complete = false;
    std::vector<std::string> skus;
};

// Changes known in this process, by sequence (shared: every build copies the map).
using KnownChanges = std::map<int64_t, std::shared_ptr<const CatalogChange>>;

struct ImportCounts {
    int64_t inserted = 0;
    int64_t updated = 0;
    int64_t unchanged = 0;
    int64_t markedDeleted = 0;
    int64_t unknown = 0;  // rows of a feed that describes no products, for SKUs not in the catalog: not written
};

// What upsert() did with one row.
enum class UpsertOutcome { Written, UnknownSku };

// One import, applied atomically: nothing is visible before commit(), and an
// import destroyed without commit() leaves the catalog exactly as before.
class CatalogImport {
public:
    virtual ~CatalogImport() = default;
    // Inserts or updates one product as its feed's `shape` says (docs/adr/0070): only the
    // fields and properties the feed has columns for are written, so a stock-and-price feed
    // never blanks names, images or content-pool properties. A feed that does not describe
    // products (no name column) writes only products that are live already; for others it
    // answers UnknownSku and writes nothing. `shape` is the same object for every row of a feed.
    virtual Result<UpsertOutcome> upsert(const Product& product, const FeedShape& shape) = 0;
    // Live (not deleted) products of the tenant when the import began (may be computed
    // lazily; callers ask only for full feeds).
    virtual int64_t liveBefore() const = 0;
    // Counts so far (inserted, updated, unchanged); markedDeleted stays 0 until commit.
    virtual ImportCounts pendingCounts() const = 0;
    // What this import, as a full feed listing `listedInFeed`, would mark deleted: the live
    // products its feed owned that it no longer lists and no other feed owns.
    virtual Result<int64_t> countMissing(const SkuSet& listedInFeed) = 0;
    // Applies the import. For a full feed `listedInFeed` holds its SKUs: the feed gives up the
    // products it owned and no longer lists, and those no other feed owns are marked deleted
    // (a feed that describes no products owns none). A delta feed passes nullptr.
    virtual Result<ImportCounts> commit(const SkuSet* listedInFeed) = 0;
    // After commit(): what the import changed (once; incomplete unless the store lists it).
    virtual CatalogChange takeChange() { return {}; }
};

struct CatalogStats {
    int64_t products = 0;   // not deleted
    int64_t available = 0;  // not deleted and in stock
};

class CatalogStore {
public:
    virtual ~CatalogStore() = default;
    // `now` is recorded as the time the feed's products were last seen; `feed` names the
    // tenant's feed the import belongs to (the owner of what it lists, docs/adr/0070).
    virtual Result<std::unique_ptr<CatalogImport>> beginImport(int64_t tenantId, int64_t now, const std::string& feed) = 0;
    // All variants of the article named by a SKU or a main SKU, by SKU (deleted ones included;
    // callers filter; `stale` is set by the 24-hour rule). Empty when the id is unknown.
    virtual Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) = 0;
    // Every live (not deleted) product of the tenant, ordered by main SKU then SKU, from
    // one consistent read (a concurrent import is seen whole or not at all). `stale` is set.
    virtual Status forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) = 0;
    // Every product (deleted ones included, `deleted` set) of the main SKUs that an import
    // changed after `sinceSequence`, ordered by main SKU then SKU; all products when `sinceSequence`
    // is negative. Returns the catalog's change sequence as of the same consistent read: the
    // `sinceSequence` of the next call.
    virtual Result<int64_t> forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence,
                                                       const std::function<void(Product&&)>& visit) = 0;
    // The same read, told what this process's imports changed. When `known` accounts for
    // every import after `sinceSequence` (another process's import is not in it), only the
    // articles of its SKUs are read, by key; otherwise the stamps are scanned as above.
    struct ChangedRead {
        int64_t sequence = 0;  // as forEachProductChangedSince returns
        bool byKey = false;    // the known changes sufficed: no scan
    };
    virtual Result<ChangedRead> forEachChangedProduct(int64_t tenantId, int64_t sinceSequence, const KnownChanges& /*known*/,
                                                      const std::function<void(Product&&)>& visit) {
        auto sequence = forEachProductChangedSince(tenantId, sinceSequence, visit);
        if (!sequence) return sequence.error();
        return ChangedRead{*sequence, false};
    }
    virtual Result<CatalogStats> stats(int64_t tenantId) = 0;
};

}  // namespace svc
