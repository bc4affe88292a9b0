// Unit tests of the recommendation engine (recommend/): tokenizer, features, the kind
// classifier, SIMILAR lists (full and incremental builds), complementary sets from
// templates, custom sets and purchases, through RecommendationService.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <set>
#include <string>
#include <vector>

#include "ContentTestSupport.hpp"
#include "recommend/ColorFamily.hpp"
#include "recommend/Department.hpp"
#include "recommend/TextTokenizer.hpp"

using svc::ArticleRef;
using svc::Product;
using svc::RecommendationService;
using svc::testing::makeProduct;
using svc::testing::ProductContentSource;

namespace {

Product item(std::string mainSku, std::string category, std::string name, std::string color, std::string department,
             int64_t price = 5000, int64_t stock = 3) {
    Product product = makeProduct(mainSku + "-M", mainSku, std::move(category), price, stock);
    product.name = std::move(name);
    product.color = std::move(color);
    product.model = "model-" + mainSku;
    if (!department.empty()) product.properties["abteilung"] = std::move(department);
    return product;
}

std::vector<std::string> ids(const std::vector<ArticleRef>& articles) {
    std::vector<std::string> out;
    for (const auto& article : articles) out.push_back(article.article().mainSku);
    return out;
}

ArticleRef anchor(RecommendationService& service, const std::string& id) {
    auto found = service.findArticle(1, id);
    REQUIRE(found.ok());
    REQUIRE(found->has_value());
    return **found;
}

}  // namespace

TEST_CASE("TextTokenizer: lower case, singular, HTML and entities skipped, hyphenated words also joined") {
    struct Case {
        const char* text;
        std::vector<std::string> tokens;
    };
    const Case cases[] = {
        {"Blue T-Shirts", {"blue", "shirt", "tshirt"}},
        {"<p>Soft&nbsp;cotton <b>jeans</b></p>", {"soft", "cotton", "jean"}},
        {"Dress and glass", {"dress", "glass"}},  // "and" is a stop word; "ss" keeps its s
        {"Größe 42", {"größe", "42"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        CHECK(svc::TextTokenizer::tokens(c.text) == c.tokens);
    }
    CHECK(svc::TextTokenizer::key("Casual Shoes") == svc::TextTokenizer::key("casual-shoe"));
}

TEST_CASE("Department and colour family readers") {
    CHECK(svc::departmentFromText("Damen") == svc::Department::Women);
    CHECK(svc::departmentFromText("Men > Shoes") == svc::Department::Men);
    CHECK(svc::departmentFromText("Shoes") == svc::Department::Unknown);
    CHECK(svc::departmentsCompatible(svc::Department::Men, svc::Department::Unisex));
    CHECK_FALSE(svc::departmentsCompatible(svc::Department::Men, svc::Department::Women));
    CHECK_FALSE(svc::departmentsCompatible(svc::Department::Boys, svc::Department::Girls));
    CHECK(svc::colorFamilyFromText("Navy Blue") == svc::ColorFamily::Blue);
    CHECK(svc::colorFamilyFromText("Rose Gold") == svc::ColorFamily::Metallic);
    CHECK(svc::colorFamilyFromText("dunkelgrün") == svc::ColorFamily::Unknown);  // compound German words are not split
    CHECK(svc::colorHarmony(svc::ColorFamily::Red, svc::ColorFamily::Black) == 1.0);
    CHECK(svc::colorHarmony(svc::ColorFamily::Red, svc::ColorFamily::Green) == 0.0);
}

TEST_CASE("SIMILAR: same kind and department, closest first, never the anchor or a sold-out article") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(item("A", "Women > Clothing > Jeans", "Slim blue jeans", "Blue", "Women"));
    products.push_back(item("B", "Women > Clothing > Jeans", "Slim blue jeans", "Blue", "Women"));      // closest
    products.push_back(item("C", "Women > Clothing > Jeans", "Wide red jeans", "Red", "Women"));        // other colour
    products.push_back(item("D", "Women > Clothing > Jeans", "Slim blue jeans", "Blue", "Unisex"));    // unisex
    products.push_back(item("E", "Men > Clothing > Jeans", "Slim blue jeans", "Blue", "Men"));          // other department
    products.push_back(item("F", "Women > Clothing > Blouses", "Blue blouse", "Blue", "Women"));        // other kind
    products.push_back(item("G", "Women > Clothing > Jeans", "Slim blue jeans", "Blue", "Women", 5000, 0));  // sold out
    RecommendationService service(source);
    auto a = anchor(service, "A-M");
    CHECK(ids(service.similarTo(a, 10)) == std::vector<std::string>{"B", "D", "C"});
    CHECK(ids(service.similarTo(a, 1)) == std::vector<std::string>{"B"});
    CHECK(service.similarTo(a, 0).empty());
}

TEST_CASE("SIMILAR: one colour per model while other models remain") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(item("A", "Shoes > Sneakers", "Runner sneaker", "White", "Men"));
    auto sameModel = item("A2", "Shoes > Sneakers", "Runner sneaker", "White", "Men");
    sameModel.model = "model-A";  // the anchor's model in another colour code
    products.push_back(sameModel);
    auto b1 = item("B1", "Shoes > Sneakers", "Court sneaker", "White", "Men");
    auto b2 = item("B2", "Shoes > Sneakers", "Court sneaker", "White", "Men");
    b1.model = b2.model = "model-B";
    products.push_back(b1);
    products.push_back(b2);
    products.push_back(item("C", "Shoes > Sneakers", "Trail shoe", "Grey", "Men"));
    RecommendationService service(source);
    auto similar = ids(service.similarTo(anchor(service, "A"), 10));
    REQUIRE(similar.size() == 4);
    CHECK(std::set<std::string>{similar[0], similar[1]} == std::set<std::string>{"B1", "C"});  // one of B, then C
    CHECK(std::set<std::string>{similar[2], similar[3]} == std::set<std::string>{"A2", "B2"});  // further colours last
}

TEST_CASE("SIMILAR: an article without a category gets its kind from name and description") {
    ProductContentSource source;
    auto& products = source.products[1];
    for (int i = 0; i < 6; ++i) {
        products.push_back(item("S" + std::to_string(i), "Apparel > Topwear > Shirts", "Check cotton shirt " + std::to_string(i), "Blue", "Men"));
        products.push_back(item("J" + std::to_string(i), "Apparel > Bottomwear > Jeans", "Slim denim jeans " + std::to_string(i), "Blue", "Men"));
    }
    products.push_back(item("X", "", "Striped cotton shirt", "Blue", "Men"));  // no category
    RecommendationService service(source);
    auto x = anchor(service, "X");
    CHECK(x.entry().profile.kindInferred);
    auto similar = ids(service.similarTo(x, 6));
    REQUIRE(similar.size() == 6);
    for (const auto& id : similar) CHECK(id[0] == 'S');
    // And X appears among the shirts' similar products.
    auto forShirt = ids(service.similarTo(anchor(service, "S0"), 12));
    CHECK(std::find(forShirt.begin(), forShirt.end(), "X") != forShirt.end());
}

TEST_CASE("Incremental builds: stock changes keep lists, new articles join their neighbours' lists, deleted ones leave") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(item("A", "Women > Jeans", "Slim blue jeans", "Blue", "Women"));
    products.push_back(item("B", "Women > Jeans", "Wide red jeans", "Red", "Women"));
    products.push_back(item("C", "Women > Jeans", "Flared black jeans", "Black", "Women"));
    auto full = source.build(1, nullptr);
    REQUIRE(full->buildInfo().full);

    // Stock only: nothing recomputed, the sold-out article disappears from every list at once.
    products[1].stock = 0;
    auto afterStock = source.build(1, full);
    CHECK_FALSE(afterStock->buildInfo().full);
    CHECK(afterStock->buildInfo().recomputed == 0);
    auto a = *afterStock->find("A");
    CHECK(afterStock->similarList(a).size() == full->similarList(a).size());
    std::vector<std::string> listed;
    for (uint32_t index : afterStock->similar(a, 10)) listed.push_back(afterStock->entry(index).article->mainSku);
    CHECK(listed == std::vector<std::string>{"C"});
    // The previous snapshot still answers as before (readers never see a half state).
    CHECK(full->similar(*full->find("A"), 10).size() == 2);

    // A new article that matches A best comes first in A's list.
    products[1].stock = 3;
    products.push_back(item("D", "Women > Jeans", "Slim blue jeans", "Blue", "Women"));
    auto afterNew = source.build(1, afterStock);
    CHECK(afterNew->buildInfo().recomputed == 1);
    CHECK(afterNew->entry(afterNew->similar(*afterNew->find("A"), 1).front()).article->mainSku == "D");
    CHECK(afterNew->find("A") == afterStock->find("A"));  // indices stay stable

    // Deleted (no longer listed): not found, not recommended; listed again, it comes back.
    products.erase(products.begin() + 3);
    auto afterDelete = source.build(1, afterNew);
    CHECK_FALSE(afterDelete->find("D").has_value());
    for (uint32_t index : afterDelete->similar(*afterDelete->find("A"), 10)) CHECK(afterDelete->entry(index).article->mainSku != "D");
    products.push_back(item("D", "Women > Jeans", "Slim blue jeans", "Blue", "Women"));
    auto relisted = source.build(1, afterDelete);
    CHECK(relisted->find("D") == afterNew->find("D"));
    CHECK(relisted->entry(relisted->similar(*relisted->find("A"), 1).front()).article->mainSku == "D");
}

namespace {

svc::SetTemplate casualTemplate() {
    svc::SetTemplate t;
    t.id = "casual";
    t.tags = {"casual"};
    t.departments = {"Women", "Men"};
    t.occasions = {"casual"};
    t.slots = {{"top", {"Topwear"}, {}}, {"bottom", {"Bottomwear"}, {}}, {"shoes", {"Footwear"}, {}}};
    return t;
}

Product styled(std::string mainSku, std::string category, std::string color, std::string department, std::string usage, int64_t price = 4000) {
    Product product = item(mainSku, std::move(category), mainSku + " item", std::move(color), std::move(department), price);
    if (!usage.empty()) product.properties["stil"] = std::move(usage);
    return product;
}

}  // namespace

TEST_CASE("SET: positions from the template's other slots, keeping department, occasion and colour harmony") {
    ProductContentSource source;
    source.templates = {casualTemplate()};
    auto& products = source.products[1];
    products.push_back(styled("JEANS", "Apparel > Bottomwear > Jeans", "Blue", "Women", "Casual"));
    products.push_back(styled("SHORTS", "Apparel > Bottomwear > Shorts", "Blue", "Women", "Casual"));    // the anchor's position
    products.push_back(styled("TEE-W", "Apparel > Topwear > Tshirts", "White", "Women", "Casual"));
    products.push_back(styled("TEE-GREEN", "Apparel > Topwear > Tshirts", "Green", "Women", "Casual"));  // blue and green: acceptable
    products.push_back(styled("TEE-M", "Apparel > Topwear > Tshirts", "White", "Men", "Casual"));         // other department
    products.push_back(styled("TEE-SPORT", "Apparel > Topwear > Tshirts", "White", "Women", "Sports"));  // other occasion
    products.push_back(styled("SNEAKER", "Footwear > Shoes > Casual Shoes", "White", "Women", "Casual"));
    products.push_back(styled("SNEAKER-U", "Footwear > Shoes > Casual Shoes", "Black", "Unisex", "Casual"));
    RecommendationService service(source);
    auto clusters = service.clusters(anchor(service, "JEANS"), 5, 12);
    REQUIRE(clusters.size() == 2);
    CHECK(clusters[0].name == "top");
    CHECK(clusters[0].source == "template:casual");
    CHECK(clusters[0].id == "JEANS#1");
    std::vector<std::string> tops;
    for (uint32_t index : clusters[0].articles) tops.push_back(service.findArticle(1, "JEANS")->value().snapshot->entry(index).article->mainSku);
    CHECK(tops == std::vector<std::string>{"TEE-W", "TEE-GREEN"});  // the neutral white first
    CHECK(clusters[1].name == "shoes");
    CHECK(clusters[1].articles.size() == 2);

    auto sets = service.generatedSets(anchor(service, "JEANS"), 5);
    REQUIRE(sets.size() == 2);  // the second set takes each position's second product
    CHECK(sets[0].id == "JEANS#generated#1");
    CHECK(ids(sets[0].products) == std::vector<std::string>{"JEANS", "TEE-W", "SNEAKER"});
    CHECK(sets[0].tags == std::vector<std::string>{"casual"});
}

TEST_CASE("SET: no template, no custom sets, no purchases: no sets") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(styled("JEANS", "Apparel > Bottomwear > Jeans", "Blue", "Women", "Casual"));
    products.push_back(styled("TEE", "Apparel > Topwear > Tshirts", "White", "Women", "Casual"));
    RecommendationService service(source);
    CHECK(service.clusters(anchor(service, "JEANS"), 5, 12).empty());
    CHECK(service.generatedSets(anchor(service, "JEANS"), 5).empty());
}

TEST_CASE("SET: custom sets teach which kinds go together; purchases order the products once there are enough") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(styled("JEANS", "Apparel > Bottomwear > Jeans", "Blue", "Women", "Casual"));
    products.push_back(styled("JEANS2", "Apparel > Bottomwear > Jeans", "Black", "Women", "Casual"));
    for (int i = 0; i < 5; ++i) products.push_back(styled("BELT" + std::to_string(i), "Accessories > Belts", "Brown", "Women", "Casual"));
    source.customSets = {{"look-1", "Look", "", {}, {}, {"JEANS2", "BELT0"}}};
    RecommendationService service(source);
    auto clusters = service.clusters(anchor(service, "JEANS"), 5, 12);
    REQUIRE(clusters.size() == 1);
    CHECK(clusters[0].source == "custom-sets");
    CHECK(clusters[0].articles.size() == 5);

    // Orders pair JEANS with BELT3: after enough of them BELT3 leads the position.
    for (size_t i = 0; i < svc::CoPurchaseModel::kMinimumOrders; ++i) source.orders.push_back({"JEANS-M", "BELT3-M"});
    RecommendationService learned(source);
    auto ordered = learned.clusters(anchor(learned, "JEANS"), 5, 12);
    REQUIRE(ordered.size() == 1);
    CHECK(anchor(learned, "BELT3").index == ordered[0].articles.front());
    // One order short of the minimum, nothing is learned.
    source.orders.pop_back();
    RecommendationService unsure(source);
    CHECK(anchor(unsure, "BELT3").index != unsure.clusters(anchor(unsure, "JEANS"), 5, 12)[0].articles.front());
}

TEST_CASE("SET: purchases alone add positions for kinds bought together") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(styled("JEANS", "Apparel > Bottomwear > Jeans", "Blue", "Men", "Casual"));
    products.push_back(styled("JEANS2", "Apparel > Bottomwear > Jeans", "Black", "Men", "Casual"));
    products.push_back(styled("CAP", "Accessories > Headwear > Caps", "Black", "Men", "Casual"));
    products.push_back(styled("CAP2", "Accessories > Headwear > Caps", "Red", "Men", "Casual"));
    for (size_t i = 0; i < svc::CoPurchaseModel::kMinimumOrders; ++i) source.orders.push_back({i % 2 ? "JEANS" : "JEANS2", "CAP"});
    RecommendationService service(source);
    auto clusters = service.clusters(anchor(service, "JEANS"), 5, 12);
    REQUIRE(clusters.size() == 1);
    CHECK(clusters[0].source == "purchases");
    CHECK(clusters[0].articles.front() == anchor(service, "CAP").index);
}

TEST_CASE("SET: positions follow the kinds bought with the anchor's kind, shrunk toward the template while orders are few") {
    ProductContentSource source;
    source.templates = {casualTemplate()};
    auto& products = source.products[1];
    products.push_back(styled("JEANS", "Apparel > Bottomwear > Jeans", "Blue", "Women", "Casual"));
    products.push_back(styled("TEE1", "Apparel > Topwear > Tshirts", "White", "Women", "Casual"));
    products.push_back(styled("TEE2", "Apparel > Topwear > Tshirts", "Black", "Women", "Casual"));
    products.push_back(styled("SHOE1", "Footwear > Shoes > Casual Shoes", "White", "Women", "Casual"));
    products.push_back(styled("BELT1", "Accessories > Belts", "Brown", "Women", "Casual"));
    products.push_back(styled("BELT2", "Accessories > Belts", "Black", "Women", "Casual"));
    products.push_back(styled("BELT-M", "Accessories > Belts", "Black", "Men", "Casual"));
    auto names = [](const std::vector<svc::ComplementCluster>& clusters) {
        std::vector<std::string> result;
        for (const auto& cluster : clusters) result.push_back(cluster.name + "/" + cluster.source);
        return result;
    };
    // Orders that never hold jeans: the template's positions stand, ordered by the kinds' shares of orders.
    for (int i = 0; i < 20; ++i) source.orders.push_back({i % 4 ? "TEE2" : "TEE1", "SHOE1"});
    for (int i = 0; i < 5; ++i) source.orders.push_back({"TEE1", "TEE2"});
    {
        RecommendationService service(source);
        CHECK(names(service.clusters(anchor(service, "JEANS"), 5, 12)) ==
              std::vector<std::string>{"top/template:casual", "shoes/template:casual"});
    }
    // Two orders of jeans with a belt: a new position, but thin evidence does not outrank the template.
    source.orders.push_back({"JEANS", "BELT1"});
    source.orders.push_back({"JEANS", "BELT1"});
    {
        RecommendationService service(source);
        auto clusters = service.clusters(anchor(service, "JEANS"), 5, 12);
        CHECK(names(clusters) == std::vector<std::string>{"top/template:casual", "shoes/template:casual", "belt/purchases"});
        // Within the template's top position, the most bought tee first.
        CHECK(clusters[0].articles.front() == anchor(service, "TEE2").index);
    }
    // Many such orders: belts lead; the men's belt never shows for a women's anchor; BELT1, bought with jeans, first.
    for (int i = 0; i < 40; ++i) source.orders.push_back({"JEANS", i % 3 ? "BELT1" : "BELT2"});
    {
        RecommendationService service(source);
        auto clusters = service.clusters(anchor(service, "JEANS"), 5, 12);
        REQUIRE(names(clusters) == std::vector<std::string>{"belt/purchases", "top/template:casual", "shoes/template:casual"});
        CHECK(clusters[0].articles == std::vector<uint32_t>{anchor(service, "BELT1").index, anchor(service, "BELT2").index});
        CHECK(clusters[0].id == "JEANS#1");
    }
}

TEST_CASE("Custom sets: by any of their SKUs, shown while one product is available") {
    ProductContentSource source;
    auto& products = source.products[1];
    products.push_back(styled("A", "Apparel > Topwear > Tshirts", "White", "Women", "Casual"));
    products.push_back(styled("B", "Apparel > Bottomwear > Jeans", "Blue", "Women", "Casual"));
    source.customSets = {{"look", "Look", "", {"summer"}, {"https://cdn.example/look.jpg"}, {"A-M", "B", "UNKNOWN"}}};
    RecommendationService service(source);
    auto b = anchor(service, "B-M");  // keeps the snapshot the sets point into alive
    auto sets = service.customSetsOf(b);
    REQUIRE(sets.size() == 1);
    CHECK(sets[0]->definition.id == "look");
    CHECK(sets[0]->articles.size() == 2);  // the unknown SKU is dropped
    products[0].stock = 0;
    products[1].stock = 0;
    RecommendationService gone(source);
    CHECK(gone.customSetsOf(anchor(gone, "B")).empty());
}

TEST_CASE("SET as one ranked list: learned positions merged by probability, curated ones in turn") {
    using svc::ComplementCluster;
    struct Case {
        const char* name;
        std::vector<ComplementCluster> clusters;
        size_t limit;
        std::vector<uint32_t> expected;
    };
    const std::vector<Case> cases = {
        // A likely position's second article (0.6 x 0.4) comes before an unlikely position's first (0.2 x 0.9).
        {"learned", {{"", "tops", "purchases", {}, {1, 2, 3}, 0.6, {0.5, 0.4, 0.1}}, {"", "shoes", "purchases", {}, {7, 8}, 0.2, {0.9, 0.1}}},
         4, {1, 2, 7, 3}},
        {"curated (no probabilities): best of each, then second of each", {{"", "tops", "template:t", {}, {1, 2, 3}, 0, {}}, {"", "shoes", "template:t", {}, {7, 8}, 0, {}}},
         4, {1, 7, 2, 8}},
        {"shorter than the limit", {{"", "tops", "purchases", {}, {1}, 0.5, {1.0}}}, 10, {1}},
        {"no positions", {}, 10, {}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(RecommendationService::rankedComplements(c.clusters, c.limit) == c.expected);
    }
}
