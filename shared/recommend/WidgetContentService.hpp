#pragma once
// Content for the widgets of one page, in one answer (the SDK's content request).
#include <vector>

#include "recommend/RecommendationService.hpp"
#include "tenant/Tenant.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

class WidgetContentService {
public:
    static constexpr size_t kItemsPerWidget = 12;
    explicit WidgetContentService(RecommendationService& recommendations) : recommendations_(recommendations) {}
    Result<ContentResponse> contentFor(const Tenant& tenant, const std::vector<WidgetSpec>& widgets);

private:
    Result<WidgetContent> similar(const Tenant& tenant, const WidgetSpec& spec);
    RecommendationService& recommendations_;
};

}  // namespace svc
