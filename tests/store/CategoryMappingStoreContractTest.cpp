// The CategoryMappingStore contract (shared/store/CategoryMappingStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {
namespace {

int64_t generationOf(Storage& storage, int64_t tenantId) {
    auto generations = storage.content().generations();
    REQUIRE_MESSAGE(generations, (generations ? "" : generations.error().message));
    auto found = generations->find(tenantId);
    return found == generations->end() ? 0 : found->second;
}

std::vector<CategorySlotEntry> mappingOf(Storage& storage, int64_t tenantId) {
    auto mapping = storage.categoryMappings().categoryMapping(tenantId);
    REQUIRE_MESSAGE(mapping, (mapping ? "" : mapping.error().message));
    return *mapping;
}

}  // namespace

TEST_CASE("CategoryMappingStore: a mapping reads back as replaced, in its order; each replace bumps only its tenant's generation") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A"), b = newTenant(storage, "B");
        CHECK(mappingOf(storage, a.id).empty());
        std::vector<CategorySlotEntry> first{{"Skinny Jeans", "bottom"}, {"Anoraks", "top"}, {"Boots", "shoes"}};
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(a.id, first));
        CHECK(mappingOf(storage, a.id) == first);
        CHECK(generationOf(storage, a.id) == 1);
        std::vector<CategorySlotEntry> second{{"Boots", "top"}, {"Zip Hoodies", "top"}};
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(a.id, second));
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(b.id, {{"Boots", "shoes"}}));
        CHECK(mappingOf(storage, a.id) == second);
        CHECK(mappingOf(storage, b.id) == std::vector<CategorySlotEntry>{{"Boots", "shoes"}});
        CHECK(generationOf(storage, a.id) == 2);
        CHECK(generationOf(storage, b.id) == 1);
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(a.id, {}));
        CHECK(mappingOf(storage, a.id).empty());
        CHECK(generationOf(storage, a.id) == 3);
        CHECK(mappingOf(storage, b.id).size() == 1);
    });
}

TEST_CASE("CategoryMappingStore: a replace that fails writes nothing and bumps nothing") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A");
        std::vector<CategorySlotEntry> kept{{"Boots", "shoes"}};
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(a.id, kept));
        // "T-Shirts" and "Tshirts" are one category (one key): a second entry for it is refused.
        auto refused = storage.categoryMappings().replaceCategoryMapping(a.id, {{"Anoraks", "top"}, {"T-Shirts", "top"}, {"Tshirts", "top"}});
        CHECK_FALSE(refused);
        CHECK(mappingOf(storage, a.id) == kept);
        CHECK(generationOf(storage, a.id) == 1);
    });
}

TEST_CASE("CategoryMappingStore: hostile categories and slots are kept byte for byte") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A");
        std::vector<CategorySlotEntry> entries;
        for (size_t i = 0; i < hostileStrings().size(); ++i) {
            entries.push_back({std::to_string(i) + " " + hostileStrings()[i].substr(0, CategorySlotMapping::kMaxCategoryBytes - 4), hostileStrings()[i]});
        }
        REQUIRE(storage.categoryMappings().replaceCategoryMapping(a.id, entries));
        CHECK(mappingOf(storage, a.id) == entries);
    });
}

}  // namespace svc::contract
