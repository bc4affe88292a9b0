#include "widget/WidgetSpec.hpp"

#include "core/NameTable.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

constexpr NameTable<WidgetType, 4> kWidgetTypes{{{
    {"SET", WidgetType::Set},
    {"SIMILAR", WidgetType::Similar},
    {"SET-Custom", WidgetType::SetCustom},
    {"SET-Compose", WidgetType::SetCompose},
}}};

constexpr NameTable<Touchpoint, 6> kTouchpoints{{{
    {"product", Touchpoint::Product},
    {"cart-layer", Touchpoint::CartLayer},
    {"cart", Touchpoint::Cart},
    {"content", Touchpoint::Content},
    {"category", Touchpoint::Category},
    {"search", Touchpoint::Search},
}}};

}  // namespace

std::optional<WidgetType> parseWidgetType(std::string_view text) { return kWidgetTypes.parse(text); }
std::string_view widgetTypeName(WidgetType type) { return kWidgetTypes.name(type); }
std::optional<Touchpoint> parseTouchpoint(std::string_view text) { return kTouchpoints.parse(text); }
std::string_view touchpointName(Touchpoint touchpoint) { return kTouchpoints.name(touchpoint); }

Result<WidgetSpec> WidgetSpec::fromAttributes(const AttributeReader& attribute) {
    WidgetSpec spec;
    auto typeText = attribute("data-svc-widget-id");
    if (!typeText) return Error::invalidArgument("data-svc-widget-id: missing");
    auto type = parseWidgetType(trim(*typeText));
    if (!type) {
        return Error::invalidArgument("data-svc-widget-id: '" + *typeText +
                                      "' is not one of SET, SIMILAR, SET-Custom, SET-Compose");
    }
    spec.type = *type;
    auto touchpointText = attribute("data-touchpoint");
    if (!touchpointText) return Error::invalidArgument("data-touchpoint: missing");
    auto touchpoint = parseTouchpoint(trim(*touchpointText));
    if (!touchpoint) {
        return Error::invalidArgument("data-touchpoint: '" + *touchpointText +
                                      "' is not one of product, cart-layer, cart, content, category, search");
    }
    spec.touchpoint = *touchpoint;
    spec.sku = std::string(trim(attribute("data-sku").value_or("")));
    spec.setId = std::string(trim(attribute("data-set-id").value_or("")));
    switch (spec.type) {
        case WidgetType::Set:
        case WidgetType::Similar:
            if (spec.sku.empty()) {
                return Error::invalidArgument("data-sku: required for " + std::string(widgetTypeName(spec.type)));
            }
            break;
        case WidgetType::SetCustom:
            if (spec.sku.empty() && spec.setId.empty()) {
                return Error::invalidArgument("data-sku: SET-Custom needs data-sku or data-set-id");
            }
            break;
        case WidgetType::SetCompose: break;
    }
    return spec;
}

}  // namespace svc
