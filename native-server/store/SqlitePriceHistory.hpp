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

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqlitePriceHistory {
public:
    explicit SqlitePriceHistory(std::string catalogDirectory) : directory_(std::move(catalogDirectory)) {}

    static constexpr int64_t kWindowSeconds = 30 * 24 * 3600;

    // SKU -> lowest selling price (cents) valid at any time in the 30 days before the SKU's
    // current price began. SKUs whose price never changed are absent.
    Result<std::map<std::string, int64_t>> lowestBeforeCurrentPrice(int64_t tenantId, const std::vector<std::string>& skus);

private:
    std::string directory_;
    std::mutex mutex_;
    std::map<int64_t, std::unique_ptr<SqliteDatabase>> connections_;
};

}  // namespace svc
