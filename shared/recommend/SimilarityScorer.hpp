#pragma once
// How well one article could replace another (SIMILAR). Articles are compared only
// within one kind (the caller buckets them); this weighs everything else the feed
// says: department, colour and colour family, occasion, brand, material, pattern, fit,
// season, price band and the words of name, description and category.
#include "recommend/ArticleProfile.hpp"
#include "recommend/FeatureSpace.hpp"

namespace svc {

struct SimilarityWeights {
    double sameDepartment = 2.0;        // both known and equal
    double compatibleDepartment = 1.0;  // Unisex or unknown on one side
    double sameColor = 2.5;
    double sameColorFamily = 1.0;
    double text = 3.0;                  // times the cosine of the tf-idf vectors
    double sameOccasion = 1.0;
    double sameBrand = 0.6;
    double sameAttribute = 0.4;         // style, material, pattern, fit each
    double sameSeason = 0.3;
    double price = 0.6;                 // 1 for equal prices, 0 from a factor of e apart
};

class SimilarityScorer {
public:
    explicit SimilarityScorer(const FeatureSpace& space, SimilarityWeights weights = {}) : space_(space), weights_(weights) {}
    // Higher is more alike; a negative score means "never similar" (clashing departments).
    double score(const ArticleProfile& a, const ArticleProfile& b) const { return score(a, b, cosine(a, b)); }
    // The same with the texts' cosine computed by the caller (list builds accumulate it
    // for a whole row at once from an inverted index).
    double score(const ArticleProfile& a, const ArticleProfile& b, double textCosine) const;
    double textWeight() const { return weights_.text; }
    static double cosine(const ArticleProfile& a, const ArticleProfile& b);

private:
    const FeatureSpace& space_;
    SimilarityWeights weights_;
};

}  // namespace svc
