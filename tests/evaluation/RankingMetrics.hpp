#pragma once
// Evaluation support: ranking metrics on the fashion catalog (see its README, "How to
// judge similar products"), the two random baselines, a fixed anchor sample and HitRate.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "evaluation/EvalRandom.hpp"
#include "evaluation/FashionCatalog.hpp"

namespace svc::evaluation {

// Gender compatibility: equal non-blank genders, or either side "Unisex". The README says
// "Unisex matches either"; we read that as Unisex matching ANY gender, Boys and Girls
// included. Boys and Girls match only themselves (not Men or Women).
bool gendersMatch(std::string_view a, std::string_view b);

// The README's graded relevance of `item` as a recommendation for `anchor`:
//   3 = same articleType + gender + baseColour, 2 = same articleType + gender,
//   1 = same articleType, 0 otherwise.
// "gender" means gendersMatch; a blank articleType or baseColour never matches.
// The anchor itself (same id) gets 0: recommending it is never right.
int gradedRelevance(const FashionItem& anchor, const FashionItem& item);

// How many of `eligible` have each grade for `anchor` (index = grade). The anchor itself
// (same id) and null pointers are skipped, so `eligible` may be the whole catalog.
using GradeCounts = std::array<size_t, 4>;
GradeCounts countGrades(const FashionItem& anchor, const std::vector<const FashionItem*>& eligible);

// DCG@k = sum over positions i < k of (2^rel_i - 1) / log2(i + 2).
// In `recommended`, a null pointer, the anchor and a repeat of an earlier item (same id)
// count as relevance 0. Fewer than k items: the missing positions count 0.
double dcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended);
// The best possible DCG@k: the grades sorted best first (from their counts, no sort of items).
double idealDcgAt(size_t k, const GradeCounts& counts);
// nDCG@k = DCG@k / ideal DCG@k, the ideal taken over the best k items of `eligible` (every
// catalog item that could be recommended; the anchor is skipped). 0 when the ideal is 0
// (nothing in `eligible` shares the anchor's articleType): exclude such anchors from a
// sample, e.g. with RandomBaselines::sameLeafCount. In [0, 1] when `recommended` is drawn
// from `eligible`. O(|eligible|) per call (a grade count).
double ndcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended,
              const std::vector<const FashionItem*>& eligible);

// The grade counts of countGrades for any anchor in O(number of genders), for loops over
// many anchors (countGrades reads every eligible item: about 1 ms per call on the 44k
// catalog). Keeps pointers into `eligible`'s items, which must outlive it.
class GradeIndex {
public:
    explicit GradeIndex(const std::vector<const FashionItem*>& eligible);
    // Equal to countGrades(anchor, eligible).
    GradeCounts counts(const FashionItem& anchor) const;

private:
    struct TypeCounts {
        size_t total = 0;
        std::unordered_map<std::string, size_t> byGender;
        std::unordered_map<std::string, size_t> byGenderAndColour;  // key: gender + '\n' + colour
    };
    size_t total_ = 0;
    std::unordered_map<std::string, TypeCounts> byArticleType_;
    std::unordered_map<std::string, std::vector<const FashionItem*>> byId_;
};
// ndcgAt with the ideal from a GradeIndex over the eligible items.
double ndcgAt(size_t k, const FashionItem& anchor, const std::vector<const FashionItem*>& recommended, const GradeIndex& eligible);

// HitRate@k of basket evaluation: whether `target` (a held-out main SKU) is among the
// first k of `recommended` (main SKUs, compared exactly).
bool hitAt(size_t k, const std::vector<std::string>& recommended, std::string_view target);
// The share of cases i whose targets[i] is in the first k of recommended[i]; 0 for no cases.
// Both vectors must have the same size.
double hitRateAt(size_t k, const std::vector<std::vector<std::string>>& recommended, const std::vector<std::string>& targets);

// A fixed random sample: n distinct items among those satisfying `predicate` (all when it
// is empty), in a random order; all of them when fewer than n qualify. Same catalog, n,
// seed and predicate: the same sample.
std::vector<const FashionItem*> sampleAnchors(const FashionCatalog& catalog, size_t n, uint64_t seed,
                                              const std::function<bool(const FashionItem&)>& predicate = {});

// The README's two baselines. Keeps pointers into `catalog`, which must outlive it.
class RandomBaselines {
public:
    explicit RandomBaselines(const FashionCatalog& catalog);

    // "Random items of the same leaf category": k distinct items with the anchor's
    // articleType, the anchor excluded, uniformly at random and in random order (all of
    // them, shuffled, when there are at most k).
    std::vector<const FashionItem*> randomSameLeaf(const FashionItem& anchor, size_t k, EvalRng& rng) const;
    // "Random items overall": k distinct catalog items, uniformly, `exclude` (the anchor) left out.
    std::vector<const FashionItem*> randomOverall(size_t k, EvalRng& rng, const FashionItem* exclude = nullptr) const;

    // Items sharing the anchor's articleType, the anchor excluded. O(1).
    size_t sameLeafCount(const FashionItem& anchor) const;

private:
    const FashionCatalog& catalog_;
    std::vector<const FashionItem*> all_;
    std::unordered_map<std::string, std::vector<const FashionItem*>> byArticleType_;
};

}  // namespace svc::evaluation
