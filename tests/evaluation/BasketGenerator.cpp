#include "evaluation/BasketGenerator.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "evaluation/EvalRandom.hpp"
#include "evaluation/RankingMetrics.hpp"

namespace svc::evaluation {

const std::vector<ComplementPair>& BasketGenerator::complementTable() {
    static const std::vector<ComplementPair> table{
        {"Jeans", "Casual Shoes"},      {"Jeans", "Tshirts"},         {"Jeans", "Belts"},
        {"Tshirts", "Shorts"},          {"Tshirts", "Casual Shoes"},  {"Tshirts", "Caps"},
        {"Shirts", "Trousers"},         {"Shirts", "Formal Shoes"},   {"Shirts", "Ties"},
        {"Trousers", "Formal Shoes"},   {"Trousers", "Belts"},
        {"Kurtas", "Leggings"},         {"Kurtas", "Sandals"},        {"Kurtas", "Dupatta"},
        {"Kurtis", "Leggings"},         {"Tunics", "Leggings"},
        {"Tops", "Jeans"},              {"Tops", "Heels"},            {"Tops", "Handbags"},
        {"Dresses", "Heels"},           {"Dresses", "Clutches"},      {"Dresses", "Earrings"},
        {"Sarees", "Clutches"},         {"Sarees", "Earrings"},
        {"Skirts", "Tops"},
        {"Track Pants", "Sports Shoes"}, {"Track Pants", "Tshirts"},
        {"Shorts", "Flip Flops"},       {"Shorts", "Tshirts"},
        {"Sweatshirts", "Track Pants"}, {"Jackets", "Jeans"},
        {"Casual Shoes", "Socks"},      {"Sports Shoes", "Socks"},
        {"Heels", "Handbags"},          {"Flats", "Handbags"},
    };
    return table;
}

bool BasketGenerator::isComplement(std::string_view anchorType, std::string_view type) {
    const auto& table = complementTable();
    return std::any_of(table.begin(), table.end(),
                       [&](const ComplementPair& pair) { return pair.anchorType == anchorType && pair.complementType == type; });
}

namespace {

std::string key(std::string_view articleType, std::string_view gender) {
    std::string joined(articleType);
    joined += '\n';
    joined += gender;
    return joined;
}

}  // namespace

BasketGenerator::BasketGenerator(const FashionCatalog& catalog, uint64_t structureSeed) {
    const auto& table = complementTable();
    std::set<std::string_view> complementTypes, anchorTypes;
    for (const auto& pair : table) {
        complementTypes.insert(pair.complementType);
        anchorTypes.insert(pair.anchorType);
    }
    std::set<std::string> genders;
    for (const FashionItem& item : catalog.items()) genders.insert(item.gender);

    // The hidden popularity order of each complement type, and its pools per anchor gender.
    for (std::string_view type : complementTypes) {
        std::vector<const FashionItem*> ranked;
        for (const FashionItem& item : catalog.items())
            if (item.articleType == type) ranked.push_back(&item);
        EvalRng rng(deriveSeed(structureSeed, stableHash(type)));
        shuffle(ranked, rng);
        for (const std::string& gender : genders) {
            ComplementPools pools;
            auto add = [](Pool& pool, const FashionItem* item, double weight) {
                pool.items.push_back(item);
                pool.cumulativeWeight.push_back((pool.cumulativeWeight.empty() ? 0.0 : pool.cumulativeWeight.back()) + weight);
            };
            for (size_t rank = 0; rank < ranked.size(); ++rank) {
                const FashionItem* item = ranked[rank];
                if (!gendersMatch(gender, item->gender)) continue;
                const double weight = 1.0 / std::pow(static_cast<double>(rank + 1), kZipfExponent);
                add(pools.all, item, weight);
                if (!item->brand.empty()) add(pools.byBrand[item->brand], item, weight);
            }
            if (!pools.all.items.empty()) pools_.emplace(key(type, gender), std::move(pools));
        }
    }

    // Usable complement types per anchor type and gender, in table order.
    for (std::string_view anchorType : anchorTypes) {
        for (const std::string& gender : genders) {
            std::vector<const ComplementPools*> usable;
            for (const auto& pair : table) {
                if (pair.anchorType != anchorType) continue;
                auto found = pools_.find(key(pair.complementType, gender));
                if (found != pools_.end()) usable.push_back(&found->second);
            }
            if (!usable.empty()) usable_.emplace(key(anchorType, gender), std::move(usable));
        }
    }
    for (const FashionItem& item : catalog.items())
        if (anchorTypes.count(item.articleType) && usable_.count(key(item.articleType, item.gender))) anchors_.push_back(&item);
}

const FashionItem& BasketGenerator::drawFrom(const Pool& pool, EvalRng& rng) const {
    const double target = rng.unit() * pool.cumulativeWeight.back();
    size_t index = static_cast<size_t>(std::upper_bound(pool.cumulativeWeight.begin(), pool.cumulativeWeight.end(), target) -
                                       pool.cumulativeWeight.begin());
    return *pool.items[std::min(index, pool.items.size() - 1)];
}

std::vector<std::vector<std::string>> BasketGenerator::generate(size_t nBaskets, uint64_t seed) const {
    std::vector<std::vector<std::string>> baskets;
    if (anchors_.empty()) return baskets;
    baskets.reserve(nBaskets);
    EvalRng rng(deriveSeed(seed, stableHash("baskets")));
    std::vector<const ComplementPools*> types;
    for (size_t b = 0; b < nBaskets; ++b) {
        const FashionItem& anchor = *anchors_[rng.below(anchors_.size())];
        types = usable_.at(key(anchor.articleType, anchor.gender));
        const size_t wanted = 1 + static_cast<size_t>(rng.below(3));
        const size_t count = std::min(wanted, types.size());
        for (size_t i = 0; i < count; ++i) {  // a partial Fisher-Yates shuffle: distinct types
            size_t j = i + static_cast<size_t>(rng.below(types.size() - i));
            std::swap(types[i], types[j]);
        }
        std::vector<std::string> basket{anchor.mainSku()};
        for (size_t i = 0; i < count; ++i) {
            const Pool* pool = &types[i]->all;
            if (rng.chance(kSameBrandProbability) && !anchor.brand.empty()) {
                auto sameBrand = types[i]->byBrand.find(anchor.brand);
                if (sameBrand != types[i]->byBrand.end()) pool = &sameBrand->second;
            }
            basket.push_back(drawFrom(*pool, rng).mainSku());
        }
        baskets.push_back(std::move(basket));
    }
    return baskets;
}

std::vector<HeldOutBasket> BasketGenerator::splitHoldout(const std::vector<std::vector<std::string>>& baskets, uint64_t seed) {
    std::vector<HeldOutBasket> split;
    split.reserve(baskets.size());
    EvalRng rng(deriveSeed(seed, stableHash("holdout")));
    for (const auto& basket : baskets) {
        if (basket.size() < 2) continue;
        const size_t index = 1 + static_cast<size_t>(rng.below(basket.size() - 1));
        HeldOutBasket held;
        held.heldOut = basket[index];
        held.remainder = basket;
        held.remainder.erase(held.remainder.begin() + static_cast<std::ptrdiff_t>(index));
        split.push_back(std::move(held));
    }
    return split;
}

}  // namespace svc::evaluation
