// Unit tests of recommend/SimilarityRanker.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "recommend/SimilarityRanker.hpp"

using svc::Article;
using svc::Product;
using svc::SimilarityRanker;

namespace {

struct Spec {
    std::string mainSku;
    std::string model;
    std::string color = "Blue";
    std::string brand = "Acme";
    std::string category = "Women > Jeans";
    std::optional<int64_t> price = 5000;
    int64_t stock = 1;
};

Article article(const Spec& spec) {
    Product product;
    product.sku = spec.mainSku + "-M";
    product.mainSku = spec.mainSku;
    product.model = spec.model;
    product.color = spec.color;
    product.brand = spec.brand;
    if (!spec.category.empty()) product.categoryPaths = {spec.category};
    product.discountPrice = spec.price;
    product.stock = spec.stock;
    return Article{spec.mainSku, {product}};
}

std::vector<std::string> mainSkus(const std::vector<Article>& articles) {
    std::vector<std::string> skus;
    for (const auto& a : articles) skus.push_back(a.mainSku);
    return skus;
}

std::vector<std::string> rank(const Spec& anchor, const std::vector<Spec>& candidates, size_t limit = 100) {
    std::vector<Article> articles;
    for (const auto& spec : candidates) articles.push_back(article(spec));
    return mainSkus(SimilarityRanker().rank(article(anchor), std::move(articles), limit));
}

}  // namespace

TEST_CASE("SimilarityRanker::score adds category, colour, brand and price closeness") {
    const Spec anchor{"ANCHOR", "M0"};
    struct ScoreCase {
        const char* name;
        Spec candidate;
        double score;
    };
    const std::vector<ScoreCase> cases{
        {"everything equal", {"C", "M1"}, 4 + 2 + 1 + 1},
        {"other category", {"C", "M1", "Blue", "Acme", "Men > Jeans"}, 2 + 1 + 1},
        {"other colour", {"C", "M1", "Red"}, 4 + 1 + 1},
        {"colour compared case-insensitively", {"C", "M1", "BLUE"}, 4 + 2 + 1 + 1},
        {"other brand", {"C", "M1", "Blue", "Other"}, 4 + 2 + 1},
        {"brand compared case-insensitively", {"C", "M1", "Blue", "acme"}, 4 + 2 + 1 + 1},
        {"double the price", {"C", "M1", "Blue", "Acme", "Women > Jeans", 10000}, 4 + 2 + 1 + (1 - std::log(2.0))},
        {"half the price", {"C", "M1", "Blue", "Acme", "Women > Jeans", 2500}, 4 + 2 + 1 + (1 - std::log(2.0))},
        {"three times the price", {"C", "M1", "Blue", "Acme", "Women > Jeans", 15000}, 4 + 2 + 1},
        {"no price", {"C", "M1", "Blue", "Acme", "Women > Jeans", std::nullopt}, 4 + 2 + 1},
        {"price zero", {"C", "M1", "Blue", "Acme", "Women > Jeans", 0}, 4 + 2 + 1},
    };
    SimilarityRanker ranker;
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(ranker.score(article(anchor), article(c.candidate)) == doctest::Approx(c.score));
    }
    SUBCASE("an anchor without category, colour or brand gets no points for matching empties") {
        const Spec bare{"ANCHOR", "M0", "", "", "", std::nullopt};
        CHECK(ranker.score(article(bare), article({"C", "M1", "", "", "", std::nullopt})) == 0.0);
    }
}

TEST_CASE("SimilarityRanker::rank never returns the anchor or an unavailable article") {
    const Spec anchor{"ANCHOR", "M0"};
    std::vector<Article> candidates{
        article({"ANCHOR", "M0"}),                               // the anchor itself
        article({"SOLD-OUT", "M1", "Blue", "Acme", "Women > Jeans", 5000, 0}),
        article({"OK-1", "M2"}),
        article({"OK-2", "M3", "Red"}),
    };
    Article deleted = article({"DELETED", "M4"});
    deleted.variants[0].deleted = true;
    candidates.push_back(deleted);
    Article partly = article({"PARTLY", "M5"});  // one size sold out, another in stock
    Product otherSize = partly.variants[0];
    partly.variants[0].stock = 0;
    otherSize.sku = "PARTLY-L";
    partly.variants.push_back(otherSize);
    candidates.push_back(partly);

    auto result = mainSkus(SimilarityRanker().rank(article(anchor), candidates, 100));
    CHECK(result == std::vector<std::string>{"OK-1", "PARTLY", "OK-2"});
}

TEST_CASE("SimilarityRanker::rank puts the same colour above a different colour") {
    // The tie-break by main SKU alone would put A-RED first.
    CHECK(rank({"ANCHOR", "M0", "Blue"}, {{"A-RED", "M1", "Red"}, {"Z-BLUE", "M2", "Blue"}}) ==
          std::vector<std::string>{"Z-BLUE", "A-RED"});
    CHECK(rank({"ANCHOR", "M0", "navy"}, {{"A-RED", "M1", "Red"}, {"Z-NAVY", "M2", "NAVY"}}) ==
          std::vector<std::string>{"Z-NAVY", "A-RED"});
}

TEST_CASE("SimilarityRanker::rank takes one colour per model until nothing else is left") {
    const Spec anchor{"ANCHOR", "M0", "Blue"};
    const std::vector<Spec> candidates{
        {"M1-BLUE", "M1", "Blue"},                                   // 8
        {"M1-RED", "M1", "Red"},                                     // 6
        {"M1-NAVY", "M1", "Blue", "Other"},                          // 7
        {"M2-RED", "M2", "Red"},                                     // 6
        {"M0-RED", "M0", "Red"},                                     // the anchor's own model, 6
        {"NOMODEL-1", "", "Red", "Acme", "Women > Jeans", 10000},    // no model: never held back, 6 - ln 2
        {"NOMODEL-2", "", "Red", "Acme", "Women > Jeans", 10000},
    };
    struct LimitCase {
        size_t limit;
        std::vector<std::string> expected;
    };
    const std::vector<LimitCase> cases{
        {0, {}},
        {1, {"M1-BLUE"}},
        {2, {"M1-BLUE", "M2-RED"}},
        {4, {"M1-BLUE", "M2-RED", "NOMODEL-1", "NOMODEL-2"}},
        // Then the held-back colours, best first (equal scores by main SKU).
        {5, {"M1-BLUE", "M2-RED", "NOMODEL-1", "NOMODEL-2", "M1-NAVY"}},
        {100, {"M1-BLUE", "M2-RED", "NOMODEL-1", "NOMODEL-2", "M1-NAVY", "M0-RED", "M1-RED"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.limit);
        CHECK(rank(anchor, candidates, c.limit) == c.expected);
    }
}

TEST_CASE("SimilarityRanker::rank orders equal scores by main SKU, whatever the input order") {
    std::vector<Spec> candidates{{"C-3", "M3"}, {"A-1", "M1"}, {"D-4", "M4"}, {"B-2", "M2"}};
    const std::vector<std::string> expected{"A-1", "B-2", "C-3", "D-4"};
    CHECK(rank({"ANCHOR", "M0"}, candidates) == expected);
    std::reverse(candidates.begin(), candidates.end());
    CHECK(rank({"ANCHOR", "M0"}, candidates) == expected);
    std::rotate(candidates.begin(), candidates.begin() + 1, candidates.end());
    CHECK(rank({"ANCHOR", "M0"}, candidates) == expected);
}
