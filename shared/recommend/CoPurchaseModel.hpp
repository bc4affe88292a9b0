#pragma once
// What purchases teach about complements, learned from orders with several lines:
// which kinds are bought together (lift over chance), which items are bought at all
// (popularity), which item pairs recur, and whether co-bought items tend to share the
// anchor's brand or colour family more than chance would give. Sparse data
// generalises through kinds and attributes; recurring pairs still count most.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recommend/ArticleProfile.hpp"

namespace svc {

class CoPurchaseModel {
public:
    // Baskets of article indices (one order each, duplicates removed); `profiles`
    // indexed by article. Orders with a single article teach popularity only.
    void train(const std::vector<std::vector<uint32_t>>& baskets, const std::vector<const ArticleProfile*>& profiles);

    // Enough multi-line orders to trust what was learned.
    bool ready() const { return multiLineOrders_ >= kMinimumOrders; }
    size_t multiLineOrders() const { return multiLineOrders_; }
    bool empty() const { return popularity_.empty(); }
    // log lift of buying kind `b` with kind `a` (0 when unseen or not ready).
    double kindLift(uint32_t kindA, uint32_t kindB) const;
    // Kinds bought with `kind` at least `minimumCount` times, by lift, best first.
    std::vector<uint32_t> complementKinds(uint32_t kind, size_t minimumCount) const;
    double popularity(uint32_t article) const;
    double pairCount(uint32_t a, uint32_t b) const;
    // How much likelier than chance a co-bought item shares the anchor's brand
    // (as log ratio, 0 when no effect or not ready); the same for colour families.
    double sameBrandWeight() const { return sameBrandWeight_; }
    double sameColorFamilyWeight() const { return sameColorFamilyWeight_; }
    // The likelihood-of-conversion score of `candidate` completing `anchor`.
    double score(uint32_t anchor, const ArticleProfile& anchorProfile, uint32_t candidate, const ArticleProfile& candidateProfile) const;

    // Kind level, counted once per multi-line order (a basket of five tops counts tops once):
    // orders holding the kind, and the kinds bought in the same orders with those counts,
    // most often first (never the kind itself).
    double ordersWithKind(uint32_t kind) const;
    const std::vector<std::pair<uint32_t, double>>& kindsBoughtWith(uint32_t kind) const;
    // The share of multi-line orders that hold the kind: the prior of kind-level estimates.
    double kindShare(uint32_t kind) const;
    // Kinds by the number of multi-line orders holding them, most first.
    const std::vector<uint32_t>& kindsByOrders() const { return kindsByOrders_; }
    // Multi-line orders holding the article, and the articles bought with it, most often first.
    double ordersWithArticle(uint32_t article) const;
    const std::vector<std::pair<uint32_t, double>>& partners(uint32_t article) const;
    // Bought articles of a kind, most bought first; the lines of all of them, and the kind's
    // size in the catalog (for the prior of an article's share of its kind: one line spread over the kind).
    const std::vector<uint32_t>& mostBought(uint32_t kind) const;
    double kindLinesAll(uint32_t kind) const;
    double kindSize(uint32_t kind) const;
    // The article's share of its kind's lines, under a prior worth one line spread over the kind
    // (one pseudo-line per article made a big kind's best seller look rarer than a small kind's).
    double articleShare(uint32_t article, uint32_t kind) const;

    // How much likelier an article of another kind is bought with the anchor when it shares an attribute
    // with it (colour family, department, top category, pattern) than its share of its kind's lines
    // says, one ratio per attribute for sharing it and one for not, estimated from the co-purchases of the
    // tenant's orders and multiplied (attributes taken as independent); 1 where an attribute is unknown.
    double attributeRatio(const ArticleProfile& anchor, const ArticleProfile& candidate) const;
    static constexpr size_t kAttributes = 4;

    // The strength, in orders, of the prior of the article-level estimate, estimated from this
    // tenant's own orders by leave-one-out likelihood (PriorStrength): how far the articles bought
    // with an anchor back off to their share of the kind. kDefaultPriorOrders where the orders give
    // nothing to estimate from.
    double articlePriorOrders() const { return articlePriorOrders_; }
    static constexpr double kDefaultPriorOrders = 10;
    // The estimate reads at most this many leave-one-out outcomes (an even sample beyond): the fit
    // stays a few milliseconds whatever the tenant's history.
    static constexpr size_t kMaximumFitOutcomes = 50000;

    static constexpr size_t kMinimumOrders = 20;

private:
    static uint64_t pairKey(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }
    static uint32_t attribute(const ArticleProfile& profile, size_t which);
    void estimateAttributeRatios(const std::vector<const ArticleProfile*>& profiles);
    double sameRatio_[kAttributes] = {1, 1, 1, 1};
    double differentRatio_[kAttributes] = {1, 1, 1, 1};
    void estimatePriorStrengths(const std::vector<std::vector<uint32_t>>& baskets, const std::vector<const ArticleProfile*>& profiles);
    double articlePriorOrders_ = kDefaultPriorOrders;
    size_t multiLineOrders_ = 0;
    std::unordered_map<uint32_t, double> popularity_;
    std::unordered_map<uint64_t, double> pairs_;      // both directions
    std::unordered_map<uint64_t, double> kindPairs_;  // both directions
    std::unordered_map<uint32_t, double> kindLines_;  // per kind, lines in multi-line orders
    double pairTotal_ = 0;
    double lineTotal_ = 0;
    double sameBrandWeight_ = 0;
    double sameColorFamilyWeight_ = 0;
    std::unordered_map<uint32_t, double> kindOrders_;
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, double>>> kindsWith_;
    std::vector<uint32_t> kindsByOrders_;
    std::unordered_map<uint32_t, double> articleOrders_;
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, double>>> partners_;
    std::unordered_map<uint32_t, std::vector<uint32_t>> mostBought_;
    std::unordered_map<uint32_t, double> kindLinesAll_;
    std::unordered_map<uint32_t, double> kindSizes_;
};

}  // namespace svc
