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
    static constexpr size_t kAlternativesPerItem = 4;
    explicit WidgetContentService(RecommendationService& recommendations) : recommendations_(recommendations) {}
    Result<ContentResponse> contentFor(const Tenant& tenant, const std::vector<WidgetSpec>& widgets);

private:
    Result<WidgetContent> similar(const ArticleRef& anchor) const;
    Result<WidgetContent> complementarySet(const ArticleRef& anchor) const;
    Result<WidgetContent> customSet(const Tenant& tenant, const WidgetSpec& spec, const std::optional<ArticleRef>& anchor) const;
    RecommendationService& recommendations_;
};

}  // namespace svc
