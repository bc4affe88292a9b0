#pragma once
// The generated fashion catalog of bench-recommend and bench-content: a feed of `rows` variants (5 sizes per main SKU,
// 1-3 colours per model) in "Department > Group > Kind" category paths that the content pool's templates know, and a
// delta feed changing ~1% of the rows (renamed articles, new stock, new prices). Deterministic: seeded generators only.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "BenchSupport.hpp"

namespace bench::fashion {

using Clock = std::chrono::steady_clock;

inline double elapsedSince(Clock::time_point started) { return std::chrono::duration<double>(Clock::now() - started).count(); }

// ---------------------------------------------------------------------------------------------------------------
// The catalog: a fashion shop like the content pool's templates expect ("Department > Group > Kind" paths with the
// groups Topwear, Bottomwear, Dress, Footwear, Accessories), ~60 kinds x 5 departments = ~180 category paths.

constexpr std::array<std::string_view, 18> kColumns{
    "sku",     "main-sku",     "model",         "stock", "variant", "name",      "retail-price", "discount-price", "deeplink",
    "image",   "category-path", "marke",        "farbe", "beschreibung", "abteilung", "stil", "material", "saison"};
enum Col : size_t {
    kSku, kMainSku, kModel, kStock, kVariant, kName, kRetail, kDiscount, kDeeplink, kImage, kCategory, kMarke, kFarbe,
    kBeschreibung, kAbteilung, kStil, kMaterial, kSaison, kColumnCount
};
static_assert(kColumnCount == kColumns.size());

enum Dept : unsigned { kMen = 1, kWomen = 2, kBoys = 4, kGirls = 8, kUnisex = 16 };
constexpr unsigned kAll = kMen | kWomen | kBoys | kGirls | kUnisex;
struct DeptInfo {
    Dept dept;
    std::string_view name;
    uint32_t weight;  // share of the assortment where a kind is made for it
};
constexpr std::array kDepts{DeptInfo{kMen, "Men", 34}, DeptInfo{kWomen, "Women", 40}, DeptInfo{kBoys, "Boys", 8},
                            DeptInfo{kGirls, "Girls", 8}, DeptInfo{kUnisex, "Unisex", 10}};

// Occasions (the stil column): weights per kind preset.
constexpr std::array<std::string_view, 5> kOccasions{"Casual", "Formal", "Sports", "Ethnic", "Party"};
enum Preset { kCasual, kSmart, kFormal, kSporty, kEthnic, kParty };
constexpr std::array<std::array<uint32_t, 5>, 6> kPresetWeights{{
    {80, 3, 8, 2, 7},    // casual
    {50, 35, 0, 5, 10},  // smart
    {10, 80, 0, 0, 10},  // formal
    {25, 0, 75, 0, 0},   // sporty
    {10, 0, 0, 80, 10},  // ethnic
    {30, 10, 0, 5, 55},  // party
}};

enum Sizes { kLetters, kWaist, kNumeric, kShoes, kOneSize, kBelt, kSocks };
inline const std::vector<std::string_view>& sizesOf(Sizes sizes, bool kids) {
    static const std::vector<std::string_view> letters{"XS", "S", "M", "L", "XL", "XXL", "3XL"};
    static const std::vector<std::string_view> waist{"W28/L32", "W29/L32", "W30/L32", "W31/L32", "W32/L32", "W33/L34", "W34/L34", "W36/L34"};
    static const std::vector<std::string_view> numeric{"34", "36", "38", "40", "42", "44", "46", "48"};
    static const std::vector<std::string_view> shoes{"37", "38", "39", "40", "41", "42", "43", "44", "45", "46"};
    static const std::vector<std::string_view> oneSize{"S", "M", "L", "XL", "One Size"};
    static const std::vector<std::string_view> belt{"80", "85", "90", "95", "100", "105", "110"};
    static const std::vector<std::string_view> socks{"35-38", "39-42", "43-46", "3er-Pack 39-42", "3er-Pack 43-46"};
    static const std::vector<std::string_view> kidsClothes{"104", "110", "116", "122", "128", "134", "140", "146", "152"};
    static const std::vector<std::string_view> kidsShoes{"28", "29", "30", "31", "32", "33", "34", "35", "36"};
    if (kids && (sizes == kLetters || sizes == kWaist || sizes == kNumeric)) return kidsClothes;
    if (kids && sizes == kShoes) return kidsShoes;
    switch (sizes) {
        case kLetters: return letters;
        case kWaist: return waist;
        case kNumeric: return numeric;
        case kShoes: return shoes;
        case kOneSize: return oneSize;
        case kBelt: return belt;
        case kSocks: return socks;
    }
    return letters;
}

enum Group { kTopwear, kBottomwear, kDress, kFootwear, kAccessories };
constexpr std::array<std::string_view, 5> kGroupNames{"Topwear", "Bottomwear", "Dress", "Footwear", "Accessories"};

struct Kind {
    std::string_view leaf;  // the category path's leaf
    std::string_view noun;  // in names and descriptions
    Group group;
    unsigned depts;
    Sizes sizes;
    uint32_t minEuro, maxEuro;
    uint32_t weight;  // share of the assortment
    Preset preset;
};

constexpr std::array kKinds{
    Kind{"T-Shirts", "T-Shirt", kTopwear, kAll, kLetters, 9, 39, 10, kCasual},
    Kind{"Shirts", "Shirt", kTopwear, kMen | kWomen | kBoys | kGirls, kLetters, 25, 89, 7, kSmart},
    Kind{"Tops", "Top", kTopwear, kWomen | kGirls, kLetters, 12, 49, 6, kParty},
    Kind{"Blouses", "Blouse", kTopwear, kWomen, kNumeric, 25, 79, 3, kSmart},
    Kind{"Sweaters", "Sweater", kTopwear, kAll, kLetters, 29, 129, 4, kCasual},
    Kind{"Cardigans", "Cardigan", kTopwear, kMen | kWomen | kGirls, kLetters, 29, 119, 2, kCasual},
    Kind{"Sweatshirts", "Sweatshirt", kTopwear, kAll, kLetters, 25, 79, 4, kSporty},
    Kind{"Hoodies", "Hoodie", kTopwear, kAll, kLetters, 35, 99, 3, kCasual},
    Kind{"Jackets", "Jacket", kTopwear, kAll, kLetters, 49, 249, 4, kCasual},
    Kind{"Rain Jackets", "Rain Jacket", kTopwear, kAll, kLetters, 49, 179, 1, kSporty},
    Kind{"Coats", "Coat", kTopwear, kMen | kWomen | kBoys | kGirls, kNumeric, 89, 349, 2, kSmart},
    Kind{"Polos", "Polo Shirt", kTopwear, kMen | kWomen | kBoys, kLetters, 19, 69, 2, kCasual},
    Kind{"Tunics", "Tunic", kTopwear, kWomen | kGirls, kLetters, 19, 59, 1, kCasual},
    Kind{"Blazers", "Blazer", kTopwear, kMen | kWomen, kNumeric, 79, 299, 1, kFormal},
    Kind{"Waistcoats", "Waistcoat", kTopwear, kMen | kBoys, kNumeric, 39, 129, 1, kFormal},
    Kind{"Kurtas", "Kurta", kTopwear, kMen | kWomen | kBoys | kGirls, kLetters, 19, 79, 2, kEthnic},
    Kind{"Tank Tops", "Tank Top", kTopwear, kMen | kWomen | kUnisex, kLetters, 9, 29, 2, kSporty},
    Kind{"Jeans", "Jeans", kBottomwear, kMen | kWomen | kBoys | kGirls, kWaist, 39, 129, 7, kCasual},
    Kind{"Trousers", "Trousers", kBottomwear, kMen | kWomen | kBoys | kGirls, kNumeric, 35, 119, 4, kSmart},
    Kind{"Chinos", "Chinos", kBottomwear, kMen | kBoys, kWaist, 39, 99, 2, kCasual},
    Kind{"Shorts", "Shorts", kBottomwear, kAll, kLetters, 15, 49, 3, kCasual},
    Kind{"Skirts", "Skirt", kBottomwear, kWomen | kGirls, kNumeric, 19, 79, 2, kParty},
    Kind{"Capris", "Capri Pants", kBottomwear, kWomen | kGirls, kLetters, 15, 45, 1, kCasual},
    Kind{"Track Pants", "Track Pants", kBottomwear, kAll, kLetters, 25, 69, 3, kSporty},
    Kind{"Leggings", "Leggings", kBottomwear, kWomen | kGirls, kLetters, 12, 39, 2, kSporty},
    Kind{"Tights", "Tights", kBottomwear, kWomen | kGirls, kLetters, 8, 25, 1, kCasual},
    Kind{"Dungarees", "Dungarees", kBottomwear, kWomen | kBoys | kGirls, kLetters, 39, 89, 1, kCasual},
    Kind{"Dresses", "Dress", kDress, kWomen | kGirls, kNumeric, 29, 159, 5, kParty},
    Kind{"Jumpsuit", "Jumpsuit", kDress, kWomen | kGirls, kNumeric, 39, 129, 1, kParty},
    Kind{"Sneakers", "Sneakers", kFootwear, kAll, kShoes, 49, 179, 5, kCasual},
    Kind{"Casual Shoes", "Shoes", kFootwear, kAll, kShoes, 39, 129, 4, kCasual},
    Kind{"Formal Shoes", "Oxford Shoes", kFootwear, kMen | kBoys, kShoes, 69, 229, 2, kFormal},
    Kind{"Sports Shoes", "Running Shoes", kFootwear, kAll, kShoes, 49, 179, 3, kSporty},
    Kind{"Boots", "Boots", kFootwear, kMen | kWomen | kBoys | kGirls, kShoes, 79, 249, 2, kCasual},
    Kind{"Loafers", "Loafers", kFootwear, kMen | kWomen, kShoes, 59, 179, 1, kSmart},
    Kind{"Heels", "Pumps", kFootwear, kWomen, kShoes, 39, 149, 2, kParty},
    Kind{"Flats", "Ballet Flats", kFootwear, kWomen | kGirls, kShoes, 25, 79, 2, kCasual},
    Kind{"Sandal", "Sandals", kFootwear, kMen | kWomen | kBoys | kGirls, kShoes, 19, 89, 2, kCasual},
    Kind{"Flip Flops", "Flip Flops", kFootwear, kAll, kShoes, 9, 29, 1, kCasual},
    Kind{"Belts", "Belt", kAccessories, kMen | kWomen | kBoys | kUnisex, kBelt, 19, 79, 2, kSmart},
    Kind{"Watches", "Watch", kAccessories, kMen | kWomen | kUnisex, kOneSize, 49, 399, 3, kSmart},
    Kind{"Wallets", "Wallet", kAccessories, kMen | kWomen | kUnisex, kOneSize, 19, 89, 2, kCasual},
    Kind{"Sunglasses", "Sunglasses", kAccessories, kAll, kOneSize, 29, 199, 2, kCasual},
    Kind{"Caps", "Cap", kAccessories, kAll, kOneSize, 12, 39, 2, kSporty},
    Kind{"Hats", "Hat", kAccessories, kAll, kOneSize, 15, 69, 1, kCasual},
    Kind{"Gloves", "Gloves", kAccessories, kMen | kWomen | kUnisex, kOneSize, 15, 59, 1, kCasual},
    Kind{"Handbags", "Handbag", kAccessories, kWomen, kOneSize, 39, 299, 3, kSmart},
    Kind{"Clutches", "Clutch", kAccessories, kWomen, kOneSize, 29, 129, 1, kParty},
    Kind{"Backpacks", "Backpack", kAccessories, kAll, kOneSize, 29, 129, 2, kCasual},
    Kind{"Laptop Bags", "Laptop Bag", kAccessories, kMen | kWomen | kUnisex, kOneSize, 49, 149, 1, kFormal},
    Kind{"Scarves", "Scarf", kAccessories, kAll, kOneSize, 15, 79, 2, kCasual},
    Kind{"Stoles", "Stole", kAccessories, kWomen, kOneSize, 19, 69, 1, kEthnic},
    Kind{"Jewellery", "Necklace", kAccessories, kWomen | kGirls, kOneSize, 19, 149, 2, kParty},
    Kind{"Earrings", "Earrings", kAccessories, kWomen | kGirls, kOneSize, 12, 89, 1, kParty},
    Kind{"Bracelets", "Bracelet", kAccessories, kMen | kWomen | kUnisex, kOneSize, 15, 99, 1, kCasual},
    Kind{"Socks", "Socks", kAccessories, kAll, kSocks, 5, 19, 2, kCasual},
    Kind{"Ties", "Tie", kAccessories, kMen | kBoys, kOneSize, 19, 69, 1, kFormal},
    Kind{"Cufflinks", "Cufflinks", kAccessories, kMen, kOneSize, 19, 99, 1, kFormal},
};

struct ColourInfo {
    std::string_view name;
    uint32_t weight;
};
constexpr std::array kColours{
    ColourInfo{"Black", 12},       ColourInfo{"White", 9},        ColourInfo{"Off White", 3},  ColourInfo{"Grey", 5},
    ColourInfo{"Grey Melange", 3}, ColourInfo{"Charcoal", 2},     ColourInfo{"Navy Blue", 8},  ColourInfo{"Blue", 6},
    ColourInfo{"Light Blue", 3},   ColourInfo{"Teal", 1},         ColourInfo{"Turquoise Blue", 1}, ColourInfo{"Red", 4},
    ColourInfo{"Maroon", 2},       ColourInfo{"Burgundy", 2},     ColourInfo{"Pink", 3},       ColourInfo{"Rose", 1},
    ColourInfo{"Peach", 1},        ColourInfo{"Orange", 1},       ColourInfo{"Coral", 1},      ColourInfo{"Yellow", 1},
    ColourInfo{"Mustard", 1},      ColourInfo{"Green", 3},        ColourInfo{"Olive", 3},      ColourInfo{"Sea Green", 1},
    ColourInfo{"Lime Green", 1},   ColourInfo{"Purple", 1},       ColourInfo{"Lavender", 1},   ColourInfo{"Beige", 4},
    ColourInfo{"Cream", 2},        ColourInfo{"Khaki", 2},        ColourInfo{"Brown", 4},      ColourInfo{"Tan", 2},
    ColourInfo{"Coffee Brown", 1}, ColourInfo{"Camel", 1},        ColourInfo{"Silver", 1},     ColourInfo{"Gold", 1},
    ColourInfo{"Bronze", 1},       ColourInfo{"Multi", 2},        ColourInfo{"Magenta", 1},    ColourInfo{"Rust", 1},
};

constexpr std::array<std::string_view, 30> kStyleWords{
    "Classic", "Slim Fit", "Regular Fit", "Relaxed", "Oversized", "Vintage", "Essential", "Premium", "Urban", "Heritage",
    "Everyday", "Tailored", "Cropped", "Washed", "Textured", "Striped", "Printed", "Solid", "Ribbed", "Lightweight",
    "Soft", "Stretch", "Organic", "Retro", "Minimal", "Signature", "Active", "Comfort", "Modern", "Iconic"};

constexpr std::array<std::string_view, 13> kClothMaterials{
    "Cotton", "Organic Cotton", "Linen", "Wool", "Merino Wool", "Polyester", "Viscose", "Modal", "Cotton Blend",
    "Silk", "Cashmere", "Fleece", "Elastane Blend"};
constexpr std::array<std::string_view, 6> kShoeMaterials{"Leather", "Suede", "Canvas", "Mesh", "Synthetic", "Rubber"};
constexpr std::array<std::string_view, 10> kAccessoryMaterials{
    "Leather", "Stainless Steel", "Silver", "Gold-plated", "Cotton", "Wool", "Polyester", "Acetate", "Canvas", "Nylon"};
constexpr std::array<std::string_view, 5> kSeasons{"Spring", "Summer", "Fall", "Winter", "All Season"};

constexpr std::array<std::string_view, 20> kBrandStarts{
    "Nord", "Alba", "Urban", "Lind", "Fjord", "Mira", "Hafen", "Stadt", "Berg", "Sonnen",
    "Küsten", "Vento", "Terra", "Luna", "Roma", "Oslo", "Kalten", "Marlo", "Seeberg", "Fjella"};
constexpr std::array<std::string_view, 15> kBrandEnds{
    " Moda", " Denim", " & Co.", "wear", " Studio", " Atelier", "line", " Basics", " Label", " Club",
    "works", " Collective", " Supply", " House", "kind"};
constexpr uint32_t kBrandCount = kBrandStarts.size() * kBrandEnds.size();  // 300

constexpr std::array<std::string_view, 8> kOpeners{
    "A versatile", "This comfortable", "An easy-going", "A timeless", "This modern", "A lightweight", "A durable", "This refined"};
constexpr std::array<std::string_view, 10> kFeatures{
    "with a clean silhouette", "with contrast stitching", "with a subtle texture", "with a soft hand feel",
    "with practical details", "with a modern cut", "with ribbed edges", "with tonal details", "with a relaxed shape",
    "with a polished finish"};
constexpr std::array<std::string_view, 6> kClosings{
    "Perfect for everyday wear.", "Easy to combine with your favourites.", "Made to last season after season.",
    "A must-have for your wardrobe.", "Pairs well with casual and smart looks.", "Care: machine washable at 30 degrees."};

inline std::string lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

inline std::string slugOf(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out;
}

// What makes an article's descriptive fields; a rename in the delta changes the style word and maybe the colour.
struct ArticleText {
    std::string_view brand;  // points into a stable string
    std::string_view style;
    size_t colour = 0;
    size_t kind = 0;
    std::string_view material;
    std::string_view occasion;
    uint32_t opener = 0, feature = 0, closing = 0;
};

inline std::string nameOf(const ArticleText& a) {
    return std::string(a.brand) + " " + std::string(a.style) + " " + std::string(kKinds[a.kind].noun) + " " +
           std::string(kColours[a.colour].name);
}

inline std::string descriptionOf(const ArticleText& a) {
    return std::string(kOpeners[a.opener]) + " " + lower(kKinds[a.kind].noun) + " " + std::string(kFeatures[a.feature]) +
           " in " + lower(kColours[a.colour].name) + ", made from " + lower(a.material) + " by " + std::string(a.brand) +
           ". Ideal for " + lower(a.occasion) + " occasions. " + std::string(kClosings[a.closing]);
}

// Streams rows to a file: every value quoted, "" escapes, ';' between values (tests/server/ServerFixture.hpp feedCsv).
class CsvOut {
public:
    explicit CsvOut(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
        if (!file_) throw StepFailure("cannot write " + path + ": " + std::strerror(errno));
        buffer_.reserve(kFlushAt + 4096);
    }
    ~CsvOut() {
        if (file_) std::fclose(file_);
    }
    void writeRow(const std::array<std::string, kColumnCount>& row) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i) buffer_ += ';';
            buffer_ += '"';
            for (char c : row[i]) {
                if (c == '"') buffer_ += '"';
                buffer_ += c;
            }
            buffer_ += '"';
        }
        buffer_ += '\n';
        if (buffer_.size() >= kFlushAt) flush();
    }
    void writeHeader() {
        std::array<std::string, kColumnCount> header;
        for (size_t i = 0; i < kColumnCount; ++i) header[i] = std::string(kColumns[i]);
        writeRow(header);
    }
    void close() {
        flush();
        if (std::fclose(file_) != 0) throw StepFailure("cannot write " + path_ + ": " + std::strerror(errno));
        file_ = nullptr;
    }
    uint64_t bytes() const { return bytes_; }

private:
    static constexpr size_t kFlushAt = 1 << 20;
    void flush() {
        if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
            throw StepFailure("cannot write " + path_ + ": " + std::strerror(errno));
        }
        bytes_ += buffer_.size();
        buffer_.clear();
    }
    std::string path_;
    std::FILE* file_;
    std::string buffer_;
    uint64_t bytes_ = 0;
};

struct GeneratedFeeds {
    std::string full, delta;
    uint64_t rows = 0, mainSkus = 0, models = 0, fullBytes = 0;
    uint64_t deltaRows = 0, deltaStockRows = 0, deltaPriceRows = 0, deltaBothRows = 0;
    uint64_t renamedArticles = 0, renamedRows = 0, recolouredArticles = 0;
    size_t categoryPaths = 0, kinds = 0;
    uint64_t outOfStockRows = 0, saleArticles = 0;
    std::string sampleRenamedMainSku, sampleRenamedName;  // to check the incremental build picked it up
    double seconds = 0;
};

// The full feed (`rows` variants, 5 per main SKU, 1-3 colours per model) and a delta feed with ~1% of the rows:
// in each block of 500 articles one is renamed (new style word; every second one also a new colour: all its 5 rows,
// about a fifth of the delta), and in each block of 125 rows one row gets a new stock and/or price.
inline GeneratedFeeds generateFeeds(const std::string& dir, uint64_t rows) {
    auto started = Clock::now();
    GeneratedFeeds feeds;
    feeds.full = dir + "/feed-full.csv";
    feeds.delta = dir + "/feed-delta-1pct.csv";
    CsvOut full(feeds.full), delta(feeds.delta);
    full.writeHeader();
    delta.writeHeader();

    Rng rng(20240501u);   // the catalog
    Rng pick(777u);       // which rows the delta changes
    Rng change(4242u);    // how they change
    std::vector<std::string> brands;
    brands.reserve(kBrandCount);
    for (auto start : kBrandStarts) {
        for (auto end : kBrandEnds) brands.push_back(std::string(start) + std::string(end));
    }
    std::vector<double> brandTier(kBrandCount);
    for (uint32_t b = 0; b < kBrandCount; ++b) brandTier[b] = 0.75 + 0.85 * (static_cast<double>((b * 2654435761u) % 1000) / 1000.0);
    std::vector<uint32_t> kindWeights;
    uint32_t kindTotal = 0;
    for (const auto& kind : kKinds) {
        kindWeights.push_back(kind.weight);
        kindTotal += kind.weight;
    }
    std::vector<uint32_t> colourWeights;
    uint32_t colourTotal = 0;
    for (const auto& colour : kColours) {
        colourWeights.push_back(colour.weight);
        colourTotal += colour.weight;
    }
    std::vector<std::vector<bool>> pathUsed(kKinds.size(), std::vector<bool>(kDepts.size(), false));

    std::array<std::string, kColumnCount> row;
    uint64_t index = 0;        // rows written
    uint64_t article = 0;      // articles written
    uint32_t renameOffset = 0;  // the article renamed in the current block of 500
    uint32_t changeOffset = 0;  // the row changed in the current block of 125
    auto changeStockOrPrice = [&](std::array<std::string, kColumnCount>& r) {
        uint32_t what = change.below(10);  // 0-4 stock, 5-7 price, 8-9 both
        bool stock = what < 5 || what >= 8, price = what >= 5;
        if (stock) {
            int64_t current = std::stoll(r[kStock]);
            r[kStock] = current > 0 && change.percent(35) ? "0" : std::to_string(change.between(1, 60));
            if (r[kStock] == std::to_string(current)) r[kStock] = std::to_string(current + 1);
        }
        if (price) {
            int64_t retail = std::stoll(r[kRetail]), discount = std::stoll(r[kDiscount]);
            int64_t next = discount < retail && change.percent(40) ? retail
                                                                   : retail * (60 + change.below(31)) / 100 / 100 * 100 + 95;
            if (next >= retail && discount >= retail) next = retail / 2;
            if (next == discount) next = retail / 2;
            r[kDiscount] = std::to_string(next);
        }
        if (stock && price) ++feeds.deltaBothRows;
        else if (stock) ++feeds.deltaStockRows;
        else ++feeds.deltaPriceRows;
    };

    while (index < rows) {
        // One model: kind, department, brand, style; 1-3 colours (articles) of 5 sizes each.
        ++feeds.models;
        size_t k = rng.weighted(kindWeights, kindTotal);
        const Kind& kind = kKinds[k];
        std::vector<uint32_t> deptWeights;
        uint32_t deptTotal = 0;
        for (const auto& d : kDepts) {
            deptWeights.push_back(kind.depts & d.dept ? d.weight : 0);
            deptTotal += deptWeights.back();
        }
        size_t d = rng.weighted(deptWeights, deptTotal);
        pathUsed[k][d] = true;
        bool kids = kDepts[d].dept == kBoys || kDepts[d].dept == kGirls;
        uint32_t brand = rng.percent(50) ? rng.below(50) : rng.below(kBrandCount);  // a few brands carry half the range
        ArticleText text;
        text.kind = k;
        text.brand = brands[brand];
        text.style = rng.pick(kStyleWords);
        text.occasion = kOccasions[rng.weighted(kPresetWeights[kind.preset], 100)];
        text.material = kind.group == kFootwear      ? rng.pick(kShoeMaterials)
                        : kind.group == kAccessories ? rng.pick(kAccessoryMaterials)
                        : kind.leaf == "Jeans"       ? std::string_view("Denim")
                                                     : rng.pick(kClothMaterials);
        std::string_view season = rng.pick(kSeasons);
        double euros = (kind.minEuro + rng.below(kind.maxEuro - kind.minEuro + 1)) * brandTier[brand] * (kids ? 0.7 : 1.0);
        int64_t retail = std::max<int64_t>(5, static_cast<int64_t>(std::lround(euros))) * 100 - (rng.percent(70) ? 1 : 5);
        std::string model = "M" + std::to_string(1000000 + feeds.models);
        std::string category = std::string(kDepts[d].name) + " > " + std::string(kGroupNames[kind.group]) + " > " + std::string(kind.leaf);
        const auto& sizes = sizesOf(kind.sizes, kids);

        uint32_t colours = 1 + rng.below(3);
        std::vector<size_t> used;
        for (uint32_t c = 0; c < colours && index < rows; ++c) {
            size_t colour = rng.weighted(colourWeights, colourTotal);
            if (std::find(used.begin(), used.end(), colour) != used.end()) continue;
            used.push_back(colour);
            text.colour = colour;
            text.opener = rng.below(kOpeners.size());
            text.feature = rng.below(kFeatures.size());
            text.closing = rng.below(kClosings.size());
            std::string mainSku = model + "-" + (colour < 10 ? "0" : "") + std::to_string(colour);
            ++feeds.mainSkus;
            int64_t discount = retail;
            if (rng.percent(30)) {
                discount = retail * (50 + rng.below(41)) / 100 / 100 * 100 + 95;  // 10-50% off, ends in ,95
                if (discount >= retail) discount = retail;  // too cheap for a sale
                else ++feeds.saleArticles;
            }
            std::string name = nameOf(text);
            std::string description = descriptionOf(text);

            if (article % 500 == 0) renameOffset = pick.below(500);
            bool renamed = article % 500 == renameOffset;
            ++article;
            ArticleText renamedText = text;
            std::string renamedName, renamedDescription;
            if (renamed) {
                ++feeds.renamedArticles;
                do renamedText.style = pick.pick(kStyleWords);
                while (renamedText.style == text.style);
                if (feeds.renamedArticles % 2 == 0) {
                    ++feeds.recolouredArticles;
                    renamedText.colour = (colour + 1 + pick.below(kColours.size() - 1)) % kColours.size();
                }
                renamedName = nameOf(renamedText);
                renamedDescription = descriptionOf(renamedText);
                if (feeds.sampleRenamedMainSku.empty()) {
                    feeds.sampleRenamedMainSku = mainSku;
                    feeds.sampleRenamedName = renamedName;
                }
            }

            uint32_t first = rng.below(static_cast<uint32_t>(sizes.size()) - 5 + 1);
            for (uint32_t s = 0; s < 5 && index < rows; ++s, ++index) {
                std::string_view size = sizes[first + s];
                uint32_t stock = rng.percent(10) ? 0 : rng.between(1, 50);
                if (stock == 0) ++feeds.outOfStockRows;
                row[kSku] = mainSku + "-" + std::to_string(s + 1);
                row[kMainSku] = mainSku;
                row[kModel] = model;
                row[kStock] = std::to_string(stock);
                row[kVariant] = std::string(size);
                row[kName] = name;
                row[kRetail] = std::to_string(retail);
                row[kDiscount] = std::to_string(discount);
                row[kDeeplink] = "https://www.shop.example/p/" + slugOf(name) + "-" + lower(mainSku) + "?size=" + slugOf(size);
                row[kImage] = "https://img.shop.example/" + lower(mainSku) + "/1200.jpg";
                row[kCategory] = category;
                row[kMarke] = std::string(text.brand);
                row[kFarbe] = std::string(kColours[colour].name);
                row[kBeschreibung] = description;
                row[kAbteilung] = std::string(kDepts[d].name);
                row[kStil] = std::string(text.occasion);
                row[kMaterial] = std::string(text.material);
                row[kSaison] = std::string(season);
                full.writeRow(row);
                if (index % 4096 == 0) stopIfInterrupted();

                if (index % 125 == 0) changeOffset = pick.below(125);
                if (renamed) {
                    row[kName] = renamedName;
                    row[kBeschreibung] = renamedDescription;
                    row[kFarbe] = std::string(kColours[renamedText.colour].name);
                    delta.writeRow(row);
                    ++feeds.deltaRows;
                    ++feeds.renamedRows;
                } else if (index % 125 == changeOffset) {
                    changeStockOrPrice(row);
                    delta.writeRow(row);
                    ++feeds.deltaRows;
                }
            }
        }
    }
    full.close();
    delta.close();
    feeds.rows = index;
    feeds.fullBytes = full.bytes();
    std::vector<bool> kindUsed(kKinds.size(), false);
    for (size_t k = 0; k < kKinds.size(); ++k) {
        for (bool used : pathUsed[k]) {
            feeds.categoryPaths += used ? 1 : 0;
            if (used) kindUsed[k] = true;
        }
    }
    feeds.kinds = static_cast<size_t>(std::count(kindUsed.begin(), kindUsed.end(), true));
    feeds.seconds = elapsedSince(started);
    return feeds;
}


}  // namespace bench::fashion
