#pragma once
// The evaluation of SET and SIMILAR on real baskets (issue 21), shared by the doctest
// (tests/unit/RealBasketEvaluationTest.cpp) and bench-recommend-real.
//
// Customers are split into k folds (a seeded shuffle). For each fold the engine learns from
// the other folds' baskets exactly as svc-server does: the feed through FeedParser, the
// orders as ContentInputs::orders into ContentSnapshotBuilder (CoPurchaseModel inside), the
// answers through RecommendationService. Then, in every held-out basket with two or more
// articles, each ordered pair (anchor, target) of distinct articles asks for the anchor's
// recommendations and looks for the target, by article (main SKU). Baselines learn from the
// same training baskets in the same run. Intervals: a percentile bootstrap over baskets
// (pairs of one basket move together), seeded.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evaluation/HmBaskets.hpp"
#include "recommend/ContentSnapshotBuilder.hpp"
#include "sets/SetTemplate.hpp"

namespace svc::evaluation {

struct Interval {
    double value = 0;  // on all baskets
    double low = 0;    // 2.5% of the bootstrap
    double high = 0;   // 97.5%
};

struct MethodFigures {
    std::string name;
    Interval hitRate;               // HitRate@10 over all pairs
    Interval mrr;                   // MRR@10 (reciprocal rank, 0 beyond 10)
    Interval hitRateDifferentType;  // over pairs whose articles differ in product type
    Interval mrrDifferentType;
};

struct BasketEvaluationOptions {
    size_t folds = 5;
    size_t bootstrapSamples = 1000;
    uint64_t seed = 42;
    ParallelFor parallel;  // for the snapshot builds; null: one thread
};

struct BasketEvaluationReport {
    size_t baskets = 0;  // held-out baskets with two or more articles
    size_t pairs = 0;
    size_t differentTypePairs = 0;
    // SET, SIMILAR, item co-occurrence, type co-occurrence, popularity, same-type popularity, random.
    std::vector<MethodFigures> methods;
    const MethodFigures& method(const std::string& name) const;
    // SET minus item co-occurrence (all pairs), and SIMILAR minus same-type popularity.
    Interval setMinusCooccurrenceHitRate, setMinusCooccurrenceMrr;
    Interval similarMinusSameTypePopularityHitRate;
    // Type level, on pairs of different product types: the target's type among the types
    // of SET's first 5 positions, against the 5 types most often bought with the anchor's
    // type (its own type left out: SET never offers it) in the training baskets.
    Interval setTypeHitRate, fiveTypesHitRate, setMinusFiveTypesHitRate;
    // Over every anchor asked: the share with at least one SET position, SET products whose
    // department is the other adult one (a women's anchor with a men's article or back),
    // and SET products of the anchor's own product type.
    // Upper bounds over all pairs for any list that never offers the anchor's type (SET's rule): told the
    // target's type, that type's 10 most bought articles (an oracle over kinds); told the target itself, a
    // hit on every different-type pair whose target was bought in the learning orders.
    // The third: told the held-out pairs' mix of target types per anchor type, its types' best sellers
    // merged by (pairs of the type) x (share of the type's lines): the best a list choosing kinds, then
    // articles by their sales, could do with perfect kind-level knowledge.
    Interval kindOracleHitRate, kindOracleMrr, boughtDifferentTypeShare, typeMixOracleHitRate, typeMixOracleMrr;
    double setCoverage = 0;
    size_t genderClashes = 0;
    size_t ownTypeProducts = 0;
    size_t anchorsAsked = 0;
    // Per fold, the article-level prior strength (in orders) the engine estimated from that fold's learning orders.
    std::vector<double> articlePriorOrders;

    std::string text() const;  // the figures as a table
};

// The content pool's templates (native-server/content-pool/fashion.json), as svc installs them.
std::vector<SetTemplate> contentPoolTemplates();

BasketEvaluationReport evaluateBaskets(const HmBaskets& data, const std::vector<SetTemplate>& templates,
                                       const BasketEvaluationOptions& options);

}  // namespace svc::evaluation
