#include "tracking/AttributionCatalog.hpp"

#include <algorithm>

namespace svc {

std::string AttributionCatalog::mainSkuOf(int64_t tenantId, const std::string& sku) {
    if (sku.empty()) return "";
    {
        std::lock_guard lock(mutex_);
        auto found = mainSkus_.find({tenantId, sku});
        if (found != mainSkus_.end()) return found->second;
    }
    std::string mainSku;
    auto variants = catalog_.articleVariants(tenantId, sku);
    if (variants && !variants->empty()) mainSku = variants->front().mainSku;
    std::lock_guard lock(mutex_);
    mainSkus_[{tenantId, sku}] = mainSku;
    return mainSku;
}

bool AttributionCatalog::setContains(int64_t tenantId, const std::string& setId, const std::string& mainSku) {
    static const std::string kGenerated = "#generated#";
    size_t generated = setId.find(kGenerated);
    if (generated != std::string::npos) {
        std::string anchor = setId.substr(0, generated);
        if (anchor == mainSku) return true;
        if (!recommendations_) return false;
        auto snapshot = recommendations_->snapshot(tenantId);
        if (!snapshot || !*snapshot) return false;
        auto index = (*snapshot)->find(anchor);
        if (!index) return false;
        for (const auto& set : recommendations_->generatedSets(ArticleRef{*snapshot, *index}, 10)) {
            if (set.id != setId) continue;
            return std::any_of(set.products.begin(), set.products.end(),
                               [&](const ArticleRef& product) { return product.article().mainSku == mainSku; });
        }
        return false;
    }
    std::vector<CustomSet> sets;
    {
        std::lock_guard lock(mutex_);
        auto cached = customSets_.find(tenantId);
        if (cached == customSets_.end()) {
            auto read = content_.customSets(tenantId);
            if (!read) return false;
            cached = customSets_.emplace(tenantId, std::move(*read)).first;
        }
        sets = cached->second;
    }
    for (const auto& set : sets) {
        if (set.id != setId) continue;
        for (const auto& sku : set.skus) {
            if (sku == mainSku || mainSkuOf(tenantId, sku) == mainSku) return true;
        }
    }
    return false;
}

void AttributionCatalog::clear() {
    std::lock_guard lock(mutex_);
    mainSkus_.clear();
    customSets_.clear();
}

}  // namespace svc
