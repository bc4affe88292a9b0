#pragma once
// Evaluation support: synthetic shopping baskets over the fashion catalog, with a HIDDEN
// complementary structure that co-purchase learning should discover. The engine must
// never read this table; it exists only to generate data and to check the generator.
//
// A basket is an anchor plus 1 to 3 complements (2 to 4 main SKUs, "F" + id, the anchor
// first). The structure:
//
// 1. Complementary articleTypes (anchor type -> complement types), 35 directed pairs:
//      Jeans        -> Casual Shoes, Tshirts, Belts
//      Tshirts      -> Shorts, Casual Shoes, Caps
//      Shirts       -> Trousers, Formal Shoes, Ties
//      Trousers     -> Formal Shoes, Belts
//      Kurtas       -> Leggings, Sandals, Dupatta
//      Kurtis       -> Leggings
//      Tunics       -> Leggings
//      Tops         -> Jeans, Heels, Handbags
//      Dresses      -> Heels, Clutches, Earrings
//      Sarees       -> Clutches, Earrings
//      Skirts       -> Tops
//      Track Pants  -> Sports Shoes, Tshirts
//      Shorts       -> Flip Flops, Tshirts
//      Sweatshirts  -> Track Pants
//      Jackets      -> Jeans
//      Casual Shoes -> Socks
//      Sports Shoes -> Socks
//      Heels        -> Handbags
//      Flats        -> Handbags
//    A basket takes 1 to 3 distinct complement types of its anchor's type (uniformly, as
//    many as the anchor's gender allows), one item each.
// 2. Gender: every complement's gender matches the anchor's (gendersMatch: equal, or either
//    is Unisex). A complement type with no such item is not used for that anchor; anchors
//    are drawn uniformly among the items of the anchor types above that have at least one
//    usable complement type.
// 3. Which item of a complement type: with probability 0.6 one of the anchor's brand
//    (FashionItem::brand) when that type has gender-matching items of the brand; otherwise
//    any gender-matching item. Either way the draw is popularity-skewed: the items of each
//    articleType have a hidden popularity order (a permutation seeded by structureSeed) and
//    the item at rank r (1-based) is drawn with weight 1/r (Zipf, exponent 1) among the
//    candidates.
//
// Deterministic: the same catalog, structureSeed and generate() seed give the same baskets.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "evaluation/EvalRandom.hpp"
#include "evaluation/FashionCatalog.hpp"

namespace svc::evaluation {

struct ComplementPair {
    std::string_view anchorType;
    std::string_view complementType;
};

struct HeldOutBasket {
    std::vector<std::string> remainder;  // the basket without the held-out item; the anchor still first
    std::string heldOut;                 // the removed main SKU (never the anchor)
};

class BasketGenerator {
public:
    static constexpr double kSameBrandProbability = 0.6;
    static constexpr double kZipfExponent = 1.0;

    // Keeps pointers into `catalog`, which must outlive the generator.
    explicit BasketGenerator(const FashionCatalog& catalog, uint64_t structureSeed = 20240501);

    // The hidden table above.
    static const std::vector<ComplementPair>& complementTable();
    static bool isComplement(std::string_view anchorType, std::string_view type);

    // nBaskets baskets of main SKUs, the anchor first. Empty when the catalog has no usable anchor.
    std::vector<std::vector<std::string>> generate(size_t nBaskets, uint64_t seed) const;
    // One non-anchor item of each basket, chosen uniformly by `seed`, moved to heldOut.
    // Baskets with fewer than 2 items are left out of the result.
    static std::vector<HeldOutBasket> splitHoldout(const std::vector<std::vector<std::string>>& baskets, uint64_t seed);

    // Anchors generate() draws from (items of an anchor type with a usable complement type).
    size_t anchorCount() const { return anchors_.size(); }

private:
    struct Pool {
        std::vector<const FashionItem*> items;  // hidden popularity order, most popular first
        std::vector<double> cumulativeWeight;   // Zipf weights of items, summed
    };
    struct ComplementPools {
        Pool all;                                        // gender-matching items of one type
        std::unordered_map<std::string, Pool> byBrand;  // the same split by brand (non-blank brands)
    };

    const FashionItem& drawFrom(const Pool& pool, EvalRng& rng) const;

    std::vector<const FashionItem*> anchors_;
    // Keys: articleType + '\n' + the anchor's gender.
    std::unordered_map<std::string, ComplementPools> pools_;                         // key: complement type, anchor gender
    std::unordered_map<std::string, std::vector<const ComplementPools*>> usable_;  // key: anchor type, anchor gender
};

}  // namespace svc::evaluation
