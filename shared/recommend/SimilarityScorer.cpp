#include "recommend/SimilarityScorer.hpp"

#include <cmath>

namespace svc {

double SimilarityScorer::cosine(const ArticleProfile& a, const ArticleProfile& b) {
    const auto& at = a.tokens();
    const auto& bt = b.tokens();
    const auto& aw = a.weights();
    const auto& bw = b.weights();
    double sum = 0;
    size_t i = 0, j = 0;
    while (i < at.size() && j < bt.size()) {
        if (at[i] == bt[j]) sum += static_cast<double>(aw[i++]) * bw[j++];
        else if (at[i] < bt[j]) ++i;
        else ++j;
    }
    return sum;
}

double SimilarityScorer::score(const ArticleProfile& a, const ArticleProfile& b, double textCosine) const {
    if (!departmentsCompatible(a.department, b.department)) return -1;
    double score = departmentsEqual(a.department, b.department) ? weights_.sameDepartment : weights_.compatibleDepartment;
    if (a.color != 0 && a.color == b.color) score += weights_.sameColor;
    else if (a.colorFamily != ColorFamily::Unknown && a.colorFamily == b.colorFamily) score += weights_.sameColorFamily;
    score += weights_.text * textCosine;
    if (a.occasion != 0 && a.occasion == b.occasion) score += weights_.sameOccasion;
    else if (!space_.occasionsCompatible(a.occasion, b.occasion)) score -= weights_.sameOccasion;
    if (a.brand != 0 && a.brand == b.brand) score += weights_.sameBrand;
    if (a.style != 0 && a.style == b.style) score += weights_.sameAttribute;
    if (a.material != 0 && a.material == b.material) score += weights_.sameAttribute;
    if (a.pattern != 0 && a.pattern == b.pattern) score += weights_.sameAttribute;
    if (a.fit != 0 && a.fit == b.fit) score += weights_.sameAttribute;
    if (a.season != 0 && a.season == b.season) score += weights_.sameSeason;
    if (a.price > 0 && b.price > 0) {
        double ratio = std::fabs(static_cast<double>(a.logPrice - b.logPrice));
        score += weights_.price * std::max(0.0, 1.0 - ratio);
    }
    return score;
}

}  // namespace svc
