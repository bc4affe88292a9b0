#include "widget/ContentRequest.hpp"

#include "text/StringUtil.hpp"

namespace svc {

std::string ContentRequest::toQueryString(const std::vector<WidgetSpec>& widgets) {
    std::string query;
    for (const auto& widget : widgets) {
        if (!query.empty()) query += '&';
        query += "w=" + urlEncode(widgetTypeName(widget.type));
        query += "&t=" + urlEncode(touchpointName(widget.touchpoint));
        query += "&s=" + urlEncode(widget.sku);
        query += "&i=" + urlEncode(widget.setId);
    }
    return query;
}

Result<std::vector<WidgetSpec>> ContentRequest::fromParameters(const std::vector<std::string>& types,
                                                               const std::vector<std::string>& touchpoints,
                                                               const std::vector<std::string>& skus,
                                                               const std::vector<std::string>& setIds) {
    if (types.empty()) return Error::invalidArgument("w: at least one widget is required");
    if (types.size() > kMaxWidgets) {
        return Error::invalidArgument("w: at most " + std::to_string(kMaxWidgets) + " widgets per request");
    }
    if (touchpoints.size() != types.size() || skus.size() != types.size() || setIds.size() != types.size()) {
        return Error::invalidArgument("w, t, s, i: each widget needs all four parameters");
    }
    std::vector<WidgetSpec> widgets;
    for (size_t i = 0; i < types.size(); ++i) {
        auto spec = WidgetSpec::fromAttributes([&](std::string_view name) -> std::optional<std::string> {
            if (name == "data-svc-widget-id") return types[i];
            if (name == "data-touchpoint") return touchpoints[i];
            if (name == "data-sku") return skus[i];
            if (name == "data-set-id") return setIds[i];
            return std::nullopt;
        });
        if (!spec) return Error::invalidArgument("widget " + std::to_string(i) + ": " + spec.error().message);
        widgets.push_back(std::move(*spec));
    }
    return widgets;
}

}  // namespace svc
