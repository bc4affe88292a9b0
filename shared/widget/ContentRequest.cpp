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

Result<std::vector<WidgetSpec>> ContentRequest::fromQueryString(std::string_view query) {
    std::vector<std::string> types, touchpoints, skus, setIds;
    size_t start = 0;
    while (start < query.size()) {
        size_t end = query.find('&', start);
        if (end == std::string_view::npos) end = query.size();
        std::string_view pair = query.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        size_t equals = pair.find('=');
        std::string_view key = pair.substr(0, equals);
        auto value = urlDecode(equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1));
        if (!value) return Error::invalidArgument(std::string(key) + ": malformed percent-encoding");
        if (key == "w") types.push_back(std::move(*value));
        else if (key == "t") touchpoints.push_back(std::move(*value));
        else if (key == "s") skus.push_back(std::move(*value));
        else if (key == "i") setIds.push_back(std::move(*value));
        // Other parameters (cache busters, versions) are ignored.
    }
    return fromParameters(types, touchpoints, skus, setIds);
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
