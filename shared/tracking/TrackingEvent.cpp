#include "tracking/TrackingEvent.hpp"

#include "core/NameTable.hpp"

namespace svc {
namespace {

constexpr NameTable<WidgetEventType, 3> kWidgetEventTypes{{{
    {"view", WidgetEventType::View},
    {"click", WidgetEventType::Click},
    {"add-to-cart", WidgetEventType::AddToCart},
}}};

}  // namespace

std::string_view widgetEventTypeName(WidgetEventType type) { return kWidgetEventTypes.name(type); }
std::optional<WidgetEventType> parseWidgetEventType(std::string_view text) { return kWidgetEventTypes.parse(text); }

}  // namespace svc
