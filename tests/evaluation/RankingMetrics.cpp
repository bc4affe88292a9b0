#include "evaluation/RankingMetrics.hpp"

#include <algorithm>
#include <cmath>

namespace svc::evaluation {

bool gendersMatch(std::string_view a, std::string_view b) {
    if (a == "Unisex" || b == "Unisex") return true;
    return !a.empty() && a == b;
}

namespace {

// gradedRelevance without the rule for the anchor itself.
int attributeGrade(const FashionItem& anchor, const FashionItem& item) {
    if (item.articleType.empty() || item.articleType != anchor.articleType) return 0;
    if (!gendersMatch(anchor.gender, item.gender)) return 1;
    if (!item.baseColour.empty() && item.baseColour == anchor.baseColour) return 3;
    return 2;
}

}  // namespace

int gradedRelevance(const FashionItem& anchor, const FashionItem& item) {
    return item.id == anchor.id ? 0 : attributeGrade(anchor, item);
}

GradeCounts countGrades(const FashionItem& anchor, const std::vector<const FashionItem*>& eligible) {
    GradeCounts counts{};
    for (const FashionItem* item : eligible) {
        if (!item || item->id == anchor.id) continue;
        ++counts[static_cast<size_t>(attributeGrade(anchor, *item))];
    }
    return counts;
}

namespace {

double gain(int grade) { return static_cast<double>((1 << grade) - 1); }
double discount(size_t position) { return std::log2(static_cast<double>(position) + 2.0); }

}  // namespace

double dcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended) {
    double dcg = 0.0;
    const size_t n = std::min(k, recommended.size());
    for (size_t i = 0; i < n; ++i) {
        const FashionItem* item = recommended[i];
        if (!item) continue;
        bool repeat = std::any_of(recommended.begin(), recommended.begin() + static_cast<std::ptrdiff_t>(i),
                                  [&](const FashionItem* earlier) { return earlier && earlier->id == item->id; });
        if (repeat) continue;
        dcg += gain(gradedRelevance(anchor, *item)) / discount(i);
    }
    return dcg;
}

double idealDcgAt(size_t k, const GradeCounts& counts) {
    double ideal = 0.0;
    size_t position = 0;
    for (int grade = 3; grade >= 1 && position < k; --grade) {
        for (size_t taken = 0; taken < counts[static_cast<size_t>(grade)] && position < k; ++taken, ++position)
            ideal += gain(grade) / discount(position);
    }
    return ideal;
}

double ndcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended,
              const std::vector<const FashionItem*>& eligible) {
    const double ideal = idealDcgAt(k, countGrades(anchor, eligible));
    if (ideal <= 0.0) return 0.0;
    return dcgAt(k, anchor, recommended) / ideal;
}

namespace {

std::string genderColourKey(std::string_view gender, std::string_view colour) {
    std::string joined(gender);
    joined += '\n';
    joined += colour;
    return joined;
}

}  // namespace

GradeIndex::GradeIndex(const std::vector<const FashionItem*>& eligible) {
    for (const FashionItem* item : eligible) {
        if (!item) continue;
        ++total_;
        byId_[item->id].push_back(item);
        if (item->articleType.empty()) continue;  // grade 0 for every anchor
        TypeCounts& type = byArticleType_[item->articleType];
        ++type.total;
        ++type.byGender[item->gender];
        if (!item->baseColour.empty()) ++type.byGenderAndColour[genderColourKey(item->gender, item->baseColour)];
    }
}

GradeCounts GradeIndex::counts(const FashionItem& anchor) const {
    GradeCounts counts{};
    size_t sameType = 0, sameGender = 0, sameColour = 0;
    if (auto type = byArticleType_.find(anchor.articleType); type != byArticleType_.end() && !anchor.articleType.empty()) {
        sameType = type->second.total;
        for (const auto& [gender, count] : type->second.byGender) {
            if (!gendersMatch(anchor.gender, gender)) continue;
            sameGender += count;
            if (anchor.baseColour.empty()) continue;
            auto colour = type->second.byGenderAndColour.find(genderColourKey(gender, anchor.baseColour));
            if (colour != type->second.byGenderAndColour.end()) sameColour += colour->second;
        }
    }
    counts[3] = sameColour;
    counts[2] = sameGender - sameColour;
    counts[1] = sameType - sameGender;
    counts[0] = total_ - sameType;
    // countGrades skips the anchor's own entries: take them out of the grade they were counted in.
    if (auto self = byId_.find(anchor.id); self != byId_.end()) {
        for (const FashionItem* item : self->second) --counts[static_cast<size_t>(attributeGrade(anchor, *item))];
    }
    return counts;
}

double ndcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended, const GradeIndex& eligible) {
    const double ideal = idealDcgAt(k, eligible.counts(anchor));
    if (ideal <= 0.0) return 0.0;
    return dcgAt(k, anchor, recommended) / ideal;
}

bool hitAt(size_t k, const std::vector<std::string>& recommended, std::string_view target) {
    const size_t n = std::min(k, recommended.size());
    return std::find(recommended.begin(), recommended.begin() + static_cast<std::ptrdiff_t>(n), target) !=
           recommended.begin() + static_cast<std::ptrdiff_t>(n);
}

double hitRateAt(size_t k, const std::vector<std::vector<std::string>>& recommended, const std::vector<std::string>& targets) {
    const size_t cases = std::min(recommended.size(), targets.size());
    if (cases == 0) return 0.0;
    size_t hits = 0;
    for (size_t i = 0; i < cases; ++i)
        if (hitAt(k, recommended[i], targets[i])) ++hits;
    return static_cast<double>(hits) / static_cast<double>(cases);
}

std::vector<const FashionItem*> sampleAnchors(const FashionCatalog& catalog, size_t n, uint64_t seed,
                                              const std::function<bool(const FashionItem&)>& predicate) {
    std::vector<const FashionItem*> candidates;
    for (const FashionItem& item : catalog.items())
        if (!predicate || predicate(item)) candidates.push_back(&item);
    EvalRng rng(deriveSeed(seed, stableHash("anchor-sample")));
    const size_t take = std::min(n, candidates.size());
    for (size_t i = 0; i < take; ++i) {  // a partial Fisher-Yates shuffle
        size_t j = i + static_cast<size_t>(rng.below(candidates.size() - i));
        std::swap(candidates[i], candidates[j]);
    }
    candidates.resize(take);
    return candidates;
}

namespace {

// k distinct members of `pool` other than `exclude` (by id), uniformly and in draw order.
std::vector<const FashionItem*> drawDistinct(const std::vector<const FashionItem*>& pool, size_t k, EvalRng& rng,
                                             const FashionItem* exclude) {
    auto excluded = [&](const FashionItem* item) { return exclude && item->id == exclude->id; };
    std::vector<const FashionItem*> drawn;
    // The excluded item is in the pool at most once, so a pool of over k + 1 has more than k to draw from.
    if (pool.size() <= k + 1 && pool.size() - static_cast<size_t>(std::count_if(pool.begin(), pool.end(), excluded)) <= k) {
        for (const FashionItem* item : pool)
            if (!excluded(item)) drawn.push_back(item);
        shuffle(drawn, rng);
        return drawn;
    }
    // k is small next to the pool (the metrics use 12): rejection is cheap and keeps the order uniform.
    std::vector<size_t> chosen;
    while (drawn.size() < k) {
        size_t index = static_cast<size_t>(rng.below(pool.size()));
        if (excluded(pool[index]) || std::find(chosen.begin(), chosen.end(), index) != chosen.end()) continue;
        chosen.push_back(index);
        drawn.push_back(pool[index]);
    }
    return drawn;
}

}  // namespace

RandomBaselines::RandomBaselines(const FashionCatalog& catalog) : catalog_(catalog), all_(catalog.all()) {
    for (const FashionItem* item : all_) byArticleType_[item->articleType].push_back(item);
}

size_t RandomBaselines::sameLeafCount(const FashionItem& anchor) const {
    auto found = byArticleType_.find(anchor.articleType);
    if (found == byArticleType_.end()) return 0;
    // Catalog ids are unique: the anchor is in its leaf at most once, as the catalog's item of its id.
    const FashionItem* self = catalog_.byMainSku(anchor.mainSku());
    const bool anchorInLeaf = self && self->articleType == anchor.articleType;
    return found->second.size() - (anchorInLeaf ? 1 : 0);
}

std::vector<const FashionItem*> RandomBaselines::randomSameLeaf(const FashionItem& anchor, size_t k, EvalRng& rng) const {
    auto found = byArticleType_.find(anchor.articleType);
    if (found == byArticleType_.end()) return {};
    return drawDistinct(found->second, k, rng, &anchor);
}

std::vector<const FashionItem*> RandomBaselines::randomOverall(size_t k, EvalRng& rng, const FashionItem* exclude) const {
    return drawDistinct(all_, k, rng, exclude);
}

}  // namespace svc::evaluation
