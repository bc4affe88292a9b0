// Unit tests of recommend/WidgetContentService: the SDK's content answer for each widget type.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "ContentTestSupport.hpp"
#include "recommend/WidgetContentService.hpp"

using svc::RecommendationService;
using svc::Tenant;
using svc::WidgetContentService;
using svc::WidgetSpec;
using svc::WidgetType;
using svc::testing::makeProduct;
using svc::testing::ProductContentSource;

namespace {

WidgetSpec widget(WidgetType type, std::string sku, std::string setId = "") {
    WidgetSpec spec;
    spec.type = type;
    spec.sku = std::move(sku);
    spec.setId = std::move(setId);
    return spec;
}

Tenant tenant() {
    Tenant t;
    t.id = 1;
    t.currency = "PLN";
    t.locale = "pl-PL";
    return t;
}

svc::Product styled(std::string mainSku, std::string category, std::string color, int64_t price = 4000, int64_t stock = 2) {
    auto product = makeProduct(mainSku + "-M", mainSku, std::move(category), price, stock);
    product.color = std::move(color);
    product.properties["abteilung"] = "Women";
    return product;
}

}  // namespace

TEST_CASE("WidgetContentService::contentFor answers every widget in order") {
    ProductContentSource store;
    auto& products = store.products[1];
    products.push_back(makeProduct("A-M", "A", "Jeans", 5000));
    auto b = makeProduct("B-M", "B", "Jeans", 4000);
    b.retailPrice = 6000;
    b.brand = "Acme";
    b.thumbnail = "https://cdn.example/B-thumb.jpg";
    products.push_back(b);
    products.push_back(makeProduct("C-M", "C", "Jeans", std::nullopt));  // no price: never shown
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
    const auto& similar = response->widgets[0].items;
    REQUIRE(similar.size() == 2);
    std::set<std::string> shown{similar[0].mainSku, similar[1].mainSku};
    CHECK(shown == std::set<std::string>{"B", "D"});
    for (const auto& item : similar) {
        if (item.mainSku == "B") {
            CHECK(item.sku == "B-M");
            CHECK(item.price == 4000);
            CHECK(item.retailPrice == 6000);
            CHECK(item.brand == "Acme");
            CHECK(item.image == "https://cdn.example/B-thumb.jpg");  // the thumbnail when the feed has one
        } else {
            CHECK(item.price == 5500);
        }
    }
    CHECK(response->widgets[1].items.empty());  // no template: no set
    CHECK(response->widgets[2].items.empty());  // unknown SKU: the widget hides
    CHECK(response->widgets[3].items.empty());  // SET-Compose is demo mode's
}

TEST_CASE("WidgetContentService: SET gives one product per position with alternatives") {
    ProductContentSource store;
    svc::SetTemplate t;
    t.id = "casual";
    t.slots = {{"top", {"Topwear"}, {}}, {"bottom", {"Bottomwear"}, {}}, {"shoes", {"Footwear"}, {}}};
    store.templates = {t};
    auto& products = store.products[1];
    products.push_back(styled("JEANS", "Bottomwear > Jeans", "Blue"));
    for (int i = 0; i < 3; ++i) products.push_back(styled("TOP" + std::to_string(i), "Topwear > Tops", "White"));
    products.push_back(styled("SHOE", "Footwear > Sneakers", "White"));
    RecommendationService recommendations(store);
    WidgetContentService service(recommendations);
    auto response = service.contentFor(tenant(), {widget(WidgetType::Set, "JEANS-M")});
    REQUIRE(response.ok());
    const auto& content = response->widgets[0];
    CHECK(content.setId == "JEANS#generated#1");
    REQUIRE(content.items.size() == 2);
    CHECK(content.items[0].mainSku.rfind("TOP", 0) == 0);
    CHECK(content.items[0].alternatives.size() == 2);
    CHECK(content.items[1].mainSku == "SHOE");
    CHECK(content.items[1].alternatives.empty());
    // The JSON carries the alternatives to the SDK.
    auto parsed = svc::ContentResponse::fromJson(response->toJson());
    REQUIRE(parsed.ok());
    CHECK(parsed->widgets[0].items[0].alternatives.size() == 2);
    CHECK(parsed->widgets[0].setId == "JEANS#generated#1");
}

TEST_CASE("WidgetContentService: SET-Custom by set id or by SKU; a product that is gone gives way to its alternative") {
    ProductContentSource store;
    auto& products = store.products[1];
    products.push_back(styled("TEE", "Topwear > Tshirts", "White"));
    products.push_back(styled("TEE2", "Topwear > Tshirts", "White"));
    products.push_back(styled("JEANS", "Bottomwear > Jeans", "Blue", 6000, 0));  // sold out
    products.push_back(styled("JEANS2", "Bottomwear > Jeans", "Blue"));
    store.customSets = {{"look", "Summer look", "Light and easy", {"summer"}, {"https://cdn.example/look.jpg"}, {"TEE", "JEANS"}}};
    RecommendationService recommendations(store);
    WidgetContentService service(recommendations);
    auto response = service.contentFor(tenant(), {widget(WidgetType::SetCustom, "", "look"), widget(WidgetType::SetCustom, "TEE-M"),
                                                  widget(WidgetType::SetCustom, "", "nope"), widget(WidgetType::SetCustom, "TEE2")});
    REQUIRE(response.ok());
    for (size_t w : {0u, 1u}) {
        const auto& content = response->widgets[w];
        CHECK(content.setId == "look");
        CHECK(content.title == "Summer look");
        CHECK(content.image == "https://cdn.example/look.jpg");
        CHECK(content.description == "Light and easy");  // the photo's alt text in the widget
        REQUIRE(content.items.size() == 2);
        CHECK(content.items[0].mainSku == "TEE");
        CHECK(content.items[0].alternatives.size() == 1);  // TEE2
        CHECK(content.items[1].mainSku == "JEANS2");        // in place of the sold-out JEANS
    }
    CHECK(response->widgets[2].items.empty());  // unknown set
    CHECK(response->widgets[3].items.empty());  // TEE2 is in no set

    products[0].stock = 0;
    products[3].stock = 0;
    products[1].stock = 0;
    RecommendationService allGone(store);
    WidgetContentService goneService(allGone);
    auto gone = goneService.contentFor(tenant(), {widget(WidgetType::SetCustom, "", "look")});
    REQUIRE(gone.ok());
    CHECK(gone->widgets[0].items.empty());  // every product gone: the set is not shown
}
