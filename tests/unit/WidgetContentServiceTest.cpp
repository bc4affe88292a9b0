// Unit tests of recommend/WidgetContentService over an in-memory CatalogStore double.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "FakeCatalogStore.hpp"
#include "recommend/WidgetContentService.hpp"

using svc::RecommendationService;
using svc::Tenant;
using svc::WidgetContentService;
using svc::WidgetSpec;
using svc::WidgetType;
using svc::testing::FakeCatalogStore;
using svc::testing::makeProduct;

namespace {

WidgetSpec widget(WidgetType type, std::string sku) {
    WidgetSpec spec;
    spec.type = type;
    spec.sku = std::move(sku);
    return spec;
}

Tenant tenant() {
    Tenant t;
    t.id = 1;
    t.currency = "PLN";
    t.locale = "pl-PL";
    return t;
}

}  // namespace

TEST_CASE("WidgetContentService::contentFor answers every widget in order") {
    FakeCatalogStore store;
    auto& products = store.products[1];
    products.push_back(makeProduct("A-M", "A", "Jeans", 5000));
    auto b = makeProduct("B-M", "B", "Jeans", 4000);
    b.retailPrice = 6000;
    b.brand = "Acme";
    b.thumbnail = "https://cdn.example/B-thumb.jpg";
    products.push_back(b);
    auto noPrice = makeProduct("C-M", "C", "Jeans", std::nullopt);
    products.push_back(noPrice);
    auto d = makeProduct("D-S", "D", "Jeans", std::nullopt);
    d.retailPrice = 5500;  // no discount: the retail price is the selling price
    products.push_back(d);
    RecommendationService recommendations(store);
    WidgetContentService service(recommendations);

    auto response = service.contentFor(tenant(), {widget(WidgetType::Similar, "A-M"), widget(WidgetType::Set, "A"),
                                                  widget(WidgetType::Similar, "unknown"), widget(WidgetType::SetCompose, "")});
    REQUIRE(response.ok());
    CHECK(response->currency == "PLN");
    CHECK(response->locale == "pl-PL");
    REQUIRE(response->widgets.size() == 4);
    const auto& items = response->widgets[0].items;
    REQUIRE(items.size() == 2);  // C has no price and is left out
    // D's price is closer to the anchor's (5500 vs 4000 for 5000), so D ranks first.
    CHECK(items[0].sku == "D-S");
    CHECK(items[0].mainSku == "D");
    CHECK(items[0].image == "https://cdn.example/D.jpg");
    CHECK(items[0].price == 5500);
    CHECK(items[0].retailPrice == std::optional<int64_t>(5500));
    CHECK(items[1].sku == "B-M");
    CHECK(items[1].mainSku == "B");
    CHECK(items[1].name == "Name of B");
    CHECK(items[1].brand == "Acme");
    CHECK(items[1].url == "https://shop.example/B");
    CHECK(items[1].image == "https://cdn.example/B-thumb.jpg");  // the thumbnail when there is one
    CHECK(items[1].price == 4000);
    CHECK(items[1].retailPrice == std::optional<int64_t>(6000));
    CHECK(response->widgets[1].items.empty());  // SET content is not computed yet
    CHECK(response->widgets[2].items.empty());  // unknown SKU: the widget hides
    CHECK(response->widgets[3].items.empty());
}

TEST_CASE("WidgetContentService: at most kItemsPerWidget items") {
    FakeCatalogStore store;
    store.products[1].push_back(makeProduct("ANCHOR", "ANCHOR", "Jeans", 5000));
    for (int i = 0; i < 30; ++i) {
        std::string sku = "P" + std::to_string(100 + i);
        store.products[1].push_back(makeProduct(sku, sku, "Jeans", 5000));
    }
    RecommendationService recommendations(store);
    WidgetContentService service(recommendations);
    auto response = service.contentFor(tenant(), {widget(WidgetType::Similar, "ANCHOR")});
    REQUIRE(response.ok());
    CHECK(WidgetContentService::kItemsPerWidget == 12);
    REQUIRE(response->widgets.at(0).items.size() == 12);
    CHECK(response->widgets[0].items.front().sku == "P100");
    CHECK(response->widgets[0].items.back().sku == "P111");
}

TEST_CASE("WidgetContentService: a store failure fails the whole answer") {
    FakeCatalogStore store;
    store.failure = svc::Error::unavailable("database is locked");
    RecommendationService recommendations(store);
    WidgetContentService service(recommendations);
    auto response = service.contentFor(tenant(), {widget(WidgetType::Similar, "A")});
    REQUIRE_FALSE(response.ok());
    CHECK(response.error().message == "database is locked");
    // Widgets that need no catalog read still answer.
    auto sets = service.contentFor(tenant(), {widget(WidgetType::Set, "A")});
    REQUIRE(sets.ok());
    CHECK(sets->widgets.size() == 1);
}
