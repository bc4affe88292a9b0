// Unit tests of feed/FeedRowMapper: header checks and the mapping of one record to a Product.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "feed/FeedColumns.hpp"
#include "feed/FeedRowMapper.hpp"

using svc::FeedField;
using svc::FeedRowMapper;
using svc::Product;
using svc::RowError;
using svc::RowErrorKind;

namespace {

using Row = std::vector<std::string>;

FeedRowMapper mapperFor(const Row& header, const std::string& identifier = "sku") {
    auto mapper = FeedRowMapper::fromHeader(header, identifier);
    REQUIRE_MESSAGE(mapper.ok(), (mapper.ok() ? std::string() : mapper.error().message));
    return std::move(mapper).value();
}

Product mapOk(const FeedRowMapper& mapper, const Row& fields, size_t line = 2) {
    auto mapped = mapper.map(fields, line);
    if (auto* error = std::get_if<RowError>(&mapped)) FAIL("unexpected row error: " << error->message);
    return std::get<Product>(mapped);
}

}  // namespace

TEST_CASE("FeedRowMapper::fromHeader refuses unusable headers with a message naming the column") {
    struct HeaderCase {
        Row header;
        std::string identifier;
        std::string message;
    };
    const std::vector<HeaderCase> cases{
        {{"name", "stock"}, "sku", "header: identifier column 'sku' is missing"},
        {{"sku", "name"}, "product_id", "header: identifier column 'product_id' is missing"},
        {{"sku", "name"}, " Product_ID ", "header: identifier column 'product_id' is missing"},
        {{"sku", "name"}, "", "identifier: must name a column"},
        {{"sku", "name"}, "   ", "identifier: must name a column"},
        {{"sku", "name", "Name"}, "sku", "header column 3: column 'name' appears twice"},
        {{"SKU", " sku "}, "sku", "header column 2: column 'sku' appears twice"},
        {{"sku", "", "name"}, "sku", "header column 2: empty column name"},
        {{"sku", "name", "  "}, "sku", "header column 3: empty column name"},
        {{"sku", "na\xFFme"}, "sku", "header column 2: invalid UTF-8"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        auto mapper = FeedRowMapper::fromHeader(c.header, c.identifier);
        REQUIRE_FALSE(mapper.ok());
        CHECK(mapper.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(mapper.error().message == c.message);
    }
}

TEST_CASE("FeedRowMapper: header names are matched case-insensitively and trimmed") {
    auto mapper = mapperFor({" SKU ", "Name", "STOCK", "Retail-Price"});
    CHECK(mapper.columnCount() == 4);
    CHECK(mapper.presentFields() == std::set<FeedField>{FeedField::Sku, FeedField::Name, FeedField::Stock, FeedField::RetailPrice});
    Product product = mapOk(mapper, {"A-1", "Jeans", "3", "4999"});
    CHECK(product.sku == "A-1");
    CHECK(product.name == "Jeans");
    CHECK(product.stock == 3);
    CHECK(product.retailPrice == std::optional<int64_t>(4999));
}

TEST_CASE("FeedRowMapper: an identifier column other than sku is the record key") {
    auto mapper = mapperFor({"product_id", "sku", "name"}, "product_id");
    // "sku" is then an ordinary column, kept as a property.
    CHECK(mapper.presentFields() == std::set<FeedField>{FeedField::Sku, FeedField::Name});
    CHECK(mapper.hasPropertyColumns());
    Product product = mapOk(mapper, {"P-9", "legacy-sku", "Shirt"});
    CHECK(product.sku == "P-9");
    CHECK(product.mainSku == "P-9");
    CHECK(product.name == "Shirt");
    CHECK(product.properties == std::map<std::string, std::string>{{"sku", "legacy-sku"}});
}

TEST_CASE("FeedRowMapper::map rejects bad rows with kind, line, column and message") {
    const Row header{"sku", "name", "retail-price", "discount-price", "stock"};
    auto mapper = mapperFor(header);
    struct RowCase {
        Row fields;
        RowErrorKind kind;
        size_t column;
        std::string message;
    };
    const std::vector<RowCase> cases{
        {{"A", "N", "100"}, RowErrorKind::TooFewFields, 3, "expected 5 fields, found 3"},
        {{"A"}, RowErrorKind::TooFewFields, 1, "expected 5 fields, found 1"},
        {{"A", "N", "1", "1", "1", "extra"}, RowErrorKind::TooManyFields, 6, "expected 5 fields, found 6"},
        {{"A", "N", "12,99", "", "1"}, RowErrorKind::InvalidInteger, 3, "retail-price: '12,99' is not a non-negative integer number of cents"},
        {{"A", "N", "12.99", "", "1"}, RowErrorKind::InvalidInteger, 3, "retail-price: '12.99' is not a non-negative integer number of cents"},
        {{"A", "N", "", "-5", "1"}, RowErrorKind::InvalidInteger, 4, "discount-price: '-5' is not a non-negative integer number of cents"},
        {{"A", "N", "", "1e3", "1"}, RowErrorKind::InvalidInteger, 4, "discount-price: '1e3' is not a non-negative integer number of cents"},
        {{"A", "N", "", "", "yes"}, RowErrorKind::InvalidInteger, 5, "stock: 'yes' is not a non-negative integer"},
        {{"A", "N", "", "", "-1"}, RowErrorKind::InvalidInteger, 5, "stock: '-1' is not a non-negative integer"},
        {{"A", "N", "", "", "99999999999999999999"}, RowErrorKind::InvalidInteger, 5,
         "stock: '99999999999999999999' is not a non-negative integer"},
        {{"A", "\xC3", "", "", "1"}, RowErrorKind::InvalidUtf8, 2, "name: invalid UTF-8 at byte 1"},
        {{"A", "ab\xC3\x28", "", "", "1"}, RowErrorKind::InvalidUtf8, 2, "name: invalid UTF-8 at byte 3"},
        {{"A", "ok", "", "\xED\xA0\x80", "1"}, RowErrorKind::InvalidUtf8, 4, "discount-price: invalid UTF-8 at byte 1"},
        {{"", "N", "", "", "1"}, RowErrorKind::MissingIdentifier, 1, "sku: identifier is empty"},
        {{"  ", "N", "", "", "1"}, RowErrorKind::MissingIdentifier, 1, "sku: identifier is empty"},
        // The first bad column wins.
        {{"A", "N", "x", "y", "z"}, RowErrorKind::InvalidInteger, 3, "retail-price: 'x' is not a non-negative integer number of cents"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        auto mapped = mapper.map(c.fields, 7);
        REQUIRE(std::holds_alternative<RowError>(mapped));
        const auto& error = std::get<RowError>(mapped);
        CHECK(error.kind == c.kind);
        CHECK(error.line == 7);
        CHECK(error.column == c.column);
        CHECK(error.message == c.message);
    }
}

TEST_CASE("FeedRowMapper: an empty identifier names the identifier column wherever it is") {
    auto mapper = mapperFor({"name", "stock", "Product_ID"}, "product_id");
    auto mapped = mapper.map({"Shirt", "1", ""}, 12);
    REQUIRE(std::holds_alternative<RowError>(mapped));
    const auto& error = std::get<RowError>(mapped);
    CHECK(error.kind == RowErrorKind::MissingIdentifier);
    CHECK(error.line == 12);
    CHECK(error.column == 3);
    CHECK(error.message == "product_id: identifier is empty");
}

TEST_CASE("FeedRowMapper: numbers and prices") {
    auto mapper = mapperFor({"sku", "stock", "retail-price", "discount-price", "lowest-price-30d"});
    SUBCASE("values are trimmed and parsed") {
        Product product = mapOk(mapper, {"A", " 12 ", " 5999", "4999 ", "0"});
        CHECK(product.stock == 12);
        CHECK(product.retailPrice == std::optional<int64_t>(5999));
        CHECK(product.discountPrice == std::optional<int64_t>(4999));
        CHECK(product.lowestPrice30d == std::optional<int64_t>(0));
        CHECK(product.sellingPrice() == std::optional<int64_t>(4999));
        CHECK(product.available());
    }
    SUBCASE("an empty price means no such price, an empty stock means 0") {
        Product product = mapOk(mapper, {"A", "", "", "  ", ""});
        CHECK(product.stock == 0);
        CHECK_FALSE(product.retailPrice.has_value());
        CHECK_FALSE(product.discountPrice.has_value());
        CHECK_FALSE(product.lowestPrice30d.has_value());
        CHECK_FALSE(product.available());
    }
}

TEST_CASE("FeedRowMapper: text fields, category paths and properties") {
    auto mapper = mapperFor({"sku", "main-sku", "model", "variant", "name", "deeplink", "image", "thumbnail",
                             "category-path", "brand", "color", "description", "Material", "Pflege"});
    CHECK(mapper.hasPropertyColumns());
    Product product = mapOk(mapper, {" S-1 ", "M-1", "Mod", "XL", " Jeans ", "https://x/p", "https://x/i.jpg", "https://x/t.jpg",
                                     "Women > Jeans, Men > Jeans ,, Sale ,", "Acme", "Blue", "  <b>Soft</b> ", " Cotton ", ""});
    CHECK(product.sku == "S-1");
    CHECK(product.mainSku == "M-1");
    CHECK(product.model == "Mod");
    CHECK(product.variant == "XL");
    CHECK(product.name == "Jeans");
    CHECK(product.deeplink == "https://x/p");
    CHECK(product.image == "https://x/i.jpg");
    CHECK(product.thumbnail == "https://x/t.jpg");
    CHECK(product.categoryPaths == std::vector<std::string>{"Women > Jeans", "Men > Jeans", "Sale"});
    CHECK(product.primaryCategory() == "Women > Jeans");
    CHECK(product.brand == "Acme");
    CHECK(product.color == "Blue");
    CHECK(product.description == "  <b>Soft</b> ");  // kept verbatim
    // Unknown columns become properties under their lower-case name; empty values are left out.
    CHECK(product.properties == std::map<std::string, std::string>{{"material", " Cotton "}});
}

TEST_CASE("FeedRowMapper: German column names map to the same fields as the English ones") {
    auto mapper = mapperFor({"sku", "marke", "farbe", "kategorie1", "beschreibung"});
    // No property columns of their own; each stands for a stored property of its name (a feed with both names left one).
    CHECK(mapper.shape().propertyColumns == std::vector<std::string>{"beschreibung", "farbe", "kategorie1", "marke"});
    Product product = mapOk(mapper, {"A", "Acme", "Rot", "Damen > Kleider", "Schön"});
    CHECK(product.brand == "Acme");
    CHECK(product.color == "Rot");
    CHECK(product.categoryPaths == std::vector<std::string>{"Damen > Kleider"});
    CHECK(product.description == "Schön");
    CHECK(product.properties.empty());
}

TEST_CASE("FeedRowMapper: a partial feed reports exactly the fields it has") {
    auto mapper = mapperFor({"sku", "stock", "discount-price"});
    CHECK(mapper.presentFields() == std::set<FeedField>{FeedField::Sku, FeedField::Stock, FeedField::DiscountPrice});
    CHECK_FALSE(mapper.hasPropertyColumns());
    CHECK(mapper.columnCount() == 3);
}

TEST_CASE("FeedRowMapper: main-sku defaults to the sku") {
    SUBCASE("without a main-sku column") {
        auto mapper = mapperFor({"sku", "name"});
        CHECK(mapOk(mapper, {"S-1", "x"}).mainSku == "S-1");
    }
    SUBCASE("with an empty main-sku value") {
        auto mapper = mapperFor({"sku", "main-sku"});
        CHECK(mapOk(mapper, {"S-1", ""}).mainSku == "S-1");
        CHECK(mapOk(mapper, {"S-2", "  "}).mainSku == "S-2");
        CHECK(mapOk(mapper, {"S-3", "M-3"}).mainSku == "M-3");
    }
}

TEST_CASE("FeedRowMapper::mapInto on a product reused from earlier rows gives exactly what map gives") {
    // Rows that differ in every way a reused product could leak: set then empty fields,
    // prices present then absent, more then fewer category paths, properties added,
    // emptied and renamed, and errors in between (which leave the product half-filled).
    Row header = {"sku", "main-sku", "stock", "name", "retail-price", "discount-price", "category-path", "material", "color", "zeta", "alpha"};
    Row headerB = {"sku", "name", "beta", "material"};
    struct Case {
        const Row* header;
        Row fields;
    };
    const std::vector<Case> rows = {
        {&header, {"A-1", "A", "3", "Jeans", "4999", "3999", "Women > Jeans, Sale > Jeans, New", "Denim", "Blue", "z", "a"}},
        {&header, {"B-1", "", "", "", "", "", "Men", "", "", "", ""}},
        {&header, {"C-1", "C", "1", "Shirt", "x12", "", "", "", "", "", ""}},  // error after some fields were set
        {&header, {"D-1", "D", "7", "Coat", "", "12000", "Women > Coats, Winter", "Wool", "", "zz", ""}},
        {&header, {"", "E", "1", "No identifier", "", "", "", "Silk", "Red", "", "a"}},
        {&header, {"F-1", "F", "2", "Dress", "8999", "", "", "", "Green", "", "aa"}},
        {&header, {"G-1", "G", "0", "Last name", "", "", "", "", "", "z", ""}},
        {&headerB, {"H-1", "Belt", "b", "Leather"}},  // another feed's columns: "zeta" must go
        {&header, {"I-1", "I", "4", "Scarf", "1999", "1999", "Accessories > Scarves", "Cotton", "Grey", "z2", "a2"}},
        {&header, {"J-1", "J", "0", "Short row"}},
        {&header, {"K-1", "K", "1", "After a short row", "", "", "", "", "", "", ""}},
    };
    FeedRowMapper mapper = mapperFor(header);
    FeedRowMapper mapperB = mapperFor(headerB);
    Product reused;
    for (size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(i);
        const FeedRowMapper& rowMapper = rows[i].header == &header ? mapper : mapperB;
        auto fresh = rowMapper.map(rows[i].fields, i + 2);
        auto error = rowMapper.mapInto(rows[i].fields, i + 2, reused);
        REQUIRE(error.has_value() == std::holds_alternative<RowError>(fresh));
        if (error) {
            CHECK(error->kind == std::get<RowError>(fresh).kind);
            CHECK(error->message == std::get<RowError>(fresh).message);
        } else {
            CHECK(reused == std::get<Product>(fresh));
        }
    }
    // The first row really filled what later rows must clear.
    auto first = mapOk(mapper, rows[0].fields);
    CHECK(first.categoryPaths.size() == 3);
    CHECK(first.properties.size() == 3);  // material, zeta, alpha ("color" is a field)
    CHECK(first.color == "Blue");
    CHECK(first.retailPrice == 4999);
}

TEST_CASE("FeedColumns: aliases, canonical names and price fields") {
    struct AliasCase {
        const char* column;
        std::optional<FeedField> field;
    };
    const std::vector<AliasCase> cases{
        {"sku", FeedField::Sku},          {"MAIN-SKU", FeedField::MainSku},   {" model ", FeedField::Model},
        {"stock", FeedField::Stock},      {"variant", FeedField::Variant},    {"name", FeedField::Name},
        {"retail-price", FeedField::RetailPrice}, {"discount-price", FeedField::DiscountPrice},
        {"deeplink", FeedField::Deeplink}, {"image", FeedField::Image},       {"thumbnail", FeedField::Thumbnail},
        {"category-path", FeedField::CategoryPaths}, {"Kategorie1", FeedField::CategoryPaths},
        {"marke", FeedField::Brand},      {"brand", FeedField::Brand},        {"farbe", FeedField::Color},
        {"color", FeedField::Color},      {"beschreibung", FeedField::Description}, {"description", FeedField::Description},
        {"lowest-price-30d", FeedField::LowestPrice30d}, {"colour", std::nullopt}, {"price", std::nullopt}, {"", std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.column);
        CHECK(svc::feedFieldForColumn(c.column) == c.field);
    }
    CHECK(svc::feedFieldName(FeedField::Brand) == "marke");
    CHECK(svc::feedFieldName(FeedField::CategoryPaths) == "category-path");
    CHECK(svc::feedFieldName(FeedField::LowestPrice30d) == "lowest-price-30d");
    CHECK(svc::isPriceField(FeedField::RetailPrice));
    CHECK(svc::isPriceField(FeedField::DiscountPrice));
    CHECK(svc::isPriceField(FeedField::LowestPrice30d));
    CHECK_FALSE(svc::isPriceField(FeedField::Stock));
}

TEST_CASE("RowError: kind names are stable snake_case") {
    struct NameCase {
        RowErrorKind kind;
        const char* name;
    };
    const std::vector<NameCase> cases{
        {RowErrorKind::TooFewFields, "too_few_fields"},       {RowErrorKind::TooManyFields, "too_many_fields"},
        {RowErrorKind::UnterminatedQuote, "unterminated_quote"}, {RowErrorKind::MalformedQuote, "malformed_quote"},
        {RowErrorKind::InvalidUtf8, "invalid_utf8"},         {RowErrorKind::InvalidInteger, "invalid_integer"},
        {RowErrorKind::MissingIdentifier, "missing_identifier"}, {RowErrorKind::DuplicateIdentifier, "duplicate_identifier"},
        {RowErrorKind::InvalidProduct, "invalid_product"},   {RowErrorKind::FieldTooLong, "field_too_long"},
        {RowErrorKind::RowTooLong, "row_too_long"},
    };
    for (const auto& c : cases) CHECK(svc::rowErrorKindName(c.kind) == c.name);
}

TEST_CASE("FeedRowMapper: both names of a field: the base-data name sets the field, the content-pool name is a property") {
    struct PairCase {
        Row header;
        Row fields;
        std::string warning;
        std::map<std::string, std::string> properties;
    };
    const std::vector<PairCase> cases{
        {{"sku", "name", "marke", "brand"}, {"A", "N", "Marke", "Brand"},
         "columns 'marke' and 'brand' both name the brand: 'brand' sets it, 'marke' is kept as a property (the content pool reads it)",
         {{"marke", "Marke"}}},
        {{"sku", "name", "color", "Farbe"}, {"A", "N", "Navy", "Dunkelblau"},
         "columns 'color' and 'farbe' both name the colour: 'color' sets it, 'farbe' is kept as a property (the content pool reads it)",
         {{"farbe", "Dunkelblau"}}},
        {{"sku", "name", "category-path", "kategorie1"}, {"A", "N", "Women > Jeans, Sale", "Hosen > Jeans"},
         "columns 'category-path' and 'kategorie1' both name the category paths: 'category-path' sets it, 'kategorie1' is kept as a "
         "property (the content pool reads it)",
         {{"kategorie1", "Hosen > Jeans"}}},
        {{"sku", "beschreibung", "name", "description"}, {"A", "<p>Lang</p>", "N", "Long"},
         "columns 'beschreibung' and 'description' both name the description: 'description' sets it, 'beschreibung' is kept as a "
         "property (the content pool reads it)",
         {{"beschreibung", "<p>Lang</p>"}}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.warning);
        auto mapper = mapperFor(c.header);
        CHECK(mapper.warnings() == std::vector<std::string>{c.warning});
        Product product = mapOk(mapper, c.fields);
        CHECK(product.properties == c.properties);
        CHECK(product.brand == (c.properties.count("marke") ? "Brand" : ""));
        CHECK(product.color == (c.properties.count("farbe") ? "Navy" : ""));
        CHECK(product.description == (c.properties.count("beschreibung") ? "Long" : ""));
        if (c.properties.count("kategorie1")) CHECK(product.categoryPaths == std::vector<std::string>{"Women > Jeans", "Sale"});
    }
}

TEST_CASE("FeedRowMapper: a content-pool name alone sets its field and clears the property of that name") {
    auto mapper = mapperFor({"sku", "kategorie1", "stock"});
    CHECK(mapper.warnings().empty());
    CHECK(mapper.presentFields() == std::set<FeedField>{FeedField::Sku, FeedField::CategoryPaths, FeedField::Stock});
    // A stored kategorie1 property (from a feed with both names) is this feed's column too.
    CHECK(mapper.shape().propertyColumns == std::vector<std::string>{"kategorie1"});
    Product product = mapOk(mapper, {"A", "Hosen > Jeans", "1"});
    CHECK(product.categoryPaths == std::vector<std::string>{"Hosen > Jeans"});
    CHECK(product.properties.empty());
}
