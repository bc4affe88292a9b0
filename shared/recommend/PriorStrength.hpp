#pragma once
// The strength of a Dirichlet (or beta) prior, estimated from the counts it smooths
// (empirical Bayes): a smoothed estimate (count + m x prior mean) / (total + m) trusts a
// tenant's counts as much as its own orders say they deserve. Each observation is one
// outcome predicted from the other orders (leave one out: its own order's counts removed),
// and m maximises the summed log probability of those predictions. Counts that recur
// across orders pull m down (trust them); counts that do not predict each other beyond the
// prior mean push it up (back off to the mean). No constant fitted to a data set: the only
// choices are the search range and the fallback when there is nothing to learn from.
#include <cstddef>
#include <vector>

namespace svc {

class PriorStrength {
public:
    // One predicted outcome: `count` of `total` other orders agreed with it, the prior mean
    // gives it `mean`, and it stands for `weight` identical outcomes.
    void add(double count, double total, double mean, double weight = 1);
    size_t observations() const { return observations_.size(); }
    // The m in [kLowest, kHighest] with the highest leave-one-out likelihood; `fallback`
    // without observations.
    double estimate(double fallback) const;
    // Summed log probability of the observations under strength m.
    double logLikelihood(double m) const;

    static constexpr double kLowest = 0.1;
    static constexpr double kHighest = 1e5;

private:
    struct Observation {
        double count, total, mean, weight;
    };
    std::vector<Observation> observations_;
};

}  // namespace svc
