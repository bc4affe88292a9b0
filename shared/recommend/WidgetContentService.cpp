#include "recommend/WidgetContentService.hpp"

namespace svc {

// Only articles with a price can be shown (and added to the cart).
std::optional<ContentItem> contentItemOf(const Article& article) {
    const Product& product = article.representative();
    if (!product.sellingPrice()) return std::nullopt;
    ContentItem item;
    item.sku = product.sku;
    item.mainSku = article.mainSku;
    item.name = product.name;
    item.brand = product.brand;
    item.url = product.deeplink;
    item.image = product.thumbnail.empty() ? product.image : product.thumbnail;
    item.price = *product.sellingPrice();
    item.retailPrice = product.retailPrice;
    // The shop's own statement (feed column lowest-price-30d) comes first: the shop knew prices
    // before svc did. svc's recorded history fills in for a reduced item (a crossed-out price).
    // Whether either is shown is the tenant's country rule, applied where the answer is
    // presented (WidgetPresentation).
    item.lowestPrice30Days = product.lowestPrice30d;
    if (!item.lowestPrice30Days && item.retailPrice && *item.retailPrice > item.price) item.lowestPrice30Days = product.recordedLowestPrice30d;
    return item;
}

namespace {

void addAlternatives(ContentItem& item, const std::vector<ArticleRef>& candidates, size_t limit) {
    for (const auto& candidate : candidates) {
        if (item.alternatives.size() >= limit) break;
        if (candidate.article().mainSku == item.mainSku) continue;
        if (auto alternative = contentItemOf(candidate.article())) item.alternatives.push_back(std::move(*alternative));
    }
}

}  // namespace

Result<WidgetContent> WidgetContentService::similar(const ArticleRef& anchor) const {
    WidgetContent content;
    for (const auto& article : recommendations_.similarTo(anchor, kItemsPerWidget)) {
        if (auto item = contentItemOf(article.article())) content.items.push_back(std::move(*item));
    }
    return content;
}

Result<WidgetContent> WidgetContentService::complementarySet(const ArticleRef& anchor) const {
    WidgetContent content;
    auto clusters = recommendations_.clusters(anchor, 8, 1 + kAlternativesPerItem);
    auto sets = RecommendationService::generatedSets(anchor, clusters, 1);
    if (sets.empty()) return content;
    content.setId = sets.front().id;
    for (const auto& cluster : clusters) {
        if (cluster.articles.empty()) continue;
        auto item = contentItemOf(*anchor.snapshot->entry(cluster.articles.front()).article);
        if (!item) continue;
        std::vector<ArticleRef> alternatives;
        for (size_t i = 1; i < cluster.articles.size(); ++i) alternatives.push_back({anchor.snapshot, cluster.articles[i]});
        addAlternatives(*item, alternatives, kAlternativesPerItem);
        content.items.push_back(std::move(*item));
    }
    return content;
}

Result<WidgetContent> WidgetContentService::customSet(const Tenant& tenant, const WidgetSpec& spec,
                                                      const std::optional<ArticleRef>& anchor) const {
    WidgetContent content;
    const ResolvedCustomSet* set = nullptr;
    std::shared_ptr<const ContentSnapshot> snapshot;
    if (!spec.setId.empty()) {
        auto current = recommendations_.snapshot(tenant.id);
        if (!current) return current.error();
        snapshot = *current;
        set = snapshot->customSet(spec.setId);
        if (set && !customSetShowable(*snapshot, *set)) set = nullptr;
    } else if (anchor) {
        snapshot = anchor->snapshot;
        auto sets = recommendations_.customSetsOf(*anchor);
        if (!sets.empty()) set = sets.front();
    }
    if (!set) return content;  // no set: the widget hides
    content.setId = set->definition.id;
    content.title = set->definition.title;
    content.description = set->definition.description;
    if (!set->definition.images.empty()) content.image = set->definition.images.front();
    std::vector<uint32_t> shown(set->articles.begin(), set->articles.end());
    for (uint32_t index : set->articles) {
        ArticleRef product{snapshot, index};
        auto alternatives = recommendations_.similarTo(product, kAlternativesPerItem + 1);
        if (snapshot->available(index)) {
            auto item = contentItemOf(product.article());
            if (!item) continue;
            addAlternatives(*item, alternatives, kAlternativesPerItem);
            content.items.push_back(std::move(*item));
            continue;
        }
        // A product that is gone: its best alternative takes its place, the others stay alternatives.
        std::vector<ArticleRef> rest;
        std::optional<ContentItem> replacement;
        for (const auto& alternative : alternatives) {
            if (std::find(shown.begin(), shown.end(), alternative.index) != shown.end()) continue;
            if (!replacement) {
                replacement = contentItemOf(alternative.article());
                if (replacement) shown.push_back(alternative.index);
            } else {
                rest.push_back(alternative);
            }
        }
        if (!replacement) continue;
        addAlternatives(*replacement, rest, kAlternativesPerItem);
        content.items.push_back(std::move(*replacement));
    }
    return content;
}

Result<ContentResponse> WidgetContentService::contentFor(const Tenant& tenant, const std::vector<WidgetSpec>& widgets) {
    ContentResponse response;
    response.currency = tenant.currency;
    response.locale = tenant.locale;
    for (const auto& spec : widgets) {
        WidgetContent content;
        std::optional<ArticleRef> anchor;
        if (!spec.sku.empty()) {
            auto found = recommendations_.findArticle(tenant.id, spec.sku);
            if (!found) return found.error();
            anchor = std::move(*found);
        }
        Result<WidgetContent> answer = content;
        switch (spec.type) {
            case WidgetType::Similar:
                if (anchor) answer = similar(*anchor);
                break;
            case WidgetType::Set:
                if (anchor) answer = complementarySet(*anchor);
                break;
            case WidgetType::SetCustom: answer = customSet(tenant, spec, anchor); break;
            default: break;  // SET-Compose is demo mode's, answered by the SDK itself (issue #6)
        }
        if (!answer) return answer.error();
        response.widgets.push_back(std::move(*answer));
    }
    return response;
}

}  // namespace svc
