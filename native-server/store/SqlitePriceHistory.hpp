#pragma once
// Reads the selling-price history that the catalog's trigger keeps (catalog migration 4,
// docs/adr/0030): the lowest price of the 30 days before each SKU's current price took
// effect. One read connection per tenant catalog file, opened on first use; a tenant
// without a catalog file (or one not yet migrated) simply has no history.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/PriceHistoryStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqlitePriceHistory : public PriceHistoryStore {
public:
    explicit SqlitePriceHistory(std::string catalogDirectory) : directory_(std::move(catalogDirectory)) {}

    Result<std::map<std::string, int64_t>> lowestBeforeCurrentPrice(int64_t tenantId, const std::vector<std::string>& skus) override;

private:
    std::string directory_;
    std::mutex mutex_;
    std::map<int64_t, std::unique_ptr<SqliteDatabase>> connections_;
};

}  // namespace svc
