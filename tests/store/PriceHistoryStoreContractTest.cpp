// The PriceHistoryStore contract (shared/store/PriceHistoryStore.hpp) on every backend. The
// history is what catalog imports leave: each import below sets a SKU's prices at its time.
#include "StoreBackends.hpp"

#include <limits>

namespace svc::contract {
namespace {

constexpr int64_t kStart = 1'700'000'000;
constexpr int64_t kDay = 86'400;

struct PriceAt {
    int64_t day;  // after kStart
    std::optional<int64_t> retail, discount;
};

const FeedShape& priceShape() {
    static const FeedShape shape{{FeedField::Sku, FeedField::MainSku, FeedField::Name, FeedField::Stock, FeedField::RetailPrice,
                                  FeedField::DiscountPrice},
                                 {}};
    return shape;
}

// One import per price, of `sku` alone (a delta: nothing else is touched).
void setPrices(CatalogStore& catalog, int64_t tenantId, const std::string& sku, const std::vector<PriceAt>& prices) {
    for (const auto& price : prices) {
        auto import = catalog.beginImport(tenantId, kStart + price.day * kDay, "default");
        REQUIRE_MESSAGE(import, (import ? "" : import.error().message));
        Product product;
        product.sku = sku;
        product.mainSku = sku;
        product.name = "Shirt";
        product.stock = 1;
        product.retailPrice = price.retail;
        product.discountPrice = price.discount;
        REQUIRE((*import)->upsert(product, priceShape()));
        REQUIRE((*import)->commit(nullptr));
    }
}

}  // namespace

TEST_CASE("PriceHistoryStore: the lowest selling price of the 30 days before the current price began") {
    struct Case {
        std::string name;
        std::vector<PriceAt> prices;
        std::optional<int64_t> lowest;  // nullopt: absent from the answer
    };
    const std::vector<Case> cases{
        {"never changed", {{0, 1000, {}}}, std::nullopt},
        {"listed again at the same price", {{0, 1000, {}}, {5, 1000, {}}}, std::nullopt},
        {"one reduction", {{0, 1000, {}}, {10, 800, {}}}, 1000},
        {"the lowest of several", {{0, 1000, {}}, {5, 900, {}}, {10, 1000, {}}}, 900},
        {"the discount is the selling price", {{0, 1000, {}}, {5, 1000, 700}, {10, 1000, {}}}, 700},
        {"the price valid when the window began counts", {{0, 700, {}}, {20, 1000, {}}, {40, 1200, {}}}, 700},
        {"prices valid only before the window do not", {{0, 500, {}}, {1, 1000, {}}, {61, 1200, {}}}, 1000},
        {"a change long after the last", {{0, 1000, {}}, {10, 800, {}}, {50, 900, {}}}, 800},
        {"the largest price", {{0, std::numeric_limits<int64_t>::max(), {}}, {3, 1, {}}}, std::numeric_limits<int64_t>::max()},
        {"a price of zero", {{0, 0, {}}, {3, 10, {}}}, 0},
    };
    forEachBackend([&](Backend& backend) {
        Storage& storage = *backend.storage;
        for (const auto& entry : cases) {
            CAPTURE(entry.name);
            Tenant tenant = newTenant(storage, entry.name);
            setPrices(storage.catalog(), tenant.id, "S-1", entry.prices);
            auto lowest = storage.priceHistory().lowestBeforeCurrentPrice(tenant.id, {"S-1"});
            REQUIRE_MESSAGE(lowest, (lowest ? "" : lowest.error().message));
            if (entry.lowest) {
                CHECK(lowest->size() == 1);
                CHECK(lowest->at("S-1") == *entry.lowest);
            } else {
                CHECK(lowest->empty());
            }
        }
    });
}

TEST_CASE("PriceHistoryStore: unknown SKUs, a tenant without a catalog and other tenants' histories answer nothing") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A"), b = newTenant(storage, "B"), none = newTenant(storage, "None");
        setPrices(storage.catalog(), a.id, "S-1", {{0, 1000, {}}, {10, 800, {}}});
        setPrices(storage.catalog(), a.id, "S-2", {{0, 50, {}}, {10, 60, {}}});
        setPrices(storage.catalog(), b.id, "S-1", {{0, 900, {}}});
        setPrices(storage.catalog(), b.id, "S-3", {{0, 1, {}}, {10, 2, {}}});
        PriceHistoryStore& history = storage.priceHistory();
        CHECK(history.lowestBeforeCurrentPrice(a.id, {"S-1", "S-2", "S-3", "unknown"}).value() ==
              std::map<std::string, int64_t>{{"S-1", 1000}, {"S-2", 50}});
        CHECK(history.lowestBeforeCurrentPrice(b.id, {"S-1", "S-2", "S-3"}).value() == std::map<std::string, int64_t>{{"S-3", 1}});
        CHECK(history.lowestBeforeCurrentPrice(none.id, {"S-1", "S-3"}).value().empty());
        CHECK(history.lowestBeforeCurrentPrice(a.id, {}).value().empty());
        for (const auto& text : hostileStrings()) {
            setPrices(storage.catalog(), a.id, text, {{0, 10, {}}, {1, 5, {}}});
            CHECK(history.lowestBeforeCurrentPrice(a.id, {text}).value() == std::map<std::string, int64_t>{{text, 10}});
        }
    });
}

}  // namespace svc::contract
