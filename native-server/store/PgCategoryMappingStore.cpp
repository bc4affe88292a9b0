#include "store/PgCategoryMappingStore.hpp"

#include <nlohmann/json.hpp>

#include "recommend/TextTokenizer.hpp"
#include "store/PgChangeNotifications.hpp"

namespace svc {

Result<std::vector<CategorySlotEntry>> PgCategoryMappingStore::categoryMapping(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<CategorySlotEntry>> {
        auto rows = connection.execute("read category mapping", "SELECT category, slot FROM category_slot_mappings WHERE tenant_id = $1 ORDER BY position",
                                       {tenantId});
        if (!rows) return rows.error();
        std::vector<CategorySlotEntry> entries;
        for (int row = 0; row < rows->rows(); ++row) entries.push_back({rows->text(row, 0), rows->text(row, 1)});
        return entries;
    });
}

Status PgCategoryMappingStore::replaceCategoryMapping(int64_t tenantId, const std::vector<CategorySlotEntry>& entries) {
    // All entries in one statement (arrays unnested WITH ORDINALITY): one round trip for up to
    // CategorySlotMapping::kMaxEntries entries, not one each.
    auto keys = nlohmann::json::array(), categories = nlohmann::json::array(), slots = nlohmann::json::array();
    for (const auto& entry : entries) {
        keys.push_back(TextTokenizer::key(entry.category));
        categories.push_back(entry.category);
        slots.push_back(entry.slot);
    }
    std::string keysJson, categoriesJson, slotsJson;
    try {
        keysJson = keys.dump(), categoriesJson = categories.dump(), slotsJson = slots.dump();
    } catch (const nlohmann::json::exception&) {  // PostgreSQL would refuse the bytes too
        return Error::invalidArgument("entries: a category or slot is not valid UTF-8");
    }
    return database_.withConnection([&](PgConnection& connection) -> Status {
        return connection.inTransaction("replace category mapping", [&]() -> Status {
            if (auto bumped = PgChangeNotifications::bumpGeneration(connection, tenantId); !bumped) return bumped;
            auto cleared = connection.execute("replace category mapping: clear", "DELETE FROM category_slot_mappings WHERE tenant_id = $1", {tenantId});
            if (!cleared) return cleared.error();
            if (entries.empty()) return Status::success();
            auto inserted = connection.execute(
                "replace category mapping: insert",
                "INSERT INTO category_slot_mappings(tenant_id, category_key, category, slot, position) "
                "SELECT $1, k.value, c.value, s.value, k.position - 1 "
                "FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS k(value, position) "
                "JOIN jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS c(value, position) USING (position) "
                "JOIN jsonb_array_elements_text($4::jsonb) WITH ORDINALITY AS s(value, position) USING (position)",
                {tenantId, keysJson, categoriesJson, slotsJson});
            if (!inserted) return inserted.error();
            return Status::success();
        });
    });
}

}  // namespace svc
