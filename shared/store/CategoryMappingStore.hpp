#pragma once
// Storage of each tenant's mapping of its categories onto the content pool's slots (ADR 0075).
// Contract: a tenant's mapping is read back exactly as replaced (entries in their order); a
// replace is all or nothing, and in the same transaction marks the tenant's content as changed
// (its content generation, ContentStore::generations), so every server process rebuilds it;
// tenants never see each other's entries.
#include <cstdint>
#include <vector>

#include "core/Result.hpp"
#include "sets/CategorySlotMapping.hpp"

namespace svc {

class CategoryMappingStore {
public:
    virtual ~CategoryMappingStore() = default;
    // Empty when the tenant has none.
    virtual Result<std::vector<CategorySlotEntry>> categoryMapping(int64_t tenantId) = 0;
    virtual Status replaceCategoryMapping(int64_t tenantId, const std::vector<CategorySlotEntry>& entries) = 0;
};

}  // namespace svc
