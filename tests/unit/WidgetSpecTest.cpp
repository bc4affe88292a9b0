// Unit tests of widget/WidgetSpec: validation of a widget's data attributes.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "widget/WidgetSpec.hpp"

using svc::Touchpoint;
using svc::WidgetSpec;
using svc::WidgetType;

namespace {

using Attributes = std::map<std::string, std::string>;

svc::Result<WidgetSpec> specFrom(const Attributes& attributes) {
    return WidgetSpec::fromAttributes([&](std::string_view name) -> std::optional<std::string> {
        auto it = attributes.find(std::string(name));
        if (it == attributes.end()) return std::nullopt;
        return it->second;
    });
}

}  // namespace

TEST_CASE("WidgetSpec::fromAttributes refuses each invalid combination, naming the attribute") {
    struct InvalidCase {
        Attributes attributes;
        std::string message;
    };
    const std::vector<InvalidCase> cases{
        {{}, "data-svc-widget-id: missing"},
        {{{"data-touchpoint", "product"}, {"data-sku", "A"}}, "data-svc-widget-id: missing"},
        {{{"data-svc-widget-id", "similar"}, {"data-touchpoint", "product"}, {"data-sku", "A"}},
         "data-svc-widget-id: 'similar' is not one of SET, SIMILAR, SET-Custom, SET-Compose"},
        {{{"data-svc-widget-id", ""}, {"data-touchpoint", "product"}},
         "data-svc-widget-id: '' is not one of SET, SIMILAR, SET-Custom, SET-Compose"},
        {{{"data-svc-widget-id", "SET-CUSTOM"}, {"data-touchpoint", "product"}, {"data-sku", "A"}},
         "data-svc-widget-id: 'SET-CUSTOM' is not one of SET, SIMILAR, SET-Custom, SET-Compose"},
        {{{"data-svc-widget-id", "SIMILAR"}, {"data-sku", "A"}}, "data-touchpoint: missing"},
        {{{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "pdp"}, {"data-sku", "A"}},
         "data-touchpoint: 'pdp' is not one of product, cart-layer, cart, content, category, search"},
        {{{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "Product"}, {"data-sku", "A"}},
         "data-touchpoint: 'Product' is not one of product, cart-layer, cart, content, category, search"},
        {{{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}}, "data-sku: required for SIMILAR"},
        {{{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}, {"data-sku", "   "}}, "data-sku: required for SIMILAR"},
        {{{"data-svc-widget-id", "SET"}, {"data-touchpoint", "cart"}, {"data-set-id", "look-1"}}, "data-sku: required for SET"},
        {{{"data-svc-widget-id", "SET-Custom"}, {"data-touchpoint", "content"}}, "data-sku: SET-Custom needs data-sku or data-set-id"},
        {{{"data-svc-widget-id", "SET-Custom"}, {"data-touchpoint", "content"}, {"data-sku", " "}, {"data-set-id", "\t"}},
         "data-sku: SET-Custom needs data-sku or data-set-id"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        auto spec = specFrom(c.attributes);
        REQUIRE_FALSE(spec.ok());
        CHECK(spec.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(spec.error().message == c.message);
    }
}

TEST_CASE("WidgetSpec::fromAttributes accepts valid widgets") {
    SUBCASE("SET-Custom by set id only") {
        auto spec = specFrom({{"data-svc-widget-id", "SET-Custom"}, {"data-touchpoint", "content"}, {"data-set-id", "look-1"}});
        REQUIRE(spec.ok());
        CHECK(spec->type == WidgetType::SetCustom);
        CHECK(spec->touchpoint == Touchpoint::Content);
        CHECK(spec->sku == "");
        CHECK(spec->setId == "look-1");
    }
    SUBCASE("SET-Custom by SKU only") {
        auto spec = specFrom({{"data-svc-widget-id", "SET-Custom"}, {"data-touchpoint", "cart"}, {"data-sku", "A"}});
        REQUIRE(spec.ok());
        CHECK(spec->sku == "A");
        CHECK(spec->setId == "");
    }
    SUBCASE("SET-Compose needs neither") {
        auto spec = specFrom({{"data-svc-widget-id", "SET-Compose"}, {"data-touchpoint", "search"}});
        REQUIRE(spec.ok());
        CHECK(spec->type == WidgetType::SetCompose);
        CHECK(spec->touchpoint == Touchpoint::Search);
    }
    SUBCASE("whitespace around every value is trimmed") {
        auto spec = specFrom({{"data-svc-widget-id", " SIMILAR\t"},
                              {"data-touchpoint", "\ncart-layer "},
                              {"data-sku", "  SKU-1 "},
                              {"data-set-id", " s "}});
        REQUIRE(spec.ok());
        CHECK(spec->type == WidgetType::Similar);
        CHECK(spec->touchpoint == Touchpoint::CartLayer);
        CHECK(spec->sku == "SKU-1");
        CHECK(spec->setId == "s");
    }
}

TEST_CASE("widget type and touchpoint names round trip") {
    const std::vector<std::pair<std::string, WidgetType>> types{
        {"SET", WidgetType::Set}, {"SIMILAR", WidgetType::Similar}, {"SET-Custom", WidgetType::SetCustom},
        {"SET-Compose", WidgetType::SetCompose}};
    for (const auto& [name, type] : types) {
        CAPTURE(name);
        CHECK(svc::parseWidgetType(name) == type);
        CHECK(svc::widgetTypeName(type) == name);
    }
    CHECK(svc::parseWidgetType("set") == std::nullopt);
    const std::vector<std::pair<std::string, Touchpoint>> touchpoints{
        {"product", Touchpoint::Product}, {"cart-layer", Touchpoint::CartLayer}, {"cart", Touchpoint::Cart},
        {"content", Touchpoint::Content}, {"category", Touchpoint::Category},    {"search", Touchpoint::Search}};
    for (const auto& [name, touchpoint] : touchpoints) {
        CAPTURE(name);
        CHECK(svc::parseTouchpoint(name) == touchpoint);
        CHECK(svc::touchpointName(touchpoint) == name);
    }
    CHECK(svc::parseTouchpoint("CART") == std::nullopt);
}
