#include "recommend/SimilarityRanker.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "text/StringUtil.hpp"

namespace svc {

double SimilarityRanker::score(const Article& anchor, const Article& candidate) const {
    const Product& a = anchor.representative();
    const Product& b = candidate.representative();
    double score = 0;
    if (!a.primaryCategory().empty() && a.primaryCategory() == b.primaryCategory()) score += 4;
    if (!a.color.empty() && toLower(a.color) == toLower(b.color)) score += 2;
    if (!a.brand.empty() && toLower(a.brand) == toLower(b.brand)) score += 1;
    auto priceA = a.sellingPrice();
    auto priceB = b.sellingPrice();
    if (priceA && priceB && *priceA > 0 && *priceB > 0) {
        // 1 for equal prices, falling towards 0 as the ratio grows (log scale).
        double ratio = std::fabs(std::log(static_cast<double>(*priceA) / static_cast<double>(*priceB)));
        score += std::max(0.0, 1.0 - ratio);
    }
    return score;
}

std::vector<Article> SimilarityRanker::rank(const Article& anchor, std::vector<Article> candidates, size_t limit) const {
    struct Scored {
        double score;
        Article article;
    };
    std::vector<Scored> scored;
    for (auto& candidate : candidates) {
        if (candidate.mainSku == anchor.mainSku || !candidate.available()) continue;
        double value = score(anchor, candidate);
        scored.push_back({value, std::move(candidate)});
    }
    std::sort(scored.begin(), scored.end(), [](const Scored& x, const Scored& y) {
        if (x.score != y.score) return x.score > y.score;
        return x.article.mainSku < y.article.mainSku;  // deterministic order for equal scores
    });
    const std::string& anchorModel = anchor.representative().model;
    std::vector<Article> result;
    std::vector<Article> sameModelLater;
    std::set<std::string> modelsTaken;
    if (!anchorModel.empty()) modelsTaken.insert(anchorModel);
    for (auto& entry : scored) {
        if (result.size() >= limit) break;
        const std::string& model = entry.article.representative().model;
        if (!model.empty() && !modelsTaken.insert(model).second) {
            sameModelLater.push_back(std::move(entry.article));
            continue;
        }
        result.push_back(std::move(entry.article));
    }
    for (auto& article : sameModelLater) {
        if (result.size() >= limit) break;
        result.push_back(std::move(article));
    }
    return result;
}

}  // namespace svc
