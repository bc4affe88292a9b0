#include "recommend/WidgetContentService.hpp"

namespace svc {
namespace {

ContentItem toItem(const Article& article) {
    const Product& product = article.representative();
    ContentItem item;
    item.sku = product.sku;
    item.mainSku = article.mainSku;
    item.name = product.name;
    item.brand = product.brand;
    item.url = product.deeplink;
    item.image = product.thumbnail.empty() ? product.image : product.thumbnail;
    item.price = product.sellingPrice().value_or(0);
    item.retailPrice = product.retailPrice;
    return item;
}

}  // namespace

Result<WidgetContent> WidgetContentService::similar(const Tenant& tenant, const WidgetSpec& spec) {
    auto anchor = recommendations_.findArticle(tenant.id, spec.sku);
    if (!anchor) return anchor.error();
    if (!*anchor) return WidgetContent{};  // unknown SKU: no content, the widget hides
    auto similar = recommendations_.similarTo(tenant.id, **anchor, kItemsPerWidget);
    if (!similar) return similar.error();
    WidgetContent content;
    for (const auto& article : *similar) {
        if (article.representative().sellingPrice()) content.items.push_back(toItem(article));
    }
    return content;
}

Result<ContentResponse> WidgetContentService::contentFor(const Tenant& tenant, const std::vector<WidgetSpec>& widgets) {
    ContentResponse response;
    response.currency = tenant.currency;
    response.locale = tenant.locale;
    for (const auto& spec : widgets) {
        WidgetContent content;
        if (spec.type == WidgetType::Similar) {
            auto similarContent = similar(tenant, spec);
            if (!similarContent) return similarContent.error();
            content = std::move(*similarContent);
        }
        // SET, SET-Custom and SET-Compose content arrives with the recommendation engine
        // (issue #5) and demo mode (issue #6); until then they answer empty and hide.
        response.widgets.push_back(std::move(content));
    }
    return response;
}

}  // namespace svc
