#pragma once
// Infers an article's kind (e.g. "tshirt") from its name and description when the
// feed gives no usable category: multinomial naive Bayes trained on the same
// catalog's articles that do have one. Feeds are messy; this keeps SIMILAR and SET
// working for products with blank or broken category paths.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace svc {

class KindClassifier {
public:
    void addExample(uint32_t kind, const std::vector<uint32_t>& tokens);
    // Call once after the examples and before predict().
    void finish();
    // The most likely kind; 0 when nothing was learned or no token is known.
    uint32_t predict(const std::vector<uint32_t>& tokens) const;
    size_t kinds() const { return kinds_.size(); }

private:
    struct KindStats {
        uint32_t kind = 0;
        double examples = 0;
        double tokenTotal = 0;
        double logPrior = 0;
        double logDenominator = 0;
    };
    std::vector<KindStats> kinds_;
    std::unordered_map<uint32_t, size_t> kindIndex_;
    // token -> (kind index, count): sparse, as most tokens belong to few kinds.
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, float>>> tokenCounts_;
    double vocabularySize_ = 1;
};

}  // namespace svc
