#pragma once
// CategoryMappingStore in the main database (category_slot_mappings, migration 16), on the
// connection and lock the content store uses: a replace bumps content_generations in its own
// transaction.
#include <mutex>

#include "store/CategoryMappingStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteCategoryMappingStore : public CategoryMappingStore {
public:
    SqliteCategoryMappingStore(SqliteDatabase& db, std::mutex& mutex) : db_(db), mutex_(mutex) {}
    Result<std::vector<CategorySlotEntry>> categoryMapping(int64_t tenantId) override;
    Status replaceCategoryMapping(int64_t tenantId, const std::vector<CategorySlotEntry>& entries) override;

private:
    SqliteDatabase& db_;
    std::mutex& mutex_;
};

}  // namespace svc
