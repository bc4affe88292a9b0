#pragma once
// A widget as the shop declares it with data attributes (spec: "Widget element").
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

enum class WidgetType { Set, Similar, SetCustom, SetCompose };
enum class Touchpoint { Product, CartLayer, Cart, Content, Category, Search };

std::optional<WidgetType> parseWidgetType(std::string_view text);
std::string_view widgetTypeName(WidgetType type);
std::optional<Touchpoint> parseTouchpoint(std::string_view text);
std::string_view touchpointName(Touchpoint touchpoint);

struct WidgetSpec {
    WidgetType type = WidgetType::Similar;
    Touchpoint touchpoint = Touchpoint::Product;
    std::string sku;    // data-sku: a SKU or main SKU, as in the feed
    std::string setId;  // data-set-id: one custom set

    using AttributeReader = std::function<std::optional<std::string>(std::string_view name)>;
    // Validates the attributes; the error names the attribute at fault.
    static Result<WidgetSpec> fromAttributes(const AttributeReader& attribute);
};

}  // namespace svc
