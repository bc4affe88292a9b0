// A tenant's categories mapped onto the content pool's slots (ADR 0075): the catalog's
// categories as the content pool reads them, svc's proposal from the pool's words, the
// mapping's JSON and its effect on the templates and on SET.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ContentTestSupport.hpp"
#include "recommend/CatalogCategories.hpp"
#include "recommend/TextTokenizer.hpp"
#include "sets/CategorySlotMapping.hpp"
#include "sets/CategorySlotProposer.hpp"
#include "sets/SetJson.hpp"

using svc::CatalogCategories;
using svc::CatalogCategory;
using svc::CategorySlotMapping;
using svc::CategorySlotProposer;
using svc::RecommendationService;
using svc::SetTemplate;
using svc::testing::makeProduct;
using svc::testing::ProductContentSource;

namespace {

std::vector<SetTemplate> fashionPool() {
    std::ifstream in(std::string(SVC_SOURCE_DIR) + "/native-server/content-pool/fashion.json");
    std::stringstream text;
    text << in.rdbuf();
    auto file = svc::setFileFromJson(text.str());
    REQUIRE_MESSAGE(file.ok(), (file.ok() ? "" : file.error().message));
    return file->templates;
}

SetTemplate templateOf(const std::string& json) {
    auto parsed = svc::setTemplateFromJson(nlohmann::json::parse(json));
    REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
    return *parsed;
}

CatalogCategory category(std::string name, std::vector<std::string> parents = {}) {
    CatalogCategory result;
    result.key = svc::TextTokenizer::key(name);
    result.name = std::move(name);
    result.parents = std::move(parents);
    result.products = 1;
    return result;
}

}  // namespace

TEST_CASE("CatalogCategories: one entry per kind level, articles counted once, the content pool's path") {
    CatalogCategories categories;
    auto jeansS = makeProduct("J1-S", "J1", "Women > Sale > Skinny Jeans", 3000);
    auto jeansM = makeProduct("J1-M", "J1", "Women > Sale > Skinny Jeans", 3000);  // a variant: the same article
    auto jeans2 = makeProduct("J2", "J2", "Damen > Hosen > Skinny-Jeans", 3000);   // another spelling, the same key
    auto women = makeProduct("W1", "W1", "Clothing > Women", 3000);                // a department leaf: the level above names the kind
    auto pool = makeProduct("P1", "P1", "Ignored > Path", 3000);
    pool.properties["kategorie1"] = "Men > Chinos,Men > Trousers";  // the content pool reads kategorie1's first path
    auto generic = makeProduct("G1", "G1", "Sale > New", 3000);        // nothing but generic levels: no category
    auto hostile = makeProduct("H1", "H1", "Women > " + std::string(300, 'x'), 3000);  // too long to list
    auto gone = makeProduct("D1", "D1", "Women > Gone", 3000);
    gone.deleted = true;
    for (const auto* product : {&jeansS, &jeansM, &jeans2, &women, &pool, &generic, &hostile, &gone}) categories.add(*product);

    auto list = categories.list(10);
    REQUIRE(list.size() == 3);
    CHECK(list[0].key == "skinnyjean");
    CHECK(list[0].products == 2);
    CHECK(list[0].paths.size() == 2);
    CHECK((list[0].name == "Skinny Jeans" || list[0].name == "Skinny-Jeans"));
    CHECK(categories.has("chino"));
    CHECK(categories.has("clothing"));
    CHECK_FALSE(categories.has("trouser"));
    CHECK_FALSE(categories.has("gone"));
    for (const auto& entry : list) {
        if (entry.key == "chino") CHECK(entry.parents == std::vector<std::string>{"Men"});
    }
    CHECK(categories.list(1).size() == 1);  // the most articles first
}

TEST_CASE("CategorySlotProposer: the fashion pool's words propose slots for names it does not list") {
    CategorySlotProposer proposer(fashionPool());
    struct Case {
        const char* name;
        std::vector<std::string> parents;
        const char* slot;  // "" = no proposal
        const char* basis;
    };
    const Case cases[] = {
        {"Sneakers", {"Shoes", "Women"}, "shoes", "listed"},
        {"Bra", {}, "inner", "listed"},
        {"Skinny Jeans", {"Trousers", "Women"}, "bottom", "name"},
        {"Sweatpants", {}, "bottom", "name"},           // the head of a compound
        {"Hoodies", {"Women"}, "top", "name"},          // a synonym, plural folded
        {"Ankle Boots", {}, "shoes", "name"},
        {"Shoulder Bags", {"Accessories"}, "bag", "name"},
        {"Dresses", {}, "dress", "listed"},
        {"Nightwear", {}, "lounge", "name"},
        {"Slim Fit", {"Chinos", "Men"}, "bottom", "path"},  // nothing in the name: the level above
        {"Kilts", {}, "", ""},                          // a word the pool never uses
        {"Gift Cards", {"Extras"}, "", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(std::string(c.name));
        auto proposal = proposer.propose(category(c.name, c.parents));
        if (std::string(c.slot).empty()) {
            CHECK_FALSE(proposal.has_value());
            continue;
        }
        REQUIRE(proposal.has_value());
        CHECK(proposal->slot == c.slot);
        CHECK(proposal->basis == c.basis);
        CHECK(proposal->confidence > 0.0);
        CHECK(proposal->confidence <= 1.0);
    }
    // Confidence says how clearly one slot wins: a name every shop spells the same beats a compound.
    CHECK(proposer.propose(category("Skinny Jeans"))->confidence > proposer.propose(category("Sweatpants"))->confidence);
}

TEST_CASE("CategorySlotProposer: only the pool's data decides (slots, listed categories, synonyms)") {
    std::vector<SetTemplate> pool{templateOf(R"({"id": "t", "title": "T", "slots": [
        {"name": "alpha", "categories": ["Widgets"], "synonyms": ["gizmo"]},
        {"name": "beta", "categories": ["Gadgets"]}]})")};
    CategorySlotProposer proposer(pool);
    CHECK(proposer.propose(category("Blue Gizmos"))->slot == "alpha");
    CHECK(proposer.propose(category("Gadgets"))->basis == "listed");
    auto byPath = proposer.propose(category("Things", {"Gadgets"}));
    REQUIRE(byPath.has_value());
    CHECK(byPath->slot == "beta");
    CHECK(byPath->basis == "path");
    CHECK(byPath->confidence == doctest::Approx(0.6));
    CHECK_FALSE(proposer.propose(category("Jeans")).has_value());  // not a word of this pool
    CHECK_FALSE(CategorySlotProposer({}).propose(category("Jeans")).has_value());
}

TEST_CASE("CategorySlotProposer: hostile names propose nothing odd and cost little") {
    CategorySlotProposer proposer(fashionPool());
    std::string manyWords;
    for (int i = 0; i < 20000; ++i) manyWords += "zzz" + std::to_string(i) + " ";
    manyWords += "Jeans";
    struct Case {
        std::string name;
        const char* slot;
    };
    const std::vector<Case> cases = {
        {"", ""},
        {"<script>alert(1)</script>", ""},
        {"Women", ""},               // a department only
        {"\xF0\x9F\x91\x97", ""},    // an emoji
        {"\xFF\xFE\x80", ""},        // not UTF-8
        {"s", ""},
        {"'; DROP TABLE products; --", ""},
        {std::string(100000, 'a'), ""},
        {manyWords, "bottom"},       // the last words are read: the head noun
        {"top top top top", "top"},
        {"Jeans\nShoes", "shoes"},   // the last word is the head
    };
    auto started = std::chrono::steady_clock::now();
    for (const auto& c : cases) {
        CAPTURE(c.name.substr(0, 40));
        auto proposal = proposer.propose(category(c.name, {c.name, c.name}));
        if (std::string(c.slot).empty()) {
            CHECK_FALSE(proposal.has_value());
        } else {
            REQUIRE(proposal.has_value());
            CHECK(proposal->slot == c.slot);
        }
    }
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

TEST_CASE("CategorySlotMapping: a mapped category joins every slot of its name and leaves the others") {
    auto pool = fashionPool();
    CategorySlotMapping mapping(std::vector<svc::CategorySlotEntry>{{"Skinny Denim", "bottom"}, {"Shirts", "shirt"}});
    auto mapped = mapping.applyTo(pool);
    REQUIRE(mapped.size() == pool.size());
    auto lists = [](const SetTemplate& t, const std::string& slot, const std::string& category) {
        for (const auto& s : t.slots) {
            if (s.name == slot) return std::find(s.categories.begin(), s.categories.end(), category) != s.categories.end();
        }
        return false;
    };
    for (const auto& t : mapped) {
        CAPTURE(t.id);
        for (const auto& slot : t.slots) {
            bool hasSkinny = std::find(slot.categories.begin(), slot.categories.end(), "Skinny Denim") != slot.categories.end();
            CHECK(hasSkinny == (slot.name == "bottom"));
            if (slot.name != "shirt") CHECK_FALSE(lists(t, slot.name, "Shirts"));
        }
    }
    const auto& formalMen = *std::find_if(mapped.begin(), mapped.end(), [](const SetTemplate& t) { return t.id == "formal-men"; });
    CHECK(lists(formalMen, "shirt", "Shirts"));
    CHECK(CategorySlotMapping().applyTo(pool) == pool);  // no mapping: today's matching
}

TEST_CASE("CategorySlotMapping: the operator's JSON, refused with the field named") {
    auto pool = fashionPool();
    auto known = [](const std::string& key) { return key == "skinnyjean" || key == "sneaker"; };
    auto parse = [&](const std::string& text) { return CategorySlotMapping::fromJson(nlohmann::json::parse(text), pool, known); };
    auto good = parse(R"({"entries": [{"category": "Skinny Jeans", "slot": "bottom"}, {"category": "Sneakers", "slot": "shoes"}]})");
    REQUIRE(good.ok());
    CHECK(good->entries().size() == 2);
    CHECK(good->toJson() == nlohmann::json::parse(R"({"entries": [{"category": "Skinny Jeans", "slot": "bottom"}, {"category": "Sneakers", "slot": "shoes"}]})"));
    CHECK(parse(R"({"entries": []})").ok());

    struct Case {
        const char* body;
        const char* message;
    };
    const Case cases[] = {
        {R"([])", "body: must be an object with entries"},
        {R"({})", "entries: must be an array of {category, slot}"},
        {R"({"entries": [], "extra": 1})", "extra: unknown field (expected entries)"},
        {R"({"entries": [{"category": "Skinny Jeans", "slot": "bottoms"}]})", "entries[0].slot: no template has a slot named \"bottoms\""},
        {R"({"entries": [{"category": "Kilts", "slot": "bottom"}]})", "entries[0].category: the tenant's catalog has no category \"Kilts\""},
        {R"({"entries": [{"category": "Skinny Jeans", "slot": "bottom"}, {"category": "skinny-jeans", "slot": "top"}]})",
         "entries[1].category: \"skinny-jeans\" is mapped twice"},
        {R"({"entries": [{"category": "Skinny Jeans"}]})", "entries[0].slot: must be a non-empty string"},
        {R"({"entries": [{"category": 7, "slot": "top"}]})", "entries[0].category: must be a non-empty string"},
        {R"({"entries": [{"category": "Skinny Jeans", "slot": "top", "why": "x"}]})", "entries[0].why: unknown field (expected category, slot)"},
        {R"({"entries": ["Skinny Jeans"]})", "entries[0]: must be an object with category and slot"},
        {R"({"entries": [{"category": "<b>!</b>", "slot": "top"}]})", "entries[0].category: the tenant's catalog has no category \"<b>!</b>\""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body);
        auto parsed = parse(c.body);
        REQUIRE_FALSE(parsed.ok());
        CHECK(parsed.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(parsed.error().message == c.message);
    }
    std::string tooLong = R"({"entries": [{"category": ")" + std::string(300, 'x') + R"(", "slot": "top"}]})";
    CHECK(parse(tooLong).error().message == "entries[0].category: longer than 256 bytes or not UTF-8");
}

TEST_CASE("SET: a category no template lists gets the template's other slots once mapped (fails without the mapping)") {
    ProductContentSource source;
    auto pool = fashionPool();
    auto& products = source.products[1];
    auto add = [&](const std::string& id, const std::string& path, const std::string& department) {
        auto product = makeProduct(id + "-1", id, path, 4000, 3);
        product.properties["abteilung"] = department;
        product.color = "Blue";
        products.push_back(product);
    };
    add("DENIM", "Damen > Skinny Denim", "Women");
    add("TEE", "Damen > Oberteile > T-Shirts", "Women");
    add("SNEAKER", "Damen > Schuhe > Sneakers", "Women");
    source.templates = pool;
    RecommendationService before(source);
    auto anchorOf = [](RecommendationService& service) { return **service.findArticle(1, "DENIM"); };
    CHECK(before.clusters(anchorOf(before), 8, 4).empty());  // no template lists "Skinny Denim"

    source.templates = CategorySlotMapping(std::vector<svc::CategorySlotEntry>{{"Skinny Denim", "bottom"}}).applyTo(pool);
    RecommendationService after(source);
    auto clusters = after.clusters(anchorOf(after), 8, 4);
    std::vector<std::string> names;
    for (const auto& cluster : clusters) names.push_back(cluster.name);
    CHECK(names == std::vector<std::string>{"top", "shoes"});
}
