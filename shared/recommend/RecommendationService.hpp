#pragma once
// The content every widget and GraphQL query returns, computed from the catalog
// behind the CatalogStore interface.
#include <optional>
#include <string>
#include <vector>

#include "catalog/Article.hpp"
#include "core/Result.hpp"
#include "recommend/SimilarityRanker.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

class RecommendationService {
public:
    explicit RecommendationService(CatalogStore& catalog) : catalog_(catalog) {}

    // The article named by a SKU or main SKU; nullopt when unknown or deleted.
    Result<std::optional<Article>> findArticle(int64_t tenantId, const std::string& skuOrMainSku);
    // Available articles similar to the anchor, best first.
    Result<std::vector<Article>> similarTo(int64_t tenantId, const Article& anchor, size_t limit);

private:
    CatalogStore& catalog_;
    SimilarityRanker ranker_;
};

}  // namespace svc
