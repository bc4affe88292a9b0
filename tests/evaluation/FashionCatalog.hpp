#pragma once
// Evaluation support: the real fashion catalog (../shared/data/fashion/catalog.csv,
// see its README) read into memory, and an svc product feed generated from it.
//
// The catalog has one row per product and no sizes, prices, stock or descriptions.
// The feed therefore INVENTS variants (sizes), prices and stock from a seeded random
// generator; they carry no information about the products. Everything else in the
// feed comes from the catalog.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::evaluation {

// <repo>/../shared/data/fashion/catalog.csv, from the compile definition SVC_SOURCE_DIR.
std::string defaultFashionCatalogPath();

// A strict RFC 4180 reader: fields separated by `delimiter`, records by CRLF or LF,
// double-quoted fields may hold delimiters, line breaks and "" (one quote). Also
// accepted: a UTF-8 byte-order mark, a missing final line break, empty lines (skipped).
// Refused, naming the line: an unclosed quote, a character after a closing quote,
// a quote inside an unquoted field. Values are returned exactly, untrimmed.
struct CsvRow {
    std::vector<std::string> fields;
    size_t line = 0;  // 1-based physical line where the record starts
};
std::optional<std::vector<CsvRow>> readCsv(std::string_view text, char delimiter, std::string& whyNot);

// One catalog row. Values are trimmed of surrounding spaces and tabs (16 names end in a
// space); blank and `NA` values are both kept as "".
struct FashionItem {
    std::string id;  // the catalog id, e.g. "15970"
    std::string gender;  // Men, Women, Unisex, Boys, Girls
    std::string masterCategory;
    std::string subCategory;
    std::string articleType;  // the leaf category
    std::string baseColour;
    std::string season;
    int year = 0;  // 0 when blank
    std::string usage;
    std::string productDisplayName;
    // Heuristic: the first word of productDisplayName (the README: "the brand is usually
    // its first word(s)"). Right for most brands ("Nike", "Puma", "ADIDAS", "Fabindia");
    // multi-word brands are cut to their first word ("United Colors of Benetton" ->
    // "United", "Peter England" -> "Peter"), which still keys each brand consistently;
    // two brands sharing a first word ("Red Tape", "Red Rose") merge into one.
    std::string brand;

    std::string mainSku() const { return "F" + id; }
    std::string model() const { return "M" + id; }
};

// Feed generation. Same options (and catalog), byte-identical feed.
struct FeedOptions {
    uint64_t seed = 42;
    // Share (0..1) of the written ITEMS whose category-path column is left empty, all
    // their other columns kept: exactly round(share * items) items, chosen by the seed.
    double blankCategoryShare = 0.0;
    // Only the first maxItems catalog rows (file order); 0 = all.
    size_t maxItems = 0;
};

// The invented part of one item's feed rows. Depends only on the item's id and the
// seed, so an item gets the same offer whatever maxItems or blankCategoryShare is.
struct InventedVariant {
    std::string sku;   // main SKU + "-" + size, e.g. "F15970-M"
    std::string size;  // apparel S/M/L/XL, footwear 6..10, anything else "OS"
    int64_t stock = 0;
};
struct InventedOffer {
    // 1 to 5 (at most the sizes of the category; "OS" items have one), a contiguous size
    // run. About 10% of the variants have stock 0, but never all of an item's: every item
    // stays available, so every catalog item is a possible recommendation.
    std::vector<InventedVariant> variants;
    int64_t retailPriceCents = 0;  // a band per articleType, times noise 0.7..1.5, ends in 99
    std::optional<int64_t> discountPriceCents;  // for about 20% of the items; below retail
};

class FashionCatalog {
public:
    // Reads catalog.csv. Columns are found by header name (any order, extra columns ignored).
    // Fails, with the reason in `whyNot`, when the file is missing or unreadable, is not
    // valid RFC 4180, lacks a column, has a row with the wrong number of fields, a blank
    // or duplicate id, or a year that is not a number.
    static std::optional<FashionCatalog> load(const std::string& csvPath, std::string& whyNot);
    // The same from text in memory (comma-separated, catalog.csv's header).
    static std::optional<FashionCatalog> fromCsvText(std::string_view csvText, std::string& whyNot);

    const std::vector<FashionItem>& items() const { return items_; }
    // Pointers to every item, in file order (the "eligible" list of the ranking metrics).
    std::vector<const FashionItem*> all() const;
    // The item of a main SKU ("F" + id), or null.
    const FashionItem* byMainSku(std::string_view mainSku) const;

    // The svc feed (interface spec, "Product feed record"): semicolon-separated, a header
    // line, every value double-quoted with "" escapes, LF line ends. One row per invented
    // variant; columns in this order (feedColumns()):
    //   sku, main-sku ("F" + id), model ("M" + id), stock, variant (size), name
    //   (productDisplayName), retail-price, discount-price (cents; mostly empty), deeplink
    //   (https://fashion.example/p/<id>), image (https://fashion.example/img/<id>.jpg),
    //   category-path ("masterCategory > subCategory > articleType", blank levels skipped),
    //   marke (brand), farbe (baseColour), beschreibung (productDisplayName: the catalog
    //   has no description text), abteilung (gender), stil (usage), saison (season).
    std::string feedCsv(const FeedOptions& options = {}) const;
    static const std::vector<std::string>& feedColumns();
    // Main SKUs whose category-path feedCsv(options) leaves empty, in file order.
    std::vector<std::string> blankedMainSkus(const FeedOptions& options) const;
    static InventedOffer inventOffer(const FashionItem& item, uint64_t seed);
    // "masterCategory > subCategory > articleType", blank levels skipped.
    static std::string categoryPath(const FashionItem& item);

private:
    std::vector<bool> blankedFlags(const FeedOptions& options, size_t itemCount) const;
    size_t writtenItemCount(const FeedOptions& options) const;

    std::vector<FashionItem> items_;
    std::map<std::string, size_t, std::less<>> indexByMainSku_;
};

}  // namespace svc::evaluation
