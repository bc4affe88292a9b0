#include "recommend/CatalogCategories.hpp"

#include <algorithm>

#include "recommend/CategoryPath.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

// The most counted entry; ties go to the smallest, so the answer does not depend on read order.
template <typename Map>
const typename Map::key_type& mostCounted(const Map& counts) {
    auto best = counts.begin();
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        if (it->second > best->second) best = it;
    }
    return best->first;
}

}  // namespace

void CatalogCategories::add(const Product& product) {
    if (product.deleted) return;
    const std::string& article = product.mainSku.empty() ? product.sku : product.mainSku;
    if (!articlesSeen_.insert(article).second) return;
    auto levels = CategoryPath::levels(CategoryPath::ofProduct(product));
    size_t kind = CategoryPath::kindLevel(levels);
    if (kind == CategoryPath::npos || levels[kind].size() > kMaxNameBytes) return;
    std::string key = TextTokenizer::key(levels[kind]);
    if (key.empty()) return;
    Tally& tally = byKey_[key];
    tally.products += 1;
    tally.spellings[levels[kind]] += 1;
    std::string path;
    for (size_t i = 0; i <= kind; ++i) path += (i ? " > " : "") + levels[i].substr(0, kMaxNameBytes);
    if (tally.paths[path]++ == 0) {
        std::vector<std::string> parents;
        for (size_t i = kind; i-- > 0;) parents.push_back(levels[i].substr(0, kMaxNameBytes));
        tally.parentsOfPath[path] = std::move(parents);
    }
}

std::vector<CatalogCategory> CatalogCategories::list(size_t limit) const {
    std::vector<CatalogCategory> all;
    all.reserve(byKey_.size());
    for (const auto& [key, tally] : byKey_) {
        CatalogCategory category;
        category.key = key;
        category.name = mostCounted(tally.spellings);
        category.products = tally.products;
        std::vector<std::pair<size_t, std::string>> paths;
        for (const auto& [path, count] : tally.paths) paths.emplace_back(count, path);
        std::stable_sort(paths.begin(), paths.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        for (size_t i = 0; i < paths.size() && i < kMaxPaths; ++i) category.paths.push_back(paths[i].second);
        category.parents = tally.parentsOfPath.at(paths.front().second);
        all.push_back(std::move(category));
    }
    std::stable_sort(all.begin(), all.end(), [](const CatalogCategory& x, const CatalogCategory& y) { return x.products > y.products; });
    if (all.size() > limit) all.resize(limit);
    return all;
}

}  // namespace svc
