#pragma once
// What attribution needs to know about a tenant's products and sets: the main SKU of a SKU
// (from the catalog, deleted products included: an order may name one sold out since) and
// whether a set holds a product (custom sets from the content store; generated SET sets from
// the engine's current content, their id naming the anchor).
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "recommend/RecommendationService.hpp"
#include "store/CatalogStore.hpp"
#include "store/ContentStore.hpp"

namespace svc {

class AttributionCatalog {
public:
    // `recommendations` may be null (no engine: generated sets then hold nothing).
    AttributionCatalog(CatalogStore& catalog, ContentStore& content, RecommendationService* recommendations)
        : catalog_(catalog), content_(content), recommendations_(recommendations) {}

    // Empty when the catalog does not know the SKU.
    std::string mainSkuOf(int64_t tenantId, const std::string& sku);
    bool setContains(int64_t tenantId, const std::string& setId, const std::string& mainSku);
    // Forgets what was looked up: called once per attribution pass, so changes to sets show.
    void clear();

private:
    CatalogStore& catalog_;
    ContentStore& content_;
    RecommendationService* recommendations_;
    std::mutex mutex_;
    std::map<std::pair<int64_t, std::string>, std::string> mainSkus_;
    std::map<int64_t, std::vector<CustomSet>> customSets_;  // per tenant, read once per pass
};

}  // namespace svc
