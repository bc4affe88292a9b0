#pragma once
// CategoryMappingStore on PostgreSQL (docs/adr/0088). A replace bumps the tenant's content
// generation first, in the same transaction: the generation row's lock orders two nodes
// replacing one tenant's mapping, and the NOTIFY goes out only if the replace commits.
#include "store/CategoryMappingStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgCategoryMappingStore : public CategoryMappingStore {
public:
    explicit PgCategoryMappingStore(PgDatabase& database) : database_(database) {}

    Result<std::vector<CategorySlotEntry>> categoryMapping(int64_t tenantId) override;
    Status replaceCategoryMapping(int64_t tenantId, const std::vector<CategorySlotEntry>& entries) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
