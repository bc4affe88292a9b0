#pragma once
// Ranks candidate articles by how well they could replace the anchor. A first,
// honest similarity: same category, then colour, brand and price band.
#include <vector>

#include "catalog/Article.hpp"

namespace svc {

class SimilarityRanker {
public:
    // Never returns the anchor or an unavailable article; prefers one colour per
    // model and falls back to further colours only when nothing else is left.
    std::vector<Article> rank(const Article& anchor, std::vector<Article> candidates, size_t limit) const;
    double score(const Article& anchor, const Article& candidate) const;
};

}  // namespace svc
