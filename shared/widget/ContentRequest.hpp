#pragma once
// The one request that fetches content for all widgets of a page. It is a plain
// GET with query parameters only, so browsers send it without a CORS preflight
// and caches can keep it.
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

class ContentRequest {
public:
    // "w=SIMILAR&t=product&s=SKU-1&i=&w=..." : one (w, t, s, i) group per widget, in page order.
    static std::string toQueryString(const std::vector<WidgetSpec>& widgets);
    // Parses a query string made by toQueryString. Repeated identical pairs are
    // meaningful here (two widgets of one type), so no generic query parser is used.
    static Result<std::vector<WidgetSpec>> fromQueryString(std::string_view query);
    // Parses the parallel parameter lists back; errors name the parameter and widget index.
    static Result<std::vector<WidgetSpec>> fromParameters(const std::vector<std::string>& types,
                                                          const std::vector<std::string>& touchpoints,
                                                          const std::vector<std::string>& skus,
                                                          const std::vector<std::string>& setIds);
    static constexpr size_t kMaxWidgets = 24;
};

}  // namespace svc
