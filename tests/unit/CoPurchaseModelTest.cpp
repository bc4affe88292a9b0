// What CoPurchaseModel estimates from a tenant's own orders (ADR 0073, third pass): the strength
// of the article-level prior (PriorStrength, leave-one-out likelihood) and the attribute ratios
// that weigh an article's share of its kind.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "recommend/CoPurchaseModel.hpp"
#include "recommend/PriorStrength.hpp"

using svc::ArticleProfile;
using svc::CoPurchaseModel;
using svc::PriorStrength;

namespace {

// Groups of `draws` yes/no outcomes whose rate is drawn from a beta prior of mean `mean` and
// strength `strength`, as leave-one-out observations.
PriorStrength betaBinomialGroups(double strength, double mean, int groups, int draws, unsigned seed) {
    std::mt19937 random(seed);
    std::gamma_distribution<double> yes(strength * mean), no(strength * (1 - mean));
    PriorStrength fit;
    for (int g = 0; g < groups; ++g) {
        double x = yes(random), y = no(random);
        std::binomial_distribution<int> outcomes(draws, x / (x + y));
        const double hits = outcomes(random);
        fit.add(hits - 1, draws - 1, mean, hits);
        fit.add(draws - 1 - hits, draws - 1, 1 - mean, draws - hits);
    }
    return fit;
}

std::vector<const ArticleProfile*> pointers(const std::vector<ArticleProfile>& profiles) {
    std::vector<const ArticleProfile*> out;
    for (const auto& profile : profiles) out.push_back(&profile);
    return out;
}

}  // namespace

TEST_CASE("PriorStrength: the leave-one-out likelihood finds the strength the counts were drawn with") {
    struct Case {
        double strength;
        double mean;
    };
    for (const Case c : {Case{2, 0.2}, Case{20, 0.3}, Case{200, 0.1}}) {
        CAPTURE(c.strength);
        const double estimate = betaBinomialGroups(c.strength, c.mean, 2000, 40, 7).estimate(10);
        CHECK(estimate > c.strength / 2);
        CHECK(estimate < c.strength * 2);
    }
    // Nothing to learn from: the fallback. Outcomes no other order repeats: all the way to the prior mean.
    CHECK(PriorStrength().estimate(10) == 10);
    PriorStrength neverRepeated;
    for (int i = 0; i < 100; ++i) neverRepeated.add(0, 5, 0.2);
    CHECK(neverRepeated.estimate(10) == doctest::Approx(PriorStrength::kHighest).epsilon(0.01));
    // Outcomes every other order repeats: the counts alone.
    PriorStrength alwaysRepeated;
    for (int i = 0; i < 100; ++i) alwaysRepeated.add(5, 5, 0.2);
    CHECK(alwaysRepeated.estimate(10) == doctest::Approx(PriorStrength::kLowest).epsilon(0.01));
}

TEST_CASE("CoPurchaseModel: partners that recur across orders are trusted, partners that do not back off to the kind's best sellers") {
    // 20 anchors of kind 1, 40 articles of kind 2.
    std::vector<ArticleProfile> profiles(60);
    for (size_t i = 0; i < profiles.size(); ++i) profiles[i].kind = i < 20 ? 1 : 2;
    std::mt19937 random(3);
    std::vector<std::vector<uint32_t>> recurring, scattered;
    for (uint32_t anchor = 0; anchor < 20; ++anchor) {
        for (int order = 0; order < 20; ++order) {
            // Each anchor is bought with its own partner...
            recurring.push_back({anchor, 20 + anchor});
            // ...or with any article of the kind, the first ones selling most.
            std::geometric_distribution<uint32_t> partner(0.15);
            scattered.push_back({anchor, 20 + std::min<uint32_t>(39, partner(random))});
        }
    }
    CoPurchaseModel trusted, shrunk;
    trusted.train(recurring, pointers(profiles));
    shrunk.train(scattered, pointers(profiles));
    // The fixed strength of before was 10 orders for both.
    CHECK(trusted.articlePriorOrders() < 1);
    CHECK(shrunk.articlePriorOrders() > 100);
}

TEST_CASE("CoPurchaseModel: attribute ratios say how much likelier a co-bought article shares the anchor's colour family") {
    // Tops (kind 1) and trousers (kind 2) in black or blue, as many of each.
    std::vector<ArticleProfile> profiles(40);
    for (size_t i = 0; i < profiles.size(); ++i) {
        profiles[i].kind = i < 20 ? 1 : 2;
        profiles[i].colorFamily = i % 2 ? svc::ColorFamily::Black : svc::ColorFamily::Blue;
    }
    std::vector<std::vector<uint32_t>> matching, independent;
    for (uint32_t top = 0; top < 20; ++top) {
        for (uint32_t k = 0; k < 10; ++k) {
            const uint32_t trousers = 20 + (top + 2 * k) % 20;  // same parity: same colour family
            matching.push_back({top, trousers});
            independent.push_back({top, 20 + (top + k) % 20});  // half the same, half not
        }
    }
    CoPurchaseModel matched, indifferent;
    matched.train(matching, pointers(profiles));
    indifferent.train(independent, pointers(profiles));
    const ArticleProfile& blackTop = profiles[1];
    const ArticleProfile& blackTrousers = profiles[21];
    const ArticleProfile& blueTrousers = profiles[20];
    CHECK(matched.attributeRatio(blackTop, blackTrousers) > 1.8);
    CHECK(matched.attributeRatio(blackTop, blueTrousers) < 0.1);
    CHECK(indifferent.attributeRatio(blackTop, blackTrousers) == doctest::Approx(1).epsilon(0.05));
    CHECK(indifferent.attributeRatio(blackTop, blueTrousers) == doctest::Approx(1).epsilon(0.05));
    // An attribute the catalog does not give weighs nothing.
    ArticleProfile unknown = blackTrousers;
    unknown.colorFamily = svc::ColorFamily::Unknown;
    CHECK(matched.attributeRatio(blackTop, unknown) == 1);
}
