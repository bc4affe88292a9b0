#include "recommend/CoPurchaseModel.hpp"

#include <algorithm>
#include <cmath>

#include "recommend/PriorStrength.hpp"

namespace svc {

void CoPurchaseModel::train(const std::vector<std::vector<uint32_t>>& baskets, const std::vector<const ArticleProfile*>& profiles) {
    if (baskets.empty()) return;  // nothing to learn: skip the catalog statistics
    // For the attribute affinities: how often a co-bought pair of different kinds shares
    // brand / colour family, against how often a random article of the second item's
    // kind would share it with the first (estimated from the catalog's kind composition).
    std::unordered_map<uint64_t, double> kindBrand, kindFamily;
    for (const ArticleProfile* profile : profiles) {
        if (!profile || profile->kind == 0) continue;
        kindSizes_[profile->kind] += 1;
        if (profile->brand) kindBrand[pairKey(profile->kind, profile->brand)] += 1;
        if (profile->colorFamily != ColorFamily::Unknown)
            kindFamily[pairKey(profile->kind, static_cast<uint32_t>(profile->colorFamily))] += 1;
    }
    double sameBrand = 0, expectedBrand = 0, sameFamily = 0, expectedFamily = 0;
    std::unordered_map<uint64_t, double> kindOrderPairs;
    std::vector<uint32_t> basketKinds;
    for (const auto& basket : baskets) {
        for (uint32_t article : basket) popularity_[article] += 1;
        if (basket.size() < 2) continue;
        ++multiLineOrders_;
        basketKinds.clear();
        for (uint32_t article : basket) {
            articleOrders_[article] += 1;
            const ArticleProfile* p = article < profiles.size() ? profiles[article] : nullptr;
            if (p && p->kind != 0 && std::find(basketKinds.begin(), basketKinds.end(), p->kind) == basketKinds.end())
                basketKinds.push_back(p->kind);
        }
        for (uint32_t t : basketKinds) {
            kindOrders_[t] += 1;
            for (uint32_t u : basketKinds) {
                if (t != u) kindOrderPairs[pairKey(t, u)] += 1;
            }
        }
        for (size_t i = 0; i < basket.size(); ++i) {
            const ArticleProfile* a = basket[i] < profiles.size() ? profiles[basket[i]] : nullptr;
            if (a) kindLines_[a->kind] += 1;
            for (size_t j = 0; j < basket.size(); ++j) {
                if (i == j) continue;
                pairs_[pairKey(basket[i], basket[j])] += 1;
                const ArticleProfile* b = basket[j] < profiles.size() ? profiles[basket[j]] : nullptr;
                if (!a || !b || a->kind == 0 || b->kind == 0 || a->kind == b->kind) continue;
                kindPairs_[pairKey(a->kind, b->kind)] += 1;
                pairTotal_ += 1;
                double size = kindSizes_[b->kind];
                if (size <= 0) continue;
                if (a->brand) {
                    sameBrand += a->brand == b->brand ? 1 : 0;
                    auto found = kindBrand.find(pairKey(b->kind, a->brand));
                    expectedBrand += (found == kindBrand.end() ? 0 : found->second) / size;
                }
                if (a->colorFamily != ColorFamily::Unknown) {
                    sameFamily += a->colorFamily == b->colorFamily ? 1 : 0;
                    auto found = kindFamily.find(pairKey(b->kind, static_cast<uint32_t>(a->colorFamily)));
                    expectedFamily += (found == kindFamily.end() ? 0 : found->second) / size;
                }
            }
        }
    }
    // Additive smoothing keeps a handful of orders from producing extreme weights.
    auto affinity = [](double observed, double expected) {
        double ratio = (observed + 1) / (expected + 1);
        return std::clamp(std::log(ratio), 0.0, 4.0);
    };
    for (const auto& [kind, count] : kindLines_) lineTotal_ += count;
    auto byCountThenKey = [](const std::pair<uint32_t, double>& x, const std::pair<uint32_t, double>& y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
    };
    for (const auto& [key, count] : kindOrderPairs)
        kindsWith_[static_cast<uint32_t>(key >> 32)].emplace_back(static_cast<uint32_t>(key & 0xffffffffu), count);
    for (auto& [kind, list] : kindsWith_) std::sort(list.begin(), list.end(), byCountThenKey);
    std::vector<std::pair<uint32_t, double>> kinds(kindOrders_.begin(), kindOrders_.end());
    std::sort(kinds.begin(), kinds.end(), byCountThenKey);
    for (const auto& [kind, count] : kinds) kindsByOrders_.push_back(kind);
    for (const auto& [key, count] : pairs_) partners_[static_cast<uint32_t>(key >> 32)].emplace_back(static_cast<uint32_t>(key & 0xffffffffu), count);
    for (auto& [article, list] : partners_) std::sort(list.begin(), list.end(), byCountThenKey);
    std::vector<std::pair<uint32_t, double>> bought(popularity_.begin(), popularity_.end());
    std::sort(bought.begin(), bought.end(), byCountThenKey);
    for (const auto& [article, count] : bought) {
        const ArticleProfile* p = article < profiles.size() ? profiles[article] : nullptr;
        if (!p || p->kind == 0) continue;
        mostBought_[p->kind].push_back(article);
        kindLinesAll_[p->kind] += count;
    }
    sameBrandWeight_ = affinity(sameBrand, expectedBrand);
    sameColorFamilyWeight_ = affinity(sameFamily, expectedFamily);
    estimateAttributeRatios(profiles);
    estimatePriorStrengths(baskets, profiles);
}

uint32_t CoPurchaseModel::attribute(const ArticleProfile& profile, size_t which) {
    switch (which) {
        // Not the exact colour: it lies within the colour family, and the product of ratios would count it twice.
        case 0: return static_cast<uint32_t>(profile.colorFamily);  // Unknown is 0
        case 1: return static_cast<uint32_t>(profile.department);   // Unknown is 0
        case 2: return profile.categoryKeys().empty() ? 0 : profile.categoryKeys().front();
        default: return profile.pattern;
    }
}

void CoPurchaseModel::estimateAttributeRatios(const std::vector<const ArticleProfile*>& profiles) {
    auto profileOf = [&](uint32_t article) { return article < profiles.size() ? profiles[article] : nullptr; };
    for (size_t which = 0; which < kAttributes; ++which) {
        // Lines per (kind, value) and per kind among articles whose value is known: what a pick by
        // share of the kind would share with the anchor by chance.
        std::unordered_map<uint64_t, double> linesWithValue;
        std::unordered_map<uint32_t, double> linesKnown;
        for (const auto& [article, count] : popularity_) {
            const ArticleProfile* p = profileOf(article);
            if (!p || p->kind == 0 || attribute(*p, which) == 0) continue;
            linesWithValue[pairKey(p->kind, attribute(*p, which))] += count;
            linesKnown[p->kind] += count;
        }
        double pairs = 0, same = 0, expected = 0;
        for (const auto& [key, count] : pairs_) {
            const ArticleProfile* a = profileOf(static_cast<uint32_t>(key >> 32));
            const ArticleProfile* c = profileOf(static_cast<uint32_t>(key));
            if (!a || !c || a->kind == 0 || c->kind == 0 || a->kind == c->kind) continue;
            const uint32_t value = attribute(*a, which);
            if (value == 0 || attribute(*c, which) == 0) continue;
            auto known = linesKnown.find(c->kind);
            if (known == linesKnown.end() || known->second <= 0) continue;
            auto withValue = linesWithValue.find(pairKey(c->kind, value));
            pairs += count;
            same += value == attribute(*c, which) ? count : 0;
            expected += count * (withValue == linesWithValue.end() ? 0 : withValue->second) / known->second;
        }
        // One pseudo-pair on each side keeps a handful of orders from producing extreme ratios.
        sameRatio_[which] = (same + 1) / (expected + 1);
        differentRatio_[which] = (pairs - same + 1) / (pairs - expected + 1);
    }
}

double CoPurchaseModel::attributeRatio(const ArticleProfile& anchor, const ArticleProfile& candidate) const {
    double ratio = 1;
    for (size_t which = 0; which < kAttributes; ++which) {
        const uint32_t value = attribute(anchor, which);
        if (value == 0 || attribute(candidate, which) == 0) continue;
        ratio *= value == attribute(candidate, which) ? sameRatio_[which] : differentRatio_[which];
    }
    return ratio;
}

void CoPurchaseModel::estimatePriorStrengths(const std::vector<std::vector<uint32_t>>& baskets,
                                             const std::vector<const ArticleProfile*>& profiles) {
    auto kindOf = [&](uint32_t article) -> uint32_t {
        const ArticleProfile* p = article < profiles.size() ? profiles[article] : nullptr;
        return p ? p->kind : 0;
    };
    // Article level: each co-purchase (anchor a, article c of another kind u) of a training order,
    // predicted from the other orders as ComplementFinder predicts it:
    // (orders with a and c + m x share of c in u) / (lines of kind u bought with a + m), with the
    // held-out order's lines taken out of every count, the share's included.
    std::unordered_map<uint64_t, double> anchorKindLines;  // (anchor, kind) -> lines bought with the anchor
    for (const auto& [key, count] : pairs_) anchorKindLines[pairKey(static_cast<uint32_t>(key >> 32), kindOf(static_cast<uint32_t>(key)))] += count;
    size_t outcomes = 0;
    for (const auto& basket : baskets) {
        if (basket.size() >= 2) outcomes += basket.size() * (basket.size() - 1);
    }
    const size_t stride = outcomes / kMaximumFitOutcomes + 1;
    PriorStrength articleLevel;
    std::unordered_map<uint32_t, double> linesOfKind;  // in the held-out order
    size_t outcome = 0;
    for (const auto& basket : baskets) {
        if (basket.size() < 2) continue;
        linesOfKind.clear();
        for (uint32_t article : basket) linesOfKind[kindOf(article)] += 1;
        for (uint32_t a : basket) {
            const uint32_t t = kindOf(a);
            for (uint32_t c : basket) {
                if (c == a || outcome++ % stride != 0) continue;
                const uint32_t u = kindOf(c);
                if (t == 0 || u == 0 || u == t) continue;
                const double inOrder = linesOfKind[u];
                const double share = (popularity(c) - 1 + 1 / std::max(1.0, kindSize(u))) / (kindLinesAll(u) - inOrder + 1) *
                                     attributeRatio(*profiles[a], *profiles[c]);
                articleLevel.add(pairCount(a, c) - 1, anchorKindLines[pairKey(a, u)] - inOrder, share);
            }
        }
    }
    articlePriorOrders_ = articleLevel.estimate(kDefaultPriorOrders);
}

namespace {

template <typename Map>
double valueOr0(const Map& map, uint32_t key) {
    auto found = map.find(key);
    return found == map.end() ? 0 : found->second;
}

template <typename List>
const List& listOrEmpty(const std::unordered_map<uint32_t, List>& map, uint32_t key) {
    static const List none;
    auto found = map.find(key);
    return found == map.end() ? none : found->second;
}

}  // namespace

double CoPurchaseModel::ordersWithKind(uint32_t kind) const { return valueOr0(kindOrders_, kind); }

const std::vector<std::pair<uint32_t, double>>& CoPurchaseModel::kindsBoughtWith(uint32_t kind) const { return listOrEmpty(kindsWith_, kind); }

double CoPurchaseModel::kindShare(uint32_t kind) const {
    return multiLineOrders_ ? ordersWithKind(kind) / static_cast<double>(multiLineOrders_) : 0;
}

double CoPurchaseModel::ordersWithArticle(uint32_t article) const { return valueOr0(articleOrders_, article); }

const std::vector<std::pair<uint32_t, double>>& CoPurchaseModel::partners(uint32_t article) const { return listOrEmpty(partners_, article); }

const std::vector<uint32_t>& CoPurchaseModel::mostBought(uint32_t kind) const { return listOrEmpty(mostBought_, kind); }

double CoPurchaseModel::kindLinesAll(uint32_t kind) const { return valueOr0(kindLinesAll_, kind); }

double CoPurchaseModel::kindSize(uint32_t kind) const { return valueOr0(kindSizes_, kind); }

double CoPurchaseModel::articleShare(uint32_t article, uint32_t kind) const {
    return (popularity(article) + 1 / std::max(1.0, kindSize(kind))) / (kindLinesAll(kind) + 1);
}

double CoPurchaseModel::kindLift(uint32_t kindA, uint32_t kindB) const {
    if (!ready() || pairTotal_ <= 0) return 0;
    auto pair = kindPairs_.find(pairKey(kindA, kindB));
    if (pair == kindPairs_.end()) return 0;
    auto a = kindLines_.find(kindA);
    auto b = kindLines_.find(kindB);
    if (a == kindLines_.end() || b == kindLines_.end()) return 0;
    double lines = lineTotal_;
    // P(a, b) / (P(a) P(b)) over lines of multi-line orders.
    double lift = (pair->second / pairTotal_) / ((a->second / lines) * (b->second / lines));
    return std::max(0.0, std::log(lift));
}

std::vector<uint32_t> CoPurchaseModel::complementKinds(uint32_t kind, size_t minimumCount) const {
    std::vector<std::pair<double, uint32_t>> found;
    if (!ready()) return {};
    for (const auto& [key, count] : kindPairs_) {
        if (static_cast<uint32_t>(key >> 32) != kind || count < static_cast<double>(minimumCount)) continue;
        auto other = static_cast<uint32_t>(key & 0xffffffffu);
        found.emplace_back(kindLift(kind, other) + std::log(count), other);
    }
    std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
    std::vector<uint32_t> kinds;
    for (const auto& entry : found) kinds.push_back(entry.second);
    return kinds;
}

double CoPurchaseModel::popularity(uint32_t article) const {
    auto found = popularity_.find(article);
    return found == popularity_.end() ? 0 : found->second;
}

double CoPurchaseModel::pairCount(uint32_t a, uint32_t b) const {
    auto found = pairs_.find(pairKey(a, b));
    return found == pairs_.end() ? 0 : found->second;
}

double CoPurchaseModel::score(uint32_t anchor, const ArticleProfile& anchorProfile, uint32_t candidate,
                              const ArticleProfile& candidateProfile) const {
    if (!ready()) return 0;
    double score = 2.0 * std::log1p(pairCount(anchor, candidate)) + 0.8 * std::log1p(popularity(candidate));
    score += 0.5 * kindLift(anchorProfile.kind, candidateProfile.kind);
    if (anchorProfile.brand != 0 && anchorProfile.brand == candidateProfile.brand) score += sameBrandWeight_;
    if (anchorProfile.colorFamily != ColorFamily::Unknown && anchorProfile.colorFamily == candidateProfile.colorFamily)
        score += sameColorFamilyWeight_;
    return score;
}

}  // namespace svc
