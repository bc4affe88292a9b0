#include "recommend/KindClassifier.hpp"

#include <cmath>
#include <limits>
#include <unordered_set>

namespace svc {

void KindClassifier::addExample(uint32_t kind, const std::vector<uint32_t>& tokens) {
    auto [found, inserted] = kindIndex_.try_emplace(kind, kinds_.size());
    if (inserted) kinds_.push_back(KindStats{kind});
    auto index = static_cast<uint32_t>(found->second);
    KindStats& stats = kinds_[index];
    stats.examples += 1;
    stats.tokenTotal += static_cast<double>(tokens.size());
    for (uint32_t token : tokens) {
        auto& counts = tokenCounts_[token];
        if (!counts.empty() && counts.back().first == index) counts.back().second += 1;
        else {
            bool added = false;
            for (auto& entry : counts) {
                if (entry.first == index) {
                    entry.second += 1;
                    added = true;
                    break;
                }
            }
            if (!added) counts.emplace_back(index, 1.0f);
        }
    }
}

void KindClassifier::finish() {
    double examples = 0;
    for (const auto& stats : kinds_) examples += stats.examples;
    vocabularySize_ = static_cast<double>(tokenCounts_.size()) + 1;
    for (auto& stats : kinds_) {
        stats.logPrior = std::log(stats.examples / examples);
        stats.logDenominator = std::log(stats.tokenTotal + vocabularySize_);  // Laplace smoothing
    }
}

uint32_t KindClassifier::predict(const std::vector<uint32_t>& tokens) const {
    if (kinds_.empty()) return 0;
    // score(k) = log P(k) + sum over tokens of log((count(k, t) + 1) / (total(k) + V)).
    // Only known tokens count: an unseen word says nothing about any kind.
    std::vector<double> scores(kinds_.size());
    size_t known = 0;
    for (size_t k = 0; k < kinds_.size(); ++k) scores[k] = kinds_[k].logPrior;
    for (uint32_t token : tokens) {
        auto found = tokenCounts_.find(token);
        if (found == tokenCounts_.end()) continue;
        ++known;
        for (size_t k = 0; k < kinds_.size(); ++k) scores[k] -= kinds_[k].logDenominator;
        for (const auto& [index, count] : found->second) scores[index] += std::log(1.0 + count);
    }
    if (known == 0) return 0;
    size_t best = 0;
    for (size_t k = 1; k < kinds_.size(); ++k) {
        if (scores[k] > scores[best]) best = k;
    }
    return kinds_[best].kind;
}

}  // namespace svc
