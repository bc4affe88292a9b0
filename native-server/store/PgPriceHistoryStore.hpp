#pragma once
// PriceHistoryStore on PostgreSQL (docs/adr/0087): reads the price_history rows that catalog
// imports write in their own statements (PgCatalogStore), every SKU asked for in one statement.
#include "store/PgDatabase.hpp"
#include "store/PriceHistoryStore.hpp"

namespace svc {

class PgPriceHistoryStore : public PriceHistoryStore {
public:
    explicit PgPriceHistoryStore(PgDatabase& database) : database_(database) {}

    Result<std::map<std::string, int64_t>> lowestBeforeCurrentPrice(int64_t tenantId, const std::vector<std::string>& skus) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
