#include "recommend/RecommendationService.hpp"

#include <algorithm>

namespace svc {

Result<std::optional<ArticleRef>> RecommendationService::findArticle(int64_t tenantId, const std::string& skuOrMainSku) {
    auto snapshot = content_.snapshot(tenantId);
    if (!snapshot) return snapshot.error();
    auto index = (*snapshot)->find(skuOrMainSku);
    if (!index) return std::optional<ArticleRef>{};
    return std::optional<ArticleRef>{ArticleRef{*snapshot, *index}};
}

std::vector<ArticleRef> RecommendationService::similarTo(const ArticleRef& anchor, size_t limit) const {
    std::vector<ArticleRef> result;
    for (uint32_t index : anchor.snapshot->similar(anchor.index, limit)) result.push_back({anchor.snapshot, index});
    return result;
}

std::vector<ComplementCluster> RecommendationService::clusters(const ArticleRef& anchor, size_t maxClusters, size_t perCluster) const {
    return ComplementFinder(*anchor.snapshot).clusters(anchor.index, maxClusters, perCluster);
}

std::vector<GeneratedSet> RecommendationService::generatedSets(const ArticleRef& anchor, size_t limit) const {
    return generatedSets(anchor, clusters(anchor, 8, limit), limit);
}

std::vector<GeneratedSet> RecommendationService::generatedSets(const ArticleRef& anchor, const std::vector<ComplementCluster>& found,
                                                               size_t limit) {
    std::vector<GeneratedSet> sets;
    // A set needs at least two positions to be a set rather than a single suggestion.
    if (found.size() < 2) return sets;
    for (size_t n = 0; n < limit; ++n) {
        GeneratedSet set;
        set.id = anchor.article().mainSku + "#generated#" + std::to_string(n + 1);
        set.products.push_back(anchor);
        bool anyNew = false;
        for (const auto& cluster : found) {
            // A position out of alternatives keeps its best product: every set stays complete.
            anyNew = anyNew || n < cluster.articles.size();
            set.products.push_back({anchor.snapshot, cluster.articles[std::min(n, cluster.articles.size() - 1)]});
            for (const auto& tag : cluster.tags) {
                if (std::find(set.tags.begin(), set.tags.end(), tag) == set.tags.end()) set.tags.push_back(tag);
            }
        }
        if (!anyNew) break;
        sets.push_back(std::move(set));
    }
    return sets;
}

std::vector<uint32_t> RecommendationService::rankedComplements(const std::vector<ComplementCluster>& clusters, size_t limit) {
    std::vector<uint32_t> ranked;
    const bool learned = !clusters.empty() && std::all_of(clusters.begin(), clusters.end(), [](const ComplementCluster& cluster) {
        return cluster.shares.size() == cluster.articles.size();
    });
    if (learned) {
        std::vector<std::pair<double, uint32_t>> joint;  // -probability, article
        for (const auto& cluster : clusters) {
            for (size_t i = 0; i < cluster.articles.size(); ++i) joint.emplace_back(-cluster.likelihood * cluster.shares[i], cluster.articles[i]);
        }
        std::stable_sort(joint.begin(), joint.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        for (size_t i = 0; i < joint.size() && ranked.size() < limit; ++i) ranked.push_back(joint[i].second);
        return ranked;
    }
    for (size_t rank = 0; ranked.size() < limit; ++rank) {
        bool any = false;
        for (const auto& cluster : clusters) {
            if (rank >= cluster.articles.size() || ranked.size() >= limit) continue;
            any = true;
            ranked.push_back(cluster.articles[rank]);
        }
        if (!any) break;
    }
    return ranked;
}

std::vector<const ResolvedCustomSet*> RecommendationService::customSetsOf(const ArticleRef& anchor) const {
    std::vector<const ResolvedCustomSet*> sets;
    for (const auto* set : anchor.snapshot->customSetsWith(anchor.index)) {
        if (customSetShowable(*anchor.snapshot, *set)) sets.push_back(set);
    }
    return sets;
}

bool customSetShowable(const ContentSnapshot& snapshot, const ResolvedCustomSet& set) {
    for (uint32_t article : set.articles) {
        if (snapshot.available(article)) return true;
    }
    return false;
}

}  // namespace svc
