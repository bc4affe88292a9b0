// Unit tests of recommend/RecommendationService over an in-memory CatalogStore double.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "FakeCatalogStore.hpp"
#include "recommend/RecommendationService.hpp"

using svc::Article;
using svc::RecommendationService;
using svc::testing::FakeCatalogStore;
using svc::testing::makeProduct;

namespace {

std::vector<std::string> mainSkus(const std::vector<Article>& articles) {
    std::vector<std::string> skus;
    for (const auto& a : articles) skus.push_back(a.mainSku);
    return skus;
}

FakeCatalogStore sampleStore() {
    FakeCatalogStore store;
    auto& products = store.products[1];
    products.push_back(makeProduct("A-S", "A", "Women > Jeans", 5000, 0));
    products.push_back(makeProduct("A-M", "A", "Women > Jeans", 5000, 2));
    products.push_back(makeProduct("B-M", "B", "Women > Jeans", 5000));
    products.push_back(makeProduct("C-M", "C", "Women > Jeans", 5100));
    products.push_back(makeProduct("D-M", "D", "Men > Shirts", 5000));
    auto gone = makeProduct("E-M", "E", "Women > Jeans", 5000);
    gone.deleted = true;
    products.push_back(gone);
    products.push_back(makeProduct("NOCAT", "NOCAT", "", 5000));
    store.products[2].push_back(makeProduct("B-M", "B", "Women > Jeans", 5000));  // another tenant
    return store;
}

}  // namespace

TEST_CASE("RecommendationService::findArticle by SKU or main SKU, without deleted variants") {
    FakeCatalogStore store = sampleStore();
    store.products[1].push_back([] {
        auto deletedSize = makeProduct("B-XL", "B", "Women > Jeans", 5000);
        deletedSize.deleted = true;
        return deletedSize;
    }());
    RecommendationService service(store);
    struct FindCase {
        std::string id;
        std::optional<std::string> mainSku;
        std::vector<std::string> variantSkus;
    };
    const std::vector<FindCase> cases{
        {"A", "A", {"A-S", "A-M"}},
        {"A-S", "A", {"A-S", "A-M"}},
        {"B", "B", {"B-M"}},             // the deleted size is left out
        {"E", std::nullopt, {}},        // only deleted variants
        {"unknown", std::nullopt, {}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.id);
        auto found = service.findArticle(1, c.id);
        REQUIRE(found.ok());
        if (!c.mainSku) {
            CHECK_FALSE(found->has_value());
            continue;
        }
        REQUIRE(found->has_value());
        CHECK((*found)->mainSku == *c.mainSku);
        std::vector<std::string> skus;
        for (const auto& variant : (*found)->variants) skus.push_back(variant.sku);
        CHECK(skus == c.variantSkus);
    }
}

TEST_CASE("RecommendationService::similarTo ranks available articles of the anchor's category") {
    FakeCatalogStore store = sampleStore();
    RecommendationService service(store);
    auto anchor = service.findArticle(1, "A");
    REQUIRE(anchor.ok());
    REQUIRE(anchor->has_value());
    store.calls.clear();

    auto similar = service.similarTo(1, **anchor, 10);
    REQUIRE(similar.ok());
    CHECK(mainSkus(*similar) == std::vector<std::string>{"B", "C"});  // same price first; no anchor, no other category, no deleted
    CHECK(store.calls == std::vector<std::string>{"availableInCategory(1,Women > Jeans,2000)"});

    auto one = service.similarTo(1, **anchor, 1);
    REQUIRE(one.ok());
    CHECK(mainSkus(*one) == std::vector<std::string>{"B"});
}

TEST_CASE("RecommendationService::similarTo returns nothing without a category or with limit 0, without asking the store") {
    FakeCatalogStore store = sampleStore();
    RecommendationService service(store);
    auto noCategory = service.findArticle(1, "NOCAT");
    REQUIRE(noCategory.ok());
    REQUIRE(noCategory->has_value());
    auto anchor = service.findArticle(1, "A");
    REQUIRE(anchor.ok());
    store.calls.clear();
    auto none = service.similarTo(1, **noCategory, 10);
    REQUIRE(none.ok());
    CHECK(none->empty());
    auto zero = service.similarTo(1, **anchor, 0);
    REQUIRE(zero.ok());
    CHECK(zero->empty());
    CHECK(store.calls.empty());
}

TEST_CASE("RecommendationService passes store failures on") {
    FakeCatalogStore store = sampleStore();
    RecommendationService service(store);
    auto anchor = service.findArticle(1, "A");
    REQUIRE(anchor.ok());
    store.failure = svc::Error::unavailable("database is locked");
    auto found = service.findArticle(1, "A");
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == svc::ErrorCode::Unavailable);
    CHECK(found.error().message == "database is locked");
    auto similar = service.similarTo(1, **anchor, 5);
    REQUIRE_FALSE(similar.ok());
    CHECK(similar.error().message == "database is locked");
}
