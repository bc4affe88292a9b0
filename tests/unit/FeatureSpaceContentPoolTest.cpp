// The content pool reads the spec's content-pool columns: a feed with both names of a field
// keeps kategorie1, marke, farbe and beschreibung as properties (ADR 0070), and the engine's
// profile takes those over the base-data fields, which widgets and GraphQL show.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "recommend/FeatureSpace.hpp"
#include "recommend/TextTokenizer.hpp"

using svc::FeatureSpace;
using svc::Product;
using svc::TextTokenizer;

namespace {

Product boot() {
    Product product;
    product.sku = product.mainSku = "BOOT-1";
    product.name = "Ankle boot";
    product.brand = "Brand EN";
    product.color = "Black";
    product.description = "Boots";
    product.categoryPaths = {"Women > Shoes > Boots"};
    product.retailPrice = 9000;
    return product;
}

}  // namespace

TEST_CASE("FeatureSpace: the content-pool columns kept beside the base-data ones are what the content pool reads") {
    struct PoolCase {
        std::string name;
        std::map<std::string, std::string> properties;
        std::string kind, brand, color;
    };
    const std::vector<PoolCase> cases{
        {"base-data fields only", {}, "boots", "brand en", "black"},
        {"kategorie1, marke and farbe beside them",
         {{"kategorie1", "Damen > Schuhe > Stiefeletten, Sale"}, {"marke", "Marke DE"}, {"farbe", "Schwarz"}},
         "stiefeletten", "marke de", "schwarz"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        Product product = boot();
        product.properties = c.properties;
        FeatureSpace space;
        space.train({&product});
        auto profile = space.profile(product);
        CHECK(space.text(profile.kind) == TextTokenizer::key(c.kind));
        CHECK(space.text(profile.brand) == TextTokenizer::key(c.brand));
        CHECK(space.text(profile.color) == TextTokenizer::key(c.color));
    }
}
