// Unit tests of the evaluation support code (tests/evaluation): the RFC 4180 reader and
// the fashion catalog, the generated svc feed, the ranking metrics and baselines, and
// the synthetic baskets.
//
// Most cases run on small catalogs written here. Those on the real catalog
// (../shared/data/fashion/catalog.csv) skip with a message when it is absent.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "evaluation/BasketGenerator.hpp"
#include "evaluation/FashionCatalog.hpp"
#include "evaluation/RankingMetrics.hpp"
#include "feed/CsvReader.hpp"
#include "feed/FeedParser.hpp"
#include "support/Skip.hpp"

using svc::evaluation::BasketGenerator;
using svc::evaluation::CsvRow;
using svc::evaluation::EvalRng;
using svc::evaluation::FashionCatalog;
using svc::evaluation::FashionItem;
using svc::evaluation::FeedOptions;
using svc::evaluation::GradeCounts;
using svc::evaluation::GradeIndex;
using svc::evaluation::RandomBaselines;

namespace {

const std::string kHeader = "id,gender,masterCategory,subCategory,articleType,baseColour,season,year,usage,productDisplayName\n";

// The real catalog, loaded once; null (and the reason in `whyNot`) when it is absent or
// could not be read. `absent` tells the two apart: only an absent catalog skips a test.
const FashionCatalog* realCatalog(std::string& whyNot, bool& absent) {
    static const std::string path = svc::evaluation::defaultFashionCatalogPath();
    static const bool exists = std::filesystem::exists(path);
    static std::string reason;
    static const std::optional<FashionCatalog> catalog =
        exists ? FashionCatalog::load(path, reason) : std::optional<FashionCatalog>();
    absent = !exists;
    whyNot = exists ? reason : path + " does not exist";
    return catalog ? &*catalog : nullptr;
}

#define REAL_CATALOG_OR_SKIP(name)                                                                 \
    std::string whyNotLoaded;                                                                       \
    bool catalogAbsent = false;                                                                     \
    const FashionCatalog* name = realCatalog(whyNotLoaded, catalogAbsent);                          \
    if (!name) {                                                                                    \
        if (!catalogAbsent) FAIL("the fashion catalog exists but cannot be read: " << whyNotLoaded); \
        SVC_SKIP(svc::test::SkipReason::DataOutsideTheRepository,                                     \
                 "the fashion catalog of ../shared is absent (" << whyNotLoaded << ")");             \
    }

FashionCatalog catalogFrom(const std::string& rows) {
    std::string whyNot;
    auto catalog = FashionCatalog::fromCsvText(kHeader + rows, whyNot);
    REQUIRE_MESSAGE(catalog.has_value(), whyNot);
    return std::move(*catalog);
}

// A small catalog covering every size scheme, NA and blank values, names with commas and quotes.
FashionCatalog smallCatalog() {
    struct Kind {
        const char* gender;
        const char* path;  // masterCategory,subCategory,articleType
    };
    const std::vector<Kind> kinds{
        {"Men", "Apparel,Bottomwear,Jeans"},         {"Men", "Footwear,Shoes,Casual Shoes"}, {"Women", "Apparel,Topwear,Tops"},
        {"Women", "Footwear,Shoes,Heels"},           {"Women", "Accessories,Bags,Handbags"}, {"Unisex", "Accessories,Headwear,Caps"},
        {"Girls", "Apparel,Topwear,Tops"},           {"Men", "Accessories,Belts,Belts"},     {"Men", "Apparel,Topwear,Tshirts"},
        {"Women", "Personal Care,Lips,Lipstick"}};
    const std::vector<std::string> brands{"Nike", "Puma", "Lee"};
    const std::vector<std::string> colours{"Blue", "Black", "NA"};
    std::string rows;
    for (int i = 0; i < 60; ++i) {
        const Kind& kind = kinds[static_cast<size_t>(i) % kinds.size()];
        const std::string& brand = brands[static_cast<size_t>(i / 10) % brands.size()];
        std::string name = brand + " " + kind.gender + " item " + std::to_string(i);
        if (i % 7 == 0) name = "\"" + brand + " " + kind.gender + ", \"\"special\"\" item " + std::to_string(i) + "\"";
        rows += std::to_string(1000 + i) + "," + kind.gender + "," + kind.path + "," + colours[static_cast<size_t>(i) % colours.size()] +
                "," + (i % 11 == 0 ? "" : "Summer") + "," + (i % 13 == 0 ? "" : "2012") + ",Casual," + name + "\n";
    }
    return catalogFrom(rows);
}

}  // namespace

// ---------------------------------------------------------------------------
// readCsv

TEST_CASE("readCsv: RFC 4180 records") {
    struct Case {
        const char* name;
        std::string text;
        char delimiter;
        std::vector<std::vector<std::string>> records;
        std::vector<size_t> lines;
    };
    const std::vector<Case> cases{
        {"plain", "a,b,c\n1,2,3\n", ',', {{"a", "b", "c"}, {"1", "2", "3"}}, {1, 2}},
        {"quoted comma", "\"x,y\",z\n", ',', {{"x,y", "z"}}, {1}},
        {"doubled quote", "\"say \"\"hi\"\"\",b\n", ',', {{"say \"hi\"", "b"}}, {1}},
        {"quoted line break", "\"a\nb\",c\nd,e\n", ',', {{"a\nb", "c"}, {"d", "e"}}, {1, 3}},
        {"quoted CRLF kept", "\"a\r\nb\",c\r\n", ',', {{"a\r\nb", "c"}}, {1}},
        {"CRLF line ends", "a,b\r\nc,d\r\n", ',', {{"a", "b"}, {"c", "d"}}, {1, 2}},
        {"no final line break", "a,b", ',', {{"a", "b"}}, {1}},
        {"empty fields", ",,\n", ',', {{"", "", ""}}, {1}},
        {"delimiter before the end", "a,", ',', {{"a", ""}}, {1}},
        {"empty quoted value", "\"\",x\n", ',', {{"", "x"}}, {1}},
        {"values are not trimmed", " a , b \n", ',', {{" a ", " b "}}, {1}},
        {"NA is text to the reader", "NA,b\n", ',', {{"NA", "b"}}, {1}},
        {"byte-order mark skipped", "\xEF\xBB\xBF" "a,b\n", ',', {{"a", "b"}}, {1}},
        {"empty lines skipped, counted", "a\n\r\n\nb\n", ',', {{"a"}, {"b"}}, {1, 4}},
        {"semicolons", "\"a;b\";c\n", ';', {{"a;b", "c"}}, {1}},
        {"a comma is text with semicolons", "a,b;c\n", ';', {{"a,b", "c"}}, {1}},
        {"empty text", "", ',', {}, {}},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            std::string whyNot;
            auto rows = svc::evaluation::readCsv(c.text, c.delimiter, whyNot);
            REQUIRE_MESSAGE(rows.has_value(), whyNot);
            std::vector<std::vector<std::string>> records;
            std::vector<size_t> lines;
            for (const CsvRow& row : *rows) {
                records.push_back(row.fields);
                lines.push_back(row.line);
            }
            CHECK(records == c.records);
            CHECK(lines == c.lines);
        }
    }
}

TEST_CASE("readCsv: malformed text is refused with the line") {
    struct Case {
        const char* name;
        std::string text;
        std::string whyNot;
    };
    const std::vector<Case> cases{
        {"unclosed quote", "a,b\n\"c,d\n", "line 2: field 1: quoted value is never closed"},
        {"character after a closing quote", "a,\"b\"x,c\n", "line 1: field 2: unexpected character 'x' after a closing quote"},
        {"quote in an unquoted value", "a\nab\"c,d\n", "line 2: field 1: a quote inside an unquoted value (RFC 4180 wants the value quoted)"},
        {"error after a quoted line break", "\"a\nb\"c\n", "line 2: field 1: unexpected character 'c' after a closing quote"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            std::string whyNot;
            CHECK_FALSE(svc::evaluation::readCsv(c.text, ',', whyNot).has_value());
            CHECK(whyNot == c.whyNot);
        }
    }
}

// ---------------------------------------------------------------------------
// FashionCatalog

TEST_CASE("FashionCatalog: rows with NA, blanks, surrounding spaces, quoted commas and quotes") {
    FashionCatalog catalog = catalogFrom(
        "15970,Men,Apparel,Topwear,Shirts,Navy Blue,Fall,2011,Casual,Turtle Check Men Navy Blue Shirt\n"
        "55001,Women,Personal Care,Lips,Lipstick,NA,Spring,2017,NA,\"Lakme Absolute, Lip Colour\"\n"
        "7491,Women,Apparel,Bottomwear,Shorts,Pink,,,Sports,\"Nike Women's EM Tempo 3.5\"\" Pink Short\"\n"
        "9,Unisex,Footwear,Shoes,Casual Shoes,White,Summer,2012,,NA\n"
        "10, Men ,Footwear,Shoes,Casual Shoes,White, NA ,2012,\"Casual\t\",\"CASIO ENTICER Men Black Watch \"\n");
    REQUIRE(catalog.items().size() == 5);
    struct Expected {
        std::string id, gender, articleType, colour, season, usage, name, brand;
        int year;
    };
    const std::vector<Expected> expected{
        {"15970", "Men", "Shirts", "Navy Blue", "Fall", "Casual", "Turtle Check Men Navy Blue Shirt", "Turtle", 2011},
        {"55001", "Women", "Lipstick", "", "Spring", "", "Lakme Absolute, Lip Colour", "Lakme", 2017},
        {"7491", "Women", "Shorts", "Pink", "", "Sports", "Nike Women's EM Tempo 3.5\" Pink Short", "Nike", 0},
        {"9", "Unisex", "Casual Shoes", "White", "Summer", "", "", "", 2012},
        {"10", "Men", "Casual Shoes", "White", "", "Casual", "CASIO ENTICER Men Black Watch", "CASIO", 2012},  // trimmed
    };
    for (size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        const FashionItem& item = catalog.items()[i];
        CHECK(item.id == expected[i].id);
        CHECK(item.gender == expected[i].gender);
        CHECK(item.articleType == expected[i].articleType);
        CHECK(item.baseColour == expected[i].colour);
        CHECK(item.season == expected[i].season);
        CHECK(item.usage == expected[i].usage);
        CHECK(item.productDisplayName == expected[i].name);
        CHECK(item.brand == expected[i].brand);
        CHECK(item.year == expected[i].year);
        CHECK(catalog.byMainSku("F" + expected[i].id) == &item);
    }
    CHECK(catalog.items()[0].masterCategory == "Apparel");
    CHECK(catalog.items()[0].subCategory == "Topwear");
    CHECK(FashionCatalog::categoryPath(catalog.items()[0]) == "Apparel > Topwear > Shirts");
    CHECK(catalog.byMainSku("15970") == nullptr);
    CHECK(catalog.byMainSku("F1") == nullptr);
    CHECK(catalog.byMainSku("") == nullptr);
    CHECK(catalog.all().size() == 5);
}

TEST_CASE("FashionCatalog: columns are found by name") {
    std::string whyNot;
    auto catalog = FashionCatalog::fromCsvText(
        "productDisplayName,extra,year,usage,season,baseColour,articleType,subCategory,masterCategory,gender,id\n"
        "Puma Men Black Shoes,x,2012,Sports,Fall,Black,Sports Shoes,Shoes,Footwear,Men,42\n",
        whyNot);
    REQUIRE_MESSAGE(catalog.has_value(), whyNot);
    const FashionItem* item = catalog->byMainSku("F42");
    REQUIRE(item != nullptr);
    CHECK(item->brand == "Puma");
    CHECK(item->articleType == "Sports Shoes");
    CHECK(item->gender == "Men");
    CHECK(item->year == 2012);
}

TEST_CASE("FashionCatalog: a malformed catalog is refused with the reason") {
    struct Case {
        const char* name;
        std::string text;
        std::string whyNot;
    };
    const std::vector<Case> cases{
        {"empty", "", "the catalog is empty (no header)"},
        {"missing column", "id,gender\n1,Men\n", "line 1: header: column 'masterCategory' is missing"},
        {"a name with an unquoted comma", kHeader + "1,Men,Apparel,Topwear,Shirts,Blue,Fall,2011,Casual,A, B Shirt\n",
         "line 2: expected 10 fields, found 11"},
        {"too few fields", kHeader + "1,Men,Apparel\n", "line 2: expected 10 fields, found 3"},
        {"blank id", kHeader + ",Men,Apparel,Topwear,Shirts,Blue,Fall,2011,Casual,A Shirt\n", "line 2: blank id"},
        {"duplicate id",
         kHeader + "1,Men,Apparel,Topwear,Shirts,Blue,Fall,2011,Casual,A Shirt\n1,Men,Apparel,Topwear,Shirts,Red,Fall,2011,Casual,B Shirt\n",
         "line 3: duplicate id 1"},
        {"year not a number", kHeader + "1,Men,Apparel,Topwear,Shirts,Blue,Fall,20x1,Casual,A Shirt\n", "line 2: year '20x1' is not a number"},
        {"malformed CSV", kHeader + "1,Men,Apparel,Topwear,Shirts,Blue,Fall,2011,Casual,\"A Shirt\n",
         "line 2: field 10: quoted value is never closed"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            std::string whyNot;
            CHECK_FALSE(FashionCatalog::fromCsvText(c.text, whyNot).has_value());
            CHECK(whyNot == c.whyNot);
        }
    }
}

TEST_CASE("FashionCatalog: a missing file is refused, naming it") {
    std::string whyNot;
    CHECK_FALSE(FashionCatalog::load("/nonexistent/catalog.csv", whyNot).has_value());
    CHECK(whyNot.find("/nonexistent/catalog.csv: cannot open the file") == 0);
}

TEST_CASE("FashionCatalog: the real catalog loads completely") {
    REAL_CATALOG_OR_SKIP(catalog);
    CHECK(catalog->items().size() == 44446);  // the README's count
    std::set<std::string> genders, articleTypes;
    size_t commaNames = 0;
    for (const FashionItem& item : catalog->items()) {
        genders.insert(item.gender);
        articleTypes.insert(item.articleType);
        if (item.productDisplayName.find(',') != std::string::npos) ++commaNames;
        CHECK(item.usage != "NA");
        CHECK(item.baseColour != "NA");
        CHECK(item.productDisplayName != "NA");
    }
    CHECK(genders == std::set<std::string>{"Boys", "Girls", "Men", "Unisex", "Women"});
    CHECK(articleTypes.size() == 143);
    CHECK(commaNames == 22);  // the README's quoted names with commas
    const FashionItem* item = catalog->byMainSku("F15970");
    REQUIRE(item != nullptr);
    CHECK(item->productDisplayName == "Turtle Check Men Navy Blue Shirt");
    CHECK(item->brand == "Turtle");
}

// ---------------------------------------------------------------------------
// The feed

namespace {

class CountingSink : public svc::CsvSink {
public:
    std::vector<svc::CsvRecord> records;
    size_t malformed = 0;
    void onRecord(const svc::CsvRecord& record) override { records.push_back(record); }
    void onMalformedRecord(const svc::CsvIssue&) override { ++malformed; }
};

// Checks a generated feed through svc's own CSV reader and feed parser against the catalog.
void checkFeed(const FashionCatalog& catalog, const FeedOptions& options) {
    const std::string feed = catalog.feedCsv(options);
    CHECK(feed == catalog.feedCsv(options));  // deterministic
    const size_t items = options.maxItems == 0 ? catalog.items().size() : std::min(options.maxItems, catalog.items().size());

    // The CSV layer: every record has every column, nothing malformed, every value quoted.
    CountingSink sink;
    svc::CsvReader reader(';');
    reader.feed(feed, sink);
    reader.finish(sink);
    CHECK(sink.malformed == 0);
    REQUIRE(!sink.records.empty());
    CHECK(sink.records.front().fields == FashionCatalog::feedColumns());
    size_t wrongWidth = 0;
    for (const auto& record : sink.records)
        if (record.fields.size() != FashionCatalog::feedColumns().size()) ++wrongWidth;
    CHECK(wrongWidth == 0);
    CHECK(feed.find("\n\"sku\"") == std::string::npos);
    CHECK(feed.rfind("\"sku\";\"main-sku\";", 0) == 0);
    // Every line starts and ends with a quote: all values are quoted.
    size_t unquotedLines = 0, lineStart = 0;
    while (lineStart < feed.size()) {
        size_t end = feed.find('\n', lineStart);
        if (feed[lineStart] != '"' || feed[end - 1] != '"') ++unquotedLines;
        lineStart = end + 1;
    }
    CHECK(unquotedLines == 0);

    // svc's feed parser takes every row.
    svc::FeedParser parser(svc::FeedImportOptions{});
    std::vector<svc::MappedRow> rows;
    REQUIRE(parser.parse(feed, rows).ok());
    REQUIRE(parser.finish(rows).ok());
    CHECK(rows.size() == sink.records.size() - 1);
    std::map<std::string, std::vector<const svc::Product*>> variantsByMainSku;
    size_t rowErrors = 0;
    for (const auto& row : rows) {
        if (const auto* error = std::get_if<svc::RowError>(&row.content)) {
            if (++rowErrors <= 3) MESSAGE("row error: " << error->message);
            continue;
        }
        const auto& product = std::get<svc::Product>(row.content);
        variantsByMainSku[product.mainSku].push_back(&product);
    }
    CHECK(rowErrors == 0);
    CHECK(variantsByMainSku.size() == items);

    const auto blankedList = catalog.blankedMainSkus(options);
    const std::set<std::string> blanked(blankedList.begin(), blankedList.end());
    const double expectedBlank = std::clamp(options.blankCategoryShare, 0.0, 1.0) * static_cast<double>(items);
    CHECK(std::abs(static_cast<double>(blanked.size()) - expectedBlank) <= 1.0);

    size_t mismatches = 0, blankPaths = 0;
    auto expect = [&](bool ok) {
        if (!ok) ++mismatches;
    };
    for (const auto& [mainSku, variants] : variantsByMainSku) {
        const FashionItem* item = catalog.byMainSku(mainSku);
        REQUIRE_MESSAGE(item != nullptr, mainSku);
        expect(variants.size() >= 1 && variants.size() <= 5);
        expect(std::any_of(variants.begin(), variants.end(), [](const svc::Product* p) { return p->available(); }));
        const bool isBlank = blanked.count(mainSku) > 0;
        std::set<std::string> sizes;
        for (const svc::Product* product : variants) {
            sizes.insert(product->variant);
            expect(product->sku == mainSku + "-" + product->variant);
            expect(product->model == "M" + item->id);
            expect(product->name == item->productDisplayName);
            expect(product->brand == item->brand);
            expect(product->color == item->baseColour);
            expect(product->description == item->productDisplayName);
            expect(product->deeplink == "https://fashion.example/p/" + item->id);
            expect(product->image == "https://fashion.example/img/" + item->id + ".jpg");
            expect(product->retailPrice.has_value() && *product->retailPrice > 0 && *product->retailPrice % 100 == 99);
            expect(!product->discountPrice || *product->discountPrice < *product->retailPrice);
            expect(product->retailPrice == variants.front()->retailPrice && product->discountPrice == variants.front()->discountPrice);
            if (isBlank) {
                expect(product->categoryPaths.empty());
            } else {
                expect(product->categoryPaths == std::vector<std::string>{FashionCatalog::categoryPath(*item)});
            }
            auto property = [&](const char* name) {
                auto found = product->properties.find(name);
                return found == product->properties.end() ? std::string() : found->second;
            };
            expect(property("abteilung") == item->gender);
            expect(property("stil") == item->usage);
            expect(property("saison") == item->season);
        }
        if (variants.front()->categoryPaths.empty()) ++blankPaths;
        expect(sizes.size() == variants.size());
        std::set<std::string> allowed{"OS"};
        if (item->masterCategory == "Apparel") allowed = {"S", "M", "L", "XL"};
        if (item->masterCategory == "Footwear") allowed = {"6", "7", "8", "9", "10"};
        expect(std::includes(allowed.begin(), allowed.end(), sizes.begin(), sizes.end()));
    }
    CHECK(mismatches == 0);
    CHECK(blankPaths == blanked.size());
}

}  // namespace

TEST_CASE("Fashion feed: parses, maps and blanks as asked (small catalog)") {
    const FashionCatalog catalog = smallCatalog();
    struct Case {
        const char* name;
        FeedOptions options;
    };
    const std::vector<Case> cases{
        {"defaults", {}},
        {"other seed", {7, 0.0, 0}},
        {"30% blank", {42, 0.3, 0}},
        {"all blank", {42, 1.0, 0}},
        {"share above 1 is all", {42, 1.5, 0}},
        {"first 17 items, half blank", {3, 0.5, 17}},
        {"maxItems above the size", {3, 0.1, 1000}},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) { checkFeed(catalog, c.options); }
    }
}

TEST_CASE("Fashion feed: seeds, blanking and maxItems change only what they should") {
    const FashionCatalog catalog = smallCatalog();
    CHECK(catalog.feedCsv({1, 0.0, 0}) != catalog.feedCsv({2, 0.0, 0}));
    CHECK(catalog.blankedMainSkus({1, 0.5, 0}) != catalog.blankedMainSkus({2, 0.5, 0}));
    CHECK(catalog.blankedMainSkus({1, 0.0, 0}).empty());
    // An item's invented offer does not depend on maxItems or blanking: the first rows agree.
    const std::string some = catalog.feedCsv({5, 0.0, 10});
    const std::string all = catalog.feedCsv({5, 0.0, 0});
    CHECK(all.compare(0, some.size(), some) == 0);
    const auto& item = catalog.items()[3];
    const auto offer = FashionCatalog::inventOffer(item, 5);
    const auto again = FashionCatalog::inventOffer(item, 5);
    REQUIRE(offer.variants.size() == again.variants.size());
    for (size_t i = 0; i < offer.variants.size(); ++i) {
        CHECK(offer.variants[i].sku == again.variants[i].sku);
        CHECK(offer.variants[i].stock == again.variants[i].stock);
    }
    CHECK(offer.retailPriceCents == again.retailPriceCents);
}

TEST_CASE("Fashion feed: the real catalog with 30% of the categories blank") {
    REAL_CATALOG_OR_SKIP(catalog);
    checkFeed(*catalog, {42, 0.3, 0});
    // Invented stock: some variants are out of stock, but no item entirely.
    size_t variants = 0, outOfStock = 0, discounted = 0;
    for (const FashionItem& item : catalog->items()) {
        auto offer = FashionCatalog::inventOffer(item, 42);
        variants += offer.variants.size();
        for (const auto& variant : offer.variants) outOfStock += variant.stock == 0;
        discounted += offer.discountPriceCents.has_value();
    }
    CHECK(static_cast<double>(outOfStock) / static_cast<double>(variants) == doctest::Approx(0.08).epsilon(0.3));
    CHECK(static_cast<double>(discounted) / static_cast<double>(catalog->items().size()) == doctest::Approx(0.2).epsilon(0.2));
}

// ---------------------------------------------------------------------------
// Ranking metrics (hand-built items: these always run)

namespace {

FashionItem item(std::string id, std::string gender, std::string articleType, std::string colour) {
    FashionItem made;
    made.id = std::move(id);
    made.gender = std::move(gender);
    made.articleType = std::move(articleType);
    made.baseColour = std::move(colour);
    return made;
}

}  // namespace

TEST_CASE("gradedRelevance: the README's grades, with Unisex matching any gender") {
    const FashionItem anchor = item("a", "Men", "Shirts", "Blue");
    struct Case {
        FashionItem anchor;
        FashionItem other;
        int grade;
    };
    const std::vector<Case> cases{
        {anchor, item("1", "Men", "Shirts", "Blue"), 3},
        {anchor, item("2", "Men", "Shirts", "Red"), 2},
        {anchor, item("3", "Women", "Shirts", "Blue"), 1},
        {anchor, item("4", "Men", "Tshirts", "Blue"), 0},
        {anchor, item("5", "Unisex", "Shirts", "Blue"), 3},
        {anchor, item("6", "Unisex", "Shirts", "Red"), 2},
        {anchor, item("7", "Boys", "Shirts", "Blue"), 1},
        {item("b", "Unisex", "Shirts", "Blue"), item("8", "Women", "Shirts", "Blue"), 3},
        {item("b", "Unisex", "Shirts", "Blue"), item("9", "Girls", "Shirts", "Red"), 2},
        {item("c", "Boys", "Shirts", "Blue"), item("10", "Unisex", "Shirts", "Blue"), 3},
        {item("c", "Boys", "Shirts", "Blue"), item("11", "Girls", "Shirts", "Blue"), 1},
        {item("c", "Boys", "Shirts", "Blue"), item("12", "Men", "Shirts", "Blue"), 1},
        {item("d", "Men", "Shirts", ""), item("13", "Men", "Shirts", ""), 2},  // a blank colour never matches
        {item("e", "", "Shirts", "Blue"), item("14", "", "Shirts", "Blue"), 1},  // nor does a blank gender
        {item("f", "Men", "", "Blue"), item("15", "Men", "", "Blue"), 0},        // nor a blank articleType
        {anchor, anchor, 0},                                                      // the anchor itself
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        CAPTURE(i);
        CHECK(svc::evaluation::gradedRelevance(cases[i].anchor, cases[i].other) == cases[i].grade);
    }
}

TEST_CASE("nDCG: ideal, zero, hand-computed and degenerate lists") {
    using svc::evaluation::ndcgAt;
    const FashionItem anchor = item("a", "Men", "Shirts", "Blue");
    const FashionItem g3 = item("3", "Men", "Shirts", "Blue");
    const FashionItem g3b = item("3b", "Unisex", "Shirts", "Blue");
    const FashionItem g2 = item("2", "Men", "Shirts", "White");
    const FashionItem g1 = item("1", "Women", "Shirts", "Blue");
    const FashionItem g0 = item("0", "Men", "Jeans", "Blue");
    const FashionItem g0b = item("0b", "Women", "Tops", "Red");
    const std::vector<const FashionItem*> eligible{&g0, &g1, &g2, &g3, &g0b, &g3b, &anchor};

    struct Case {
        const char* name;
        size_t k;
        std::vector<const FashionItem*> recommended;
        double ndcg;
    };
    const double log2of3 = std::log2(3.0);
    const std::vector<Case> cases{
        {"ideal order", 12, {&g3, &g3b, &g2, &g1}, 1.0},
        {"ideal with zeros after", 12, {&g3b, &g3, &g2, &g1, &g0, &g0b}, 1.0},
        {"ideal at k = 2", 2, {&g3, &g3b, &g0}, 1.0},
        {"all zero", 12, {&g0, &g0b}, 0.0},
        {"empty", 12, {}, 0.0},
        // DCG = 3/log2(2) + 0/log2(3) + 7/log2(4) = 6.5; ideal@3 = 7/1 + 7/log2(3) + 3/2.
        {"hand-computed", 3, {&g2, &g0, &g3}, 6.5 / (7.0 + 7.0 / log2of3 + 1.5)},
        // DCG = 1/log2(2) + 3/log2(3); ideal@2 = 7 + 7/log2(3).
        {"hand-computed at k = 2", 2, {&g1, &g2, &g3}, (1.0 + 3.0 / log2of3) / (7.0 + 7.0 / log2of3)},
        // The anchor and a repeat gain nothing: DCG = 7 + 0 + 0 + 3/log2(5).
        {"anchor and repeats count 0", 4, {&g3, &anchor, &g3, &g2}, (7.0 + 3.0 / std::log2(5.0)) / (7.0 + 7.0 / log2of3 + 1.5 + 1.0 / std::log2(5.0))},
        {"null entries count 0", 2, {nullptr, &g3}, (7.0 / log2of3) / (7.0 + 7.0 / log2of3)},
    };
    const GradeIndex index(eligible);
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            CHECK(ndcgAt(c.k, anchor, c.recommended, eligible) == doctest::Approx(c.ndcg).epsilon(1e-12));
            CHECK(ndcgAt(c.k, anchor, c.recommended, index) == doctest::Approx(c.ndcg).epsilon(1e-12));
        }
    }
    SUBCASE("nothing relevant exists: 0") {
        const FashionItem lonely = item("z", "Men", "Ties", "Blue");
        CHECK(ndcgAt(12, lonely, {&g0, &g3}, eligible) == 0.0);
        CHECK(ndcgAt(12, lonely, {&g0, &g3}, index) == 0.0);
    }
    SUBCASE("grade counts skip the anchor") {
        CHECK(svc::evaluation::countGrades(anchor, eligible) == GradeCounts{2, 1, 1, 2});
        CHECK(index.counts(anchor) == GradeCounts{2, 1, 1, 2});
        CHECK(svc::evaluation::idealDcgAt(12, GradeCounts{2, 1, 1, 2}) ==
              doctest::Approx(7.0 + 7.0 / log2of3 + 3.0 / 2.0 + 1.0 / std::log2(5.0)));
        CHECK(svc::evaluation::idealDcgAt(0, GradeCounts{2, 1, 1, 2}) == 0.0);
    }
}

TEST_CASE("GradeIndex agrees with countGrades") {
    const FashionCatalog small = smallCatalog();
    const auto eligible = small.all();
    const GradeIndex index(eligible);
    for (const FashionItem& anchor : small.items()) {
        CAPTURE(anchor.id);
        CHECK(index.counts(anchor) == svc::evaluation::countGrades(anchor, eligible));
    }
    // An anchor from outside the eligible list.
    const FashionItem outsider = item("x", "Unisex", "Tops", "Blue");
    CHECK(index.counts(outsider) == svc::evaluation::countGrades(outsider, eligible));

    REAL_CATALOG_OR_SKIP(catalog);
    const auto all = catalog->all();
    const GradeIndex realIndex(all);
    for (const FashionItem* anchor : svc::evaluation::sampleAnchors(*catalog, 200, 9)) {
        CAPTURE(anchor->id);
        CHECK(realIndex.counts(*anchor) == svc::evaluation::countGrades(*anchor, all));
    }
}

TEST_CASE("HitRate@k") {
    using svc::evaluation::hitAt;
    using svc::evaluation::hitRateAt;
    const std::vector<std::string> list{"F1", "F2", "F3"};
    CHECK(hitAt(3, list, "F3"));
    CHECK_FALSE(hitAt(2, list, "F3"));
    CHECK(hitAt(10, list, "F1"));
    CHECK_FALSE(hitAt(10, list, "F4"));
    CHECK_FALSE(hitAt(0, list, "F1"));
    CHECK(hitRateAt(2, {list, list, {}, {"F9"}}, {"F2", "F3", "F1", "F9"}) == doctest::Approx(0.5));
    CHECK(hitRateAt(10, {}, {}) == 0.0);
}

// ---------------------------------------------------------------------------
// Anchor samples and baselines

namespace {

std::vector<std::string> ids(const std::vector<const FashionItem*>& items) {
    std::vector<std::string> out;
    for (const FashionItem* item : items) out.push_back(item->id);
    return out;
}

void checkSamplesAndBaselines(const FashionCatalog& catalog) {
    using svc::evaluation::sampleAnchors;
    const auto isApparel = [](const FashionItem& item) { return item.masterCategory == "Apparel"; };
    const auto sample = sampleAnchors(catalog, 25, 42, isApparel);
    CHECK(ids(sample) == ids(sampleAnchors(catalog, 25, 42, isApparel)));
    CHECK(ids(sample) != ids(sampleAnchors(catalog, 25, 43, isApparel)));
    const auto sampleIds = ids(sample);
    CHECK(std::set<std::string>(sampleIds.begin(), sampleIds.end()).size() == sample.size());
    CHECK(std::all_of(sample.begin(), sample.end(), [&](const FashionItem* item) { return isApparel(*item); }));
    const size_t apparel = static_cast<size_t>(std::count_if(catalog.items().begin(), catalog.items().end(), isApparel));
    CHECK(sample.size() == std::min<size_t>(25, apparel));
    CHECK(sampleAnchors(catalog, catalog.items().size() + 5, 1).size() == catalog.items().size());

    const RandomBaselines baselines(catalog);
    for (const FashionItem* anchor : sample) {
        EvalRng a(7), b(7), c(8);
        const auto leaf = baselines.randomSameLeaf(*anchor, 12, a);
        CHECK(ids(leaf) == ids(baselines.randomSameLeaf(*anchor, 12, b)));
        CHECK(leaf.size() == std::min<size_t>(12, baselines.sameLeafCount(*anchor)));
        std::set<std::string> distinct;
        for (const FashionItem* item : leaf) {
            CHECK(item->articleType == anchor->articleType);
            CHECK(item->id != anchor->id);
            distinct.insert(item->id);
        }
        CHECK(distinct.size() == leaf.size());
        if (baselines.sameLeafCount(*anchor) > 20) CHECK(ids(leaf) != ids(baselines.randomSameLeaf(*anchor, 12, c)));

        EvalRng d(9), e(9);
        const auto overall = baselines.randomOverall(12, d, anchor);
        CHECK(ids(overall) == ids(baselines.randomOverall(12, e, anchor)));
        CHECK(overall.size() == std::min<size_t>(12, catalog.items().size() - 1));
        CHECK(std::none_of(overall.begin(), overall.end(), [&](const FashionItem* item) { return item->id == anchor->id; }));
    }
}

}  // namespace

TEST_CASE("Anchor samples and random baselines are deterministic per seed (small catalog)") {
    checkSamplesAndBaselines(smallCatalog());
}

TEST_CASE("Anchor samples and random baselines are deterministic per seed (real catalog)") {
    REAL_CATALOG_OR_SKIP(catalog);
    checkSamplesAndBaselines(*catalog);
    // The baselines land where they should: same leaf well above overall, both far below 1.
    const RandomBaselines baselines(*catalog);
    const auto eligible = catalog->all();
    const GradeIndex index(eligible);
    const auto anchors = svc::evaluation::sampleAnchors(*catalog, 500, 42, [&](const FashionItem& item) { return baselines.sameLeafCount(item) > 0; });
    REQUIRE(anchors.size() == 500);
    EvalRng rng(42);
    double leaf = 0, overall = 0;
    for (const FashionItem* anchor : anchors) {
        leaf += svc::evaluation::ndcgAt(12, *anchor, baselines.randomSameLeaf(*anchor, 12, rng), index);
        overall += svc::evaluation::ndcgAt(12, *anchor, baselines.randomOverall(12, rng, anchor), index);
    }
    leaf /= 500.0;
    overall /= 500.0;
    MESSAGE("random baselines, nDCG@12 over 500 anchors (seed 42): same leaf " << leaf << ", overall " << overall);
    CHECK(leaf > 0.3);
    CHECK(leaf < 0.6);
    CHECK(overall < 0.05);
}

// ---------------------------------------------------------------------------
// Baskets

namespace {

// Checks every basket against the hidden structure; returns the share of complements of
// the anchor's brand among those where the catalog offered one.
double checkBaskets(const FashionCatalog& catalog, const std::vector<std::vector<std::string>>& baskets) {
    using svc::evaluation::gendersMatch;
    // (articleType, anchor gender, brand) triples the catalog can serve.
    std::set<std::string> brandOffers;
    std::set<std::string> genders;
    for (const FashionItem& item : catalog.items()) genders.insert(item.gender);
    for (const FashionItem& item : catalog.items())
        for (const std::string& gender : genders)
            if (gendersMatch(gender, item.gender)) brandOffers.insert(item.articleType + "\n" + gender + "\n" + item.brand);

    size_t violations = 0, brandPossible = 0, brandTaken = 0;
    for (const auto& basket : baskets) {
        if (basket.size() < 2 || basket.size() > 4) ++violations;
        const FashionItem* anchor = catalog.byMainSku(basket.front());
        REQUIRE(anchor != nullptr);
        std::set<std::string> types{anchor->articleType};
        for (size_t i = 1; i < basket.size(); ++i) {
            const FashionItem* complement = catalog.byMainSku(basket[i]);
            REQUIRE(complement != nullptr);
            if (!BasketGenerator::isComplement(anchor->articleType, complement->articleType)) ++violations;
            if (!gendersMatch(anchor->gender, complement->gender)) ++violations;
            if (!types.insert(complement->articleType).second) ++violations;  // distinct types, never the anchor's
            if (!anchor->brand.empty() && brandOffers.count(complement->articleType + "\n" + anchor->gender + "\n" + anchor->brand)) {
                ++brandPossible;
                if (complement->brand == anchor->brand) ++brandTaken;
            }
        }
    }
    CHECK(violations == 0);
    return brandPossible == 0 ? 0.0 : static_cast<double>(brandTaken) / static_cast<double>(brandPossible);
}

void checkHoldout(const std::vector<std::vector<std::string>>& baskets) {
    const auto split = BasketGenerator::splitHoldout(baskets, 5);
    REQUIRE(split.size() == baskets.size());
    size_t violations = 0;
    for (size_t i = 0; i < baskets.size(); ++i) {
        const auto& held = split[i];
        if (held.remainder.size() + 1 != baskets[i].size()) ++violations;
        if (held.remainder.front() != baskets[i].front()) ++violations;  // the anchor stays
        if (held.heldOut == baskets[i].front()) ++violations;
        std::vector<std::string> whole = held.remainder;
        whole.push_back(held.heldOut);
        std::vector<std::string> original = baskets[i];
        std::sort(whole.begin(), whole.end());
        std::sort(original.begin(), original.end());
        if (whole != original) ++violations;
    }
    CHECK(violations == 0);
    const auto again = BasketGenerator::splitHoldout(baskets, 5);
    bool same = true;
    for (size_t i = 0; i < split.size(); ++i) same = same && split[i].heldOut == again[i].heldOut && split[i].remainder == again[i].remainder;
    CHECK(same);
}

}  // namespace

TEST_CASE("Baskets: the hidden table") {
    const auto& table = BasketGenerator::complementTable();
    CHECK(table.size() == 35);
    std::set<std::pair<std::string_view, std::string_view>> pairs;
    for (const auto& pair : table) {
        CHECK(pair.anchorType != pair.complementType);
        pairs.insert({pair.anchorType, pair.complementType});
    }
    CHECK(pairs.size() == table.size());
    CHECK(BasketGenerator::isComplement("Jeans", "Belts"));
    CHECK_FALSE(BasketGenerator::isComplement("Belts", "Jeans"));  // directed
}

TEST_CASE("Baskets: structure, determinism and holdout (small catalog)") {
    const FashionCatalog catalog = smallCatalog();
    const BasketGenerator generator(catalog);
    CHECK(generator.anchorCount() > 0);
    const auto baskets = generator.generate(400, 1);
    REQUIRE(baskets.size() == 400);
    CHECK(baskets == generator.generate(400, 1));
    CHECK(baskets != generator.generate(400, 2));
    checkBaskets(catalog, baskets);
    checkHoldout(baskets);
    // A catalog without anchor types yields no baskets.
    const FashionCatalog socks = catalogFrom("1,Men,Accessories,Socks,Socks,Black,Fall,2011,Casual,Puma Socks\n");
    CHECK(BasketGenerator(socks).generate(10, 1).empty());
}

TEST_CASE("Baskets: structure, brand preference and popularity skew (real catalog)") {
    REAL_CATALOG_OR_SKIP(catalog);
    const BasketGenerator generator(*catalog);
    const auto baskets = generator.generate(20000, 1);
    REQUIRE(baskets.size() == 20000);
    CHECK(baskets == generator.generate(20000, 1));
    CHECK(baskets != BasketGenerator(*catalog, 99).generate(20000, 1));  // another hidden popularity
    const double sameBrand = checkBaskets(*catalog, baskets);
    // 0.6 by design, plus the popularity draws that happen to hit the brand.
    CHECK(sameBrand >= 0.58);
    CHECK(sameBrand <= 0.75);
    checkHoldout(baskets);

    std::map<size_t, size_t> sizes;
    std::map<std::string, size_t> draws;
    size_t complements = 0;
    for (const auto& basket : baskets) {
        ++sizes[basket.size()];
        for (size_t i = 1; i < basket.size(); ++i, ++complements) ++draws[basket[i]];
    }
    CHECK(sizes.size() == 3);  // 2, 3 and 4 items
    // Popularity skew: the 100 most drawn complements take a large share (uniform draws over
    // thousands of items per type would give them about 2%).
    std::vector<size_t> counts;
    for (const auto& [sku, count] : draws) counts.push_back(count);
    std::sort(counts.rbegin(), counts.rend());
    size_t top = 0;
    for (size_t i = 0; i < std::min<size_t>(100, counts.size()); ++i) top += counts[i];
    CHECK(static_cast<double>(top) / static_cast<double>(complements) > 0.2);
}
