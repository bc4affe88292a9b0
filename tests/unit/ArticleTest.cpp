// Unit tests of catalog/Article (and the Product helpers it relies on).
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "catalog/Article.hpp"

using svc::Article;
using svc::Product;

namespace {

Product variant(const std::string& sku, const std::string& mainSku, int64_t stock = 1, bool deleted = false) {
    Product product;
    product.sku = sku;
    product.mainSku = mainSku;
    product.stock = stock;
    product.deleted = deleted;
    return product;
}

std::string describe(const std::vector<Article>& articles) {
    std::string out;
    for (const auto& article : articles) {
        out += article.mainSku + ":";
        for (const auto& product : article.variants) out += " " + product.sku;
        out += "; ";
    }
    return out;
}

}  // namespace

TEST_CASE("groupIntoArticles groups variants by main SKU in first-seen order") {
    struct GroupCase {
        std::vector<Product> products;
        std::string articles;
    };
    const std::vector<GroupCase> cases{
        {{}, ""},
        {{variant("a1", "A")}, "A: a1; "},
        {{variant("b1", "B"), variant("a1", "A"), variant("b2", "B"), variant("c1", "C"), variant("a2", "A"), variant("b3", "B")},
         "B: b1 b2 b3; A: a1 a2; C: c1; "},
        {{variant("z", "Z"), variant("y", "Y"), variant("x", "X")}, "Z: z; Y: y; X: x; "},  // not sorted
    };
    for (const auto& c : cases) {
        CAPTURE(c.articles);
        CHECK(describe(svc::groupIntoArticles(c.products)) == c.articles);
    }
}

TEST_CASE("Article: availability and the representative variant") {
    struct RepresentativeCase {
        const char* name;
        std::vector<Product> variants;
        bool available;
        std::string representative;
    };
    const std::vector<RepresentativeCase> cases{
        {"first variant available", {variant("s", "A", 2), variant("m", "A", 5)}, true, "s"},
        {"first available variant speaks", {variant("s", "A", 0), variant("m", "A", 0), variant("l", "A", 1)}, true, "l"},
        {"none available: the first", {variant("s", "A", 0), variant("m", "A", 0)}, false, "s"},
        {"deleted variants are not available", {variant("s", "A", 3, true), variant("m", "A", 1)}, true, "m"},
        {"all deleted", {variant("s", "A", 3, true)}, false, "s"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        Article article{"A", c.variants};
        CHECK(article.available() == c.available);
        CHECK(article.representative().sku == c.representative);
    }
}

TEST_CASE("Product: selling price and primary category") {
    Product product;
    CHECK(product.sellingPrice() == std::optional<int64_t>());
    product.retailPrice = 5999;
    CHECK(product.sellingPrice() == std::optional<int64_t>(5999));
    product.discountPrice = 4999;
    CHECK(product.sellingPrice() == std::optional<int64_t>(4999));
    product.discountPrice = 0;  // a discount price of 0 is still the price
    CHECK(product.sellingPrice() == std::optional<int64_t>(0));
    CHECK(product.primaryCategory() == "");
    product.categoryPaths = {"Women > Jeans", "Sale"};
    CHECK(product.primaryCategory() == "Women > Jeans");
}
