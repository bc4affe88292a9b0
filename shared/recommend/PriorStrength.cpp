#include "recommend/PriorStrength.hpp"

#include <algorithm>
#include <cmath>

namespace svc {

void PriorStrength::add(double count, double total, double mean, double weight) {
    // An outcome no prior mean allows and no other order repeats has probability 0 whatever m is: it
    // tells nothing about m (and its log would swamp the sum).
    if (weight <= 0 || total < 0 || (mean <= 0 && count <= 0)) return;
    observations_.push_back({std::max(0.0, count), total, std::clamp(mean, 0.0, 1.0), weight});
}

double PriorStrength::logLikelihood(double m) const {
    double sum = 0;
    for (const auto& o : observations_) sum += o.weight * std::log((o.count + m * o.mean) / (o.total + m));
    return sum;
}

double PriorStrength::estimate(double fallback) const {
    if (observations_.empty()) return fallback;
    // A grid over the log of m, then golden-section search around its best point: the likelihood
    // is smooth in log m, and the grid keeps a second local maximum from trapping the search.
    constexpr int kSteps = 36;  // six per decade
    const double low = std::log(kLowest), high = std::log(kHighest);
    auto at = [&](double logM) { return logLikelihood(std::exp(logM)); };
    int best = 0;
    double bestValue = at(low);
    for (int i = 1; i <= kSteps; ++i) {
        double value = at(low + (high - low) * i / kSteps);
        if (value > bestValue) bestValue = value, best = i;
    }
    double a = low + (high - low) * std::max(0, best - 1) / kSteps;
    double b = low + (high - low) * std::min(kSteps, best + 1) / kSteps;
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double c = b - ratio * (b - a), d = a + ratio * (b - a);
    double fc = at(c), fd = at(d);
    for (int i = 0; i < 30; ++i) {
        if (fc > fd) {
            b = d, d = c, fd = fc;
            c = b - ratio * (b - a), fc = at(c);
        } else {
            a = c, c = d, fc = fd;
            d = a + ratio * (b - a), fd = at(d);
        }
    }
    double logM = (a + b) / 2;
    return at(logM) >= bestValue ? std::exp(logM) : std::exp(low + (high - low) * best / kSteps);
}

}  // namespace svc
