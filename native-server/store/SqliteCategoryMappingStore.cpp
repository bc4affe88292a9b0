#include "store/SqliteCategoryMappingStore.hpp"

#include "recommend/TextTokenizer.hpp"

namespace svc {

Result<std::vector<CategorySlotEntry>> SqliteCategoryMappingStore::categoryMapping(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT category, slot FROM category_slot_mappings WHERE tenant_id = ? ORDER BY position");
    if (!query) return query.error();
    query->bind(1, tenantId);
    std::vector<CategorySlotEntry> entries;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        entries.push_back({query->text(0), query->text(1)});
    }
    return entries;
}

Status SqliteCategoryMappingStore::replaceCategoryMapping(int64_t tenantId, const std::vector<CategorySlotEntry>& entries) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);  // rolled back on any early return
    if (!transaction) return transaction.error();
    auto clear = db_.prepare("DELETE FROM category_slot_mappings WHERE tenant_id = ?");
    if (!clear) return clear.error();
    clear->bind(1, tenantId);
    if (auto status = clear->run(); !status) return status;
    auto insert = db_.prepare("INSERT INTO category_slot_mappings(tenant_id, category_key, category, slot, position) VALUES (?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    for (size_t i = 0; i < entries.size(); ++i) {
        insert->reset();
        insert->bind(1, tenantId)
            .bind(2, TextTokenizer::key(entries[i].category))
            .bind(3, entries[i].category)
            .bind(4, entries[i].slot)
            .bind(5, static_cast<int64_t>(i));
        if (auto status = insert->run(); !status) return status;
    }
    auto bump = db_.prepare("INSERT INTO content_generations(tenant_id, generation) VALUES (?, 1) "
                            "ON CONFLICT(tenant_id) DO UPDATE SET generation = generation + 1");
    if (!bump) return bump.error();
    bump->bind(1, tenantId);
    if (auto status = bump->run(); !status) return status;
    return transaction->commit();
}

}  // namespace svc
