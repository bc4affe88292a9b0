#pragma once
// The selling-price history the catalog keeps (docs/adr/0030): for the lowest price of the 30
// days before each SKU's current price took effect (the EU price-indication rule).
//
// Contract (tests/store/PriceHistoryStoreContractTest.cpp):
// - a SKU whose price never changed, an unknown SKU and a tenant without a catalog are absent
//   from the answer (not an error).
// - prices valid only before the 30-day window do not count; one tenant's history never
//   answers for another's SKUs.
// - the selling price is the discount price when given, else the retail price; only a change of
//   it is history (a feed listing the same price again changes nothing).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

class PriceHistoryStore {
public:
    virtual ~PriceHistoryStore() = default;

    static constexpr int64_t kWindowSeconds = 30 * 24 * 3600;

    // SKU -> lowest selling price (cents) valid at any time in the 30 days before the SKU's
    // current price began. SKUs whose price never changed are absent.
    virtual Result<std::map<std::string, int64_t>> lowestBeforeCurrentPrice(int64_t tenantId, const std::vector<std::string>& skus) = 0;
};

}  // namespace svc
