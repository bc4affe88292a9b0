#pragma once
// Content for the widgets of one page, in one answer (the SDK's content request).
#include <optional>
#include <vector>

#include "catalog/Article.hpp"
#include "recommend/RecommendationService.hpp"
#include "tenant/Tenant.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

// What a shopper sees of an article: its representative variant's name, image and selling
// price; nothing for an article without a price (it could not be bought). Also what the
// console's set preview shows, so a preview looks like the shop.
std::optional<ContentItem> contentItemOf(const Article& article);

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
