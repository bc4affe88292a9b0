#pragma once
// CatalogStore on PostgreSQL (docs/adr/0087). An import holds one connection and one transaction
// from beginImport to commit, under an advisory lock per tenant (a tenant's imports run one after
// another, as on SQLite, so change sequences commit in order). Its rows go to the server by COPY
// and are applied by a few set-based statements per batch, never a round trip per row; the
// selling-price history is written by the same batch's statements. Each import lists the SKUs it
// changed in catalog_change_skus, so every node, not only the importing one, reads an import's
// articles by key. Reads run on pooled connections, each in one snapshot.
#include "core/Clock.hpp"
#include "store/CatalogStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgCatalogStore : public CatalogStore {
public:
    PgCatalogStore(PgDatabase& database, const Clock& clock) : database_(database), clock_(clock) {}

    Result<std::unique_ptr<CatalogImport>> beginImport(int64_t tenantId, int64_t now, const std::string& feed) override;
    Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) override;
    Status forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) override;
    Result<int64_t> forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence, const std::function<void(Product&&)>& visit) override;
    // `known` is not needed: the change lists every node reads are in the database.
    Result<ChangedRead> forEachChangedProduct(int64_t tenantId, int64_t sinceSequence, const KnownChanges& known,
                                              const std::function<void(Product&&)>& visit) override;
    Result<CatalogStats> stats(int64_t tenantId) override;

private:
    Result<ChangedRead> readChanges(int64_t tenantId, int64_t sinceSequence, bool liveOnly, const std::function<void(Product&&)>& visit);

    PgDatabase& database_;
    const Clock& clock_;
};

}  // namespace svc
