#include "recommend/RecommendationService.hpp"

namespace svc {
namespace {
// Candidates read per anchor: enough variants for a few dozen articles to rank.
constexpr size_t kCandidateVariantLimit = 2000;
}

Result<std::optional<Article>> RecommendationService::findArticle(int64_t tenantId, const std::string& skuOrMainSku) {
    auto variants = catalog_.articleVariants(tenantId, skuOrMainSku);
    if (!variants) return variants.error();
    std::vector<Product> live;
    for (auto& variant : *variants) {
        if (!variant.deleted) live.push_back(std::move(variant));
    }
    if (live.empty()) return std::optional<Article>{};
    auto articles = groupIntoArticles(std::move(live));
    return std::optional<Article>{std::move(articles.front())};
}

Result<std::vector<Article>> RecommendationService::similarTo(int64_t tenantId, const Article& anchor, size_t limit) {
    const std::string& category = anchor.representative().primaryCategory();
    if (category.empty() || limit == 0) return std::vector<Article>{};
    auto candidates = catalog_.availableInCategory(tenantId, category, kCandidateVariantLimit);
    if (!candidates) return candidates.error();
    return ranker_.rank(anchor, groupIntoArticles(std::move(*candidates)), limit);
}

}  // namespace svc
