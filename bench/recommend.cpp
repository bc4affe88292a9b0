// bench-recommend: how fast the recommendation engine builds and answers, and how much memory it takes, for
// generated catalogs of 100k and 1M SKUs (issue 5, "Speed and memory").
//
// Each catalog size runs in a child process of its own (this program re-executed with --child), so its peak RSS is
// its own and not the previous size's leftover. In the child, in process and on a real data dir:
//   (1) the full build: the generated feed is imported (FeedImportService, as `feed import` does), then
//       ContentIndex::rebuild(tenant, full = true) is timed: catalog scan, features, SIMILAR lists, set pools;
//   (2) the incremental update: a delta feed changing 1% of the rows is imported (delta = true), then
//       ContentIndex::rebuild(tenant, false) is timed, against (1);
//   (3) the time to answer one widget: WidgetContentService::contentFor with one SIMILAR or one SET widget for a
//       random SKU (seeded), each call timed with steady_clock after a warm-up; p50 and p99;
//   (4) the peak RSS: VmHWM of the child from /proc/self/status.
// The feed is generated (deterministic, synthetic fashion catalog; nothing is read from outside but the content
// pool's templates from the source tree) and streamed to a temporary directory under /tmp, removed at the end
// unless --keep.
// Exit status: 0 when every step ran (whatever the figures), 1 when a step failed, 2 on a bad command line.
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "BenchSupport.hpp"
#include "feed/CatalogChanged.hpp"
#include "feed/FeedImportService.hpp"
#include "recommend/ContentIndex.hpp"
#include "recommend/RecommendationService.hpp"
#include "recommend/WidgetContentService.hpp"
#include "security/ServerKeys.hpp"
#include "sets/SetJson.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "app/SystemClock.hpp"
#include "store/Storage.hpp"
#include "tenant/TenantService.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bench;
using Clock = std::chrono::steady_clock;

double mib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }
double secondsSince(Clock::time_point started) { return std::chrono::duration<double>(Clock::now() - started).count(); }

// A field of /proc/self/status in KiB ("VmHWM", "VmRSS"); 0 when absent.
uint64_t procStatusKiB(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    std::string prefix = std::string(field) + ":";
    while (std::getline(in, line)) {
        if (line.rfind(prefix, 0) == 0) return std::strtoull(line.c_str() + prefix.size(), nullptr, 10);
    }
    return 0;
}

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
const std::vector<std::string_view>& sizesOf(Sizes sizes, bool kids) {
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

std::string lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string slugOf(std::string_view text) {
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

std::string nameOf(const ArticleText& a) {
    return std::string(a.brand) + " " + std::string(a.style) + " " + std::string(kKinds[a.kind].noun) + " " +
           std::string(kColours[a.colour].name);
}

std::string descriptionOf(const ArticleText& a) {
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
GeneratedFeeds generateFeeds(const std::string& dir, uint64_t rows) {
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
    feeds.seconds = secondsSince(started);
    return feeds;
}

// ---------------------------------------------------------------------------------------------------------------
// The child: one catalog size, in process.

// Results go to the parent as "key value" lines.
class Results {
public:
    void set(const std::string& key, double value) { values_[key] = value; }
    double get(const std::string& key) const {
        auto found = values_.find(key);
        return found == values_.end() ? std::nan("") : found->second;
    }
    bool has(const std::string& key) const { return values_.count(key) > 0; }
    void write(const std::string& path) const {
        std::ofstream out(path);
        out.precision(17);
        for (const auto& [key, value] : values_) out << key << ' ' << value << '\n';
        if (!out) throw StepFailure("cannot write " + path);
    }
    static Results read(const std::string& path) {
        Results results;
        std::ifstream in(path);
        std::string key;
        double value;
        while (in >> key >> value) results.values_[key] = value;
        return results;
    }

private:
    std::map<std::string, double> values_;
};

struct Latencies {
    double p50 = 0, p99 = 0, mean = 0, max = 0;
    double p99WithJson = 0;
    double nonEmptyShare = 0, meanItems = 0;
};

double percentile(std::vector<double> values, double share) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    size_t rank = static_cast<size_t>(std::ceil(share * static_cast<double>(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

struct ChildOptions {
    uint64_t rows = 0;
    std::string dir;
    std::string resultFile;
    std::string contentPool;
    uint64_t calls = 20000;
    uint64_t warmup = 2000;
    double querySeconds = 300;  // per widget type: the timed calls stop there (the number made is reported)
};

std::string sizeLabel(uint64_t rows) {
    if (rows >= 1000000 && rows % 1000000 == 0) return std::to_string(rows / 1000000) + "M";
    if (rows >= 1000 && rows % 1000 == 0) return std::to_string(rows / 1000) + "k";
    return std::to_string(rows);
}

template <typename T>
T need(svc::Result<T> result, const std::string& step) {
    if (!result) throw StepFailure(step + ": " + result.error().message);
    return std::move(*result);
}
void need(const svc::Status& status, const std::string& step) {
    if (!status) throw StepFailure(step + ": " + status.error().message);
}

int runChild(const ChildOptions& options) {
    Results results;
    std::string tag = "  [" + sizeLabel(options.rows) + "] ";
    auto progress = [&](const std::string& step) { std::cout << tag << step << " ..." << std::flush; };
    auto done = [](double seconds, const std::string& extra = "") {
        std::cout << " " << fixed(seconds, seconds < 10 ? 2 : 1) << " s" << extra << "\n" << std::flush;
    };
    auto phaseRss = [&](const std::string& phase) {
        results.set("rss." + phase + ".hwm", static_cast<double>(procStatusKiB("VmHWM")));
        results.set("rss." + phase + ".now", static_cast<double>(procStatusKiB("VmRSS")));
    };

    progress("generating " + withThousands(options.rows) + " rows");
    GeneratedFeeds feeds = generateFeeds(options.dir, options.rows);
    done(feeds.seconds, " (" + fixed(mib(feeds.fullBytes), 0) + " MiB)");
    results.set("feed.rows", static_cast<double>(feeds.rows));
    results.set("feed.mainSkus", static_cast<double>(feeds.mainSkus));
    results.set("feed.models", static_cast<double>(feeds.models));
    results.set("feed.bytes", static_cast<double>(feeds.fullBytes));
    results.set("feed.seconds", feeds.seconds);
    results.set("feed.categoryPaths", static_cast<double>(feeds.categoryPaths));
    results.set("feed.kinds", static_cast<double>(feeds.kinds));
    results.set("feed.outOfStockRows", static_cast<double>(feeds.outOfStockRows));
    results.set("feed.saleArticles", static_cast<double>(feeds.saleArticles));
    results.set("delta.rows", static_cast<double>(feeds.deltaRows));
    results.set("delta.stockRows", static_cast<double>(feeds.deltaStockRows));
    results.set("delta.priceRows", static_cast<double>(feeds.deltaPriceRows));
    results.set("delta.bothRows", static_cast<double>(feeds.deltaBothRows));
    results.set("delta.renamedArticles", static_cast<double>(feeds.renamedArticles));
    results.set("delta.recolouredArticles", static_cast<double>(feeds.recolouredArticles));
    results.set("delta.renamedRows", static_cast<double>(feeds.renamedRows));
    phaseRss("generated");

    // A real data dir: storage, a tenant, the content pool's templates, the import service with its blob store.
    std::string dataDir = options.dir + "/data";
    auto storage = need(svc::Storage::open(dataDir, svc::systemClock()), "open the data dir");
    svc::TenantService tenants(storage->tenants());
    svc::Tenant tenant = need(tenants.create("bench"), "create the tenant").tenant;
    {
        std::ifstream in(options.contentPool, std::ios::binary);
        if (!in) throw StepFailure("cannot read the content pool " + options.contentPool);
        std::stringstream text;
        text << in.rdbuf();
        auto file = need(svc::setFileFromJson(text.str()), options.contentPool);
        results.set("pool.templates", static_cast<double>(file.templates.size()));
        need(storage->content().importFile(std::nullopt, file), "store the content pool");
    }
    auto keys = need(svc::ServerKeys::loadOrCreate(dataDir), "server keys");
    svc::EncryptedFileBlobStore files(dataDir + "/uploads", keys.fileEncryptionKey());
    svc::FeedImportService imports(storage->catalog(), storage->imports(), files, storage->clock());
    auto timedImport = [&](const std::string& step, const std::string& path, bool isDelta, uint64_t expectRows) {
        svc::FeedImportOptions importOptions;
        importOptions.delta = isDelta;
        ::sync();
        progress(step);
        auto started = Clock::now();
        auto outcome = need(imports.importFile(tenant, path, importOptions, "bench"), step);
        double seconds = secondsSince(started);
        done(seconds);
        if (outcome.record.status != svc::ImportStatus::Applied) {
            throw StepFailure(step + ": not applied (" + std::string(svc::importStatusName(outcome.record.status)) + "): " +
                              outcome.record.message);
        }
        if (outcome.report.rowsRead != static_cast<int64_t>(expectRows) || outcome.report.rejected != 0) {
            std::string message = step + ": expected " + std::to_string(expectRows) + " rows read and none rejected; got " +
                                  std::to_string(outcome.report.rowsRead) + " read, " + std::to_string(outcome.report.rejected) +
                                  " rejected";
            if (!outcome.report.errors.empty()) message += "; first error: " + outcome.report.errors.front().message;
            throw StepFailure(message);
        }
        return std::pair{seconds, outcome.report};
    };

    auto [importSeconds, importReport] = timedImport("import the full feed", feeds.full, false, feeds.rows);
    results.set("import.full.seconds", importSeconds);
    results.set("import.full.inserted", static_cast<double>(importReport.counts.inserted));
    phaseRss("imported");

    // (1) The full build.
    svc::ContentIndexOptions indexOptions;
    indexOptions.threads = 2;
    svc::ContentIndex index(storage->catalog(), storage->content(), &storage->events(), storage->clock(), indexOptions);
    // Imports from here on reach the index as in svc-server (app/Services): the change first, then
    // the generation. The index's thread is not started: the bench runs the rebuild itself.
    svc::CatalogChanged catalogChanged(storage->content());
    catalogChanged.subscribe([&](int64_t tenantId, const svc::CatalogChange& change) { index.catalogChanged(tenantId, change); });
    catalogChanged.publishFrom(imports);
    ::sync();
    progress("(1) full build: ContentIndex::rebuild(full)");
    auto started = Clock::now();
    need(index.rebuild(tenant.id, true), "full build");
    double fullSeconds = secondsSince(started);
    done(fullSeconds);
    auto snapshot = need(index.snapshot(tenant.id), "snapshot after the full build");
    results.set("build.full.seconds", fullSeconds);
    results.set("build.full.engineSeconds", snapshot->buildInfo().seconds);
    results.set("build.full.articles", static_cast<double>(snapshot->buildInfo().articles));
    results.set("build.full.recomputed", static_cast<double>(snapshot->buildInfo().recomputed));
    results.set("build.slotPools", static_cast<double>(snapshot->slotPools().size()));
    {
        size_t pooled = 0, listed = 0, capacity = 0, available = 0;
        for (const auto& pool : snapshot->slotPools()) {
            for (const auto& list : pool.byDepartment) pooled += list.size();
        }
        for (uint32_t i = 0; i < snapshot->size(); ++i) {
            listed += snapshot->similarList(i).size();
            capacity += snapshot->similarList(i).capacity();
            available += snapshot->available(i) ? 1 : 0;
        }
        // What the SIMILAR lists hold against what their vectors reserve (a memory figure the RSS alone hides).
        // The size of the full build's main job: every live article is scored against the members of its kind.
        std::map<uint32_t, double> kindSizes;
        for (uint32_t i = 0; i < snapshot->size(); ++i) {
            if (snapshot->entry(i).live) kindSizes[snapshot->entry(i).profile.kind] += 1;
        }
        double pairs = 0, largestKind = 0;
        for (const auto& [kind, members] : kindSizes) {
            pairs += members * (members - 1);
            largestKind = std::max(largestKind, members);
        }
        results.set("build.pairs", pairs);
        results.set("build.engineKinds", static_cast<double>(kindSizes.size()));
        results.set("build.largestKind", largestKind);
        results.set("build.similarEntryBytes", static_cast<double>(listed * sizeof(svc::Neighbour)));
        results.set("build.similarCapacityBytes", static_cast<double>(capacity * sizeof(svc::Neighbour)));
        results.set("build.poolEntries", static_cast<double>(pooled));
        results.set("build.meanSimilarList", snapshot->size() ? static_cast<double>(listed) / static_cast<double>(snapshot->size()) : 0);
        results.set("build.availableArticles", static_cast<double>(available));
    }
    phaseRss("built");

    // For the breakdown: the catalog scan alone (what every build, full or incremental, reads first).
    {
        ::sync();
        progress("catalog scan alone (forEachLiveProduct)");
        size_t products = 0;
        auto scanStarted = Clock::now();
        need(storage->catalog().forEachLiveProduct(tenant.id, [&](svc::Product&&) { ++products; }), "catalog scan");
        double scanSeconds = secondsSince(scanStarted);
        done(scanSeconds);
        results.set("scan.seconds", scanSeconds);
        results.set("scan.products", static_cast<double>(products));
    }

    // (3) One widget's content, in process: SIMILAR and SET for random SKUs.
    svc::RecommendationService recommendations(index);
    svc::WidgetContentService widgets(recommendations);
    Rng anchorRng(99u);
    auto randomSku = [&]() -> std::string {
        const auto& entry = snapshot->entry(anchorRng.below(static_cast<uint32_t>(snapshot->size())));
        const auto& variants = entry.article->variants;
        if (anchorRng.percent(10)) return entry.article->mainSku;  // widgets may name the main SKU too
        return variants[anchorRng.below(static_cast<uint32_t>(variants.size()))].sku;
    };
    auto measure = [&](svc::WidgetType type, const std::string& name) {
        progress("(3) " + name + " widget: " + withThousands(options.warmup) + " warm-up + " + withThousands(options.calls) + " calls");
        auto loopStarted = Clock::now();
        std::vector<double> micros, microsWithJson;
        micros.reserve(options.calls);
        microsWithJson.reserve(options.calls);
        uint64_t nonEmpty = 0, items = 0;
        size_t jsonBytes = 0;
        Clock::time_point timedFrom{};
        for (uint64_t call = 0; call < options.warmup + options.calls; ++call) {
            if (call == options.warmup) timedFrom = Clock::now();
            if (call > options.warmup && secondsSince(timedFrom) > options.querySeconds) break;
            svc::WidgetSpec spec;
            spec.type = type;
            spec.touchpoint = svc::Touchpoint::Product;
            spec.sku = randomSku();
            std::vector<svc::WidgetSpec> request{std::move(spec)};
            auto t0 = Clock::now();
            auto response = widgets.contentFor(tenant, request);
            auto t1 = Clock::now();
            if (!response) throw StepFailure(name + " widget: " + response.error().message);
            std::string json = response->toJson();
            auto t2 = Clock::now();
            if (call < options.warmup) continue;
            micros.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            microsWithJson.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count());
            const auto& content = response->widgets.front();
            nonEmpty += content.items.empty() ? 0 : 1;
            items += content.items.size();
            jsonBytes += json.size();
            if (call % 1024 == 0) stopIfInterrupted();
        }
        done(secondsSince(loopStarted), micros.size() < options.calls ? " (stopped after " + withThousands(micros.size()) +
                                                                              " timed calls: --query-seconds)" : "");
        double made = static_cast<double>(micros.size());
        Latencies l;
        l.p50 = percentile(micros, 0.50);
        l.p99 = percentile(micros, 0.99);
        l.max = *std::max_element(micros.begin(), micros.end());
        double sum = 0;
        for (double m : micros) sum += m;
        l.mean = sum / static_cast<double>(micros.size());
        l.p99WithJson = percentile(microsWithJson, 0.99);
        std::string key = "query." + name + ".";
        results.set(key + "p50", l.p50);
        results.set(key + "p99", l.p99);
        results.set(key + "mean", l.mean);
        results.set(key + "max", l.max);
        results.set(key + "p50json", percentile(microsWithJson, 0.50));
        results.set(key + "p99json", l.p99WithJson);
        results.set(key + "calls", made);
        results.set(key + "nonEmptyShare", static_cast<double>(nonEmpty) / made);
        results.set(key + "meanItems", static_cast<double>(items) / made);
        results.set(key + "meanJsonBytes", static_cast<double>(jsonBytes) / made);
    };
    measure(svc::WidgetType::Similar, "SIMILAR");
    measure(svc::WidgetType::Set, "SET");
    phaseRss("queried");

    // (2) The incremental update after the 1% delta.
    auto [deltaImportSeconds, deltaReport] = timedImport("import the 1% delta feed", feeds.delta, true, feeds.deltaRows);
    results.set("import.delta.seconds", deltaImportSeconds);
    results.set("import.delta.updated", static_cast<double>(deltaReport.counts.updated));
    results.set("import.delta.unchanged", static_cast<double>(deltaReport.counts.unchanged));
    results.set("import.delta.inserted", static_cast<double>(deltaReport.counts.inserted));
    snapshot.reset();  // as a server would: the previous snapshot lives on only while queries hold it
    ::sync();
    progress("(2) incremental build: ContentIndex::rebuild(incremental)");
    started = Clock::now();
    need(index.rebuild(tenant.id, false), "incremental build");
    double incrementalSeconds = secondsSince(started);
    done(incrementalSeconds);
    auto after = need(index.snapshot(tenant.id), "snapshot after the incremental build");
    results.set("build.incremental.seconds", incrementalSeconds);
    results.set("build.incremental.engineSeconds", after->buildInfo().seconds);
    results.set("build.incremental.full", after->buildInfo().full ? 1 : 0);
    results.set("build.incremental.articles", static_cast<double>(after->buildInfo().articles));
    results.set("build.incremental.recomputed", static_cast<double>(after->buildInfo().recomputed));
    // How the rebuild found the changed articles: by key from the import's change, or by a scan.
    results.set("build.incremental.byKey", index.lastCatalogRead(tenant.id) == svc::ContentIndex::CatalogRead::ChangedByKey ? 1 : 0);
    // The delta really reached the content: a renamed article carries its new name.
    bool renameSeen = false;
    if (!feeds.sampleRenamedMainSku.empty()) {
        if (auto found = after->find(feeds.sampleRenamedMainSku)) {
            renameSeen = after->entry(*found).article->variants.front().name == feeds.sampleRenamedName;
        }
    }
    results.set("build.incremental.renameSeen", renameSeen ? 1 : 0);
    phaseRss("incremental");

    results.set("rss.peakKiB", static_cast<double>(procStatusKiB("VmHWM")));
    results.write(options.resultFile);
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// The parent: one child per size, then the table.

struct Options {
    std::vector<uint64_t> sizes{100000, 1000000};
    uint64_t calls = 20000;
    double querySeconds = 300;
    bool keep = false;
    std::string contentPool = SVC_CONTENT_POOL_FILE;
    std::optional<ChildOptions> child;  // set in a child (--child)
};

void printHelp() {
    std::cout <<
        R"(bench-recommend: the recommendation engine's build times, widget latency and memory, in process

Usage: bench-recommend [--sizes N,N...] [--quick] [--calls N] [--query-seconds S] [--keep] [--content-pool FILE]

For each catalog size (SKUs = feed rows, 5 sizes per main SKU) a child process generates a deterministic fashion
catalog, imports it into a fresh data dir under /tmp (FeedImportService) and measures:
  (1) full build: ContentIndex::rebuild(tenant, full), threads = 2          target 100k < 60 s, 1M < 10 min
  (2) incremental build after a 1% delta feed (imported with delta = true)  target < 10% of (1)
  (3) WidgetContentService::contentFor, one SIMILAR / one SET widget for a
      random SKU, p50 and p99 over --calls calls after a warm-up            target p99 < 1 ms
  (4) peak RSS of the child (VmHWM)                                          target 1M < 4 GB

Options:
  --sizes N,N...       catalog sizes in SKUs (k and M suffixes allowed; default 100000,1000000)
  --quick              10k SKUs only (a smoke run)
  --calls N            timed calls per widget type (default 20000; a tenth of it, at most 2000, warms up)
  --query-seconds S    stop a widget type's timed calls after S seconds (default 300; the number made is shown)
  --keep               keep the temporary directory (feeds and data dirs)
  --content-pool FILE  the set templates (default )"
              << SVC_CONTENT_POOL_FILE << R"()
  --help               this text

Exit status: 0 when every step ran (PASS or FAIL is a measurement), 1 when a step failed to run, 2 on a bad
command line.
)";
}

uint64_t parseCount(std::string text, const std::string& option) {
    text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
    uint64_t multiplier = 1;
    if (!text.empty() && (text.back() == 'k' || text.back() == 'K')) multiplier = 1000, text.pop_back();
    else if (!text.empty() && text.back() == 'M') multiplier = 1000000, text.pop_back();
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 10) {
        throw std::invalid_argument(option + ": '" + text + "' is not a whole number");
    }
    return std::stoull(text) * multiplier;
}

// Returns 0 to continue, or -1 after --help.
int parseOptions(int argc, char** argv, Options& options) {
    ChildOptions child;
    bool isChild = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&](const char* name) -> std::string {
            std::string prefix = std::string(name) + "=";
            if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
            if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
            return argv[++i];
        };
        auto is = [&](const char* name) { return arg == name || arg.rfind(std::string(name) + "=", 0) == 0; };
        if (arg == "--help" || arg == "-h") {
            printHelp();
            return -1;
        } else if (arg == "--quick") {
            options.sizes = {10000};
        } else if (arg == "--keep") {
            options.keep = true;
        } else if (is("--sizes")) {
            options.sizes.clear();
            std::stringstream list(value("--sizes"));
            std::string item;
            while (std::getline(list, item, ',')) {
                uint64_t size = parseCount(item, "--sizes");
                if (size < 1000) throw std::invalid_argument("--sizes: at least 1000 SKUs (the delta is 1% of them)");
                options.sizes.push_back(size);
            }
            if (options.sizes.empty()) throw std::invalid_argument("--sizes: no size given");
        } else if (is("--calls")) {
            options.calls = parseCount(value("--calls"), "--calls");
            if (options.calls < 100) throw std::invalid_argument("--calls: at least 100");
        } else if (is("--query-seconds")) {
            options.querySeconds = static_cast<double>(parseCount(value("--query-seconds"), "--query-seconds"));
            if (options.querySeconds < 1) throw std::invalid_argument("--query-seconds: at least 1");
        } else if (is("--content-pool")) {
            options.contentPool = value("--content-pool");
        } else if (is("--child")) {  // internal: one size in this process
            isChild = true;
            child.rows = parseCount(value("--child"), "--child");
        } else if (is("--dir")) {
            child.dir = value("--dir");
        } else if (is("--result")) {
            child.resultFile = value("--result");
        } else {
            throw std::invalid_argument("unknown argument '" + arg + "' (see --help)");
        }
    }
    if (isChild) {
        if (child.dir.empty() || child.resultFile.empty()) throw std::invalid_argument("--child needs --dir and --result");
        child.calls = options.calls;
        child.warmup = std::min<uint64_t>(2000, options.calls / 10);
        child.contentPool = options.contentPool;
        child.querySeconds = options.querySeconds;
        options.child = child;
    }
    return 0;
}

struct ChildRun {
    Results results;
    double seconds = 0;
    long maxRssKiB = 0;  // from wait4: the child's peak as the kernel counted it
    double userSeconds = 0, systemSeconds = 0;
};

ChildRun runSize(const Options& options, uint64_t rows, const std::string& dir) {
    std::string resultFile = dir + "/results.txt";
    std::vector<std::string> argv{"/proc/self/exe", "--child", std::to_string(rows), "--dir", dir, "--result", resultFile,
                                  "--calls", std::to_string(options.calls), "--query-seconds",
                                  std::to_string(static_cast<uint64_t>(options.querySeconds)), "--content-pool", options.contentPool};
    std::vector<char*> args;
    for (auto& arg : argv) args.push_back(arg.data());
    args.push_back(nullptr);
    std::cout << std::flush;
    auto started = Clock::now();
    pid_t pid = ::fork();
    if (pid < 0) throw StepFailure(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        ::execv(args[0], args.data());  // a fresh process image: VmHWM starts from zero
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    bool forwarded = false;
    while (::wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) throw StepFailure(std::string("wait4 failed: ") + std::strerror(errno));
        if (interrupted && !forwarded) {
            ::kill(pid, SIGTERM);  // a SIGTERM sent to the bench alone must stop its child too
            forwarded = true;
        }
    }
    stopIfInterrupted();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw StepFailure("the child for " + withThousands(rows) + " SKUs " + describeStatus(status));
    }
    ChildRun run;
    run.seconds = secondsSince(started);
    run.maxRssKiB = usage.ru_maxrss;
    run.userSeconds = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
    run.systemSeconds = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
    run.results = Results::read(resultFile);
    if (!run.results.has("rss.peakKiB")) throw StepFailure("the child for " + withThousands(rows) + " SKUs left no results");
    return run;
}

std::string secs(double s) { return fixed(s, s < 10 ? 2 : 1) + " s"; }
std::string ms(double micros) { return fixed(micros / 1000.0, micros < 100 ? 3 : 2) + " ms"; }
std::string pct(double share) { return fixed(100.0 * share, share < 0.1 ? 1 : 0) + "%"; }
std::string count(double value) { return withThousands(static_cast<uint64_t>(std::llround(value))); }
const char* passFail(bool pass) { return pass ? "PASS" : "FAIL"; }

int runParent(const Options& options) {
    if (!fs::exists(options.contentPool)) throw StepFailure("content pool not found: " + options.contentPool + " (--content-pool FILE)");
    TempDir temp = createTempDir("bench-recommend", options.keep);
    uint64_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
    // The feed (~430 bytes a row), the delta, the catalog database with its WAL and the import's kept files.
    uint64_t needBytes = largest * 430 * 5;
    if (struct statvfs disk {}; ::statvfs(temp.path.c_str(), &disk) == 0 &&
                                static_cast<uint64_t>(disk.f_bavail) * disk.f_frsize < needBytes) {
        throw StepFailure("about " + fixed(mib(needBytes) / 1024, 1) + " GiB are needed in /tmp; only " +
                          fixed(mib(static_cast<uint64_t>(disk.f_bavail) * disk.f_frsize) / 1024, 1) + " GiB are free");
    }
    std::cout << "bench-recommend: the recommendation engine in process (ContentIndex threads = 2), in " << temp.path << "\n";
    std::cout << "sizes: ";
    for (size_t i = 0; i < options.sizes.size(); ++i) std::cout << (i ? ", " : "") << withThousands(options.sizes[i]);
    std::cout << " SKUs; " << withThousands(options.calls) << " timed calls per widget type; one child process per size\n"
              << std::flush;

    std::vector<std::pair<uint64_t, ChildRun>> runs;
    for (uint64_t rows : options.sizes) {
        std::string dir = temp.path + "/size-" + std::to_string(rows);
        fs::create_directories(dir);
        ChildRun run = runSize(options, rows, dir);
        if (!options.keep) {
            std::error_code ignored;
            fs::remove_all(dir + "/data", ignored);  // several GiB at 1M; the feeds go with the directory at the end
            fs::remove(dir + "/feed-full.csv", ignored);
        }
        runs.emplace_back(rows, std::move(run));
    }
    std::cout << "\n";

    // ---- The table: every figure next to its target.
    const size_t label = 36, figure = 26, target = 20;
    std::cout << padRight("", label) << padRight("figure", figure) << padRight("target", target) << "\n";
    for (const auto& [rows, run] : runs) {
        const Results& r = run.results;
        double full = r.get("build.full.seconds");
        double incremental = r.get("build.incremental.seconds");
        double share = incremental / full;
        double fullTarget = rows <= 100000 ? 60.0 * static_cast<double>(rows) / 100000.0 : 600.0;
        bool exactTarget = rows == 100000 || rows == 1000000;
        std::cout << withThousands(rows) << " SKUs (" << count(r.get("feed.mainSkus")) << " main SKUs, "
                  << count(r.get("feed.categoryPaths")) << " category paths, " << count(r.get("feed.kinds")) << " kinds)\n";
        std::string fullTargetText = (rows <= 100000 ? "< " + fixed(fullTarget, 0) + " s" : "< " + fixed(fullTarget / 60, 0) + " min") +
                                     (exactTarget ? "" : " (scaled)");
        std::cout << padRight("  (1) full build", label) << padRight(secs(full), figure) << padRight(fullTargetText, target)
                  << passFail(full < fullTarget) << "\n";
        std::cout << padRight("  (2) incremental after 1% delta", label) << padRight(secs(incremental) + " = " + pct(share) + " of (1)", figure)
                  << padRight("< 10% of (1)", target) << passFail(share < 0.10) << "\n";
        for (const char* type : {"SIMILAR", "SET"}) {
            std::string key = std::string("query.") + type + ".";
            double p99 = r.get(key + "p99");
            std::cout << padRight(std::string("  (3) ") + type + " widget p50 / p99", label)
                      << padRight(fixed(r.get(key + "p50") / 1000, 3) + " / " + ms(p99), figure) << padRight("p99 < 1 ms", target)
                      << passFail(p99 < 1000) << "\n";
        }
        double rssMiB = r.get("rss.peakKiB") / 1024.0;
        std::cout << padRight("  (4) peak RSS (VmHWM)", label) << padRight(fixed(rssMiB, 0) + " MiB", figure);
        if (rows >= 1000000) std::cout << padRight("< 4 GB", target) << passFail(rssMiB * 1024 * 1024 < 4e9) << "\n";
        else std::cout << "(target at 1M)\n";
        std::cout << padRight("      feed import: full / 1% delta", label)
                  << padRight(secs(r.get("import.full.seconds")) + " / " + secs(r.get("import.delta.seconds")), figure)
                  << "(informational)\n";
    }

    std::cout << "\ndetails\n";
    for (const auto& [rows, run] : runs) {
        const Results& r = run.results;
        double full = r.get("build.full.seconds");
        std::cout << "  " << withThousands(rows) << " SKUs:\n";
        std::cout << "    feed: " << count(r.get("feed.rows")) << " rows, " << count(r.get("feed.mainSkus")) << " main SKUs of "
                  << count(r.get("feed.models")) << " models, 5 sizes each, " << fixed(mib(static_cast<uint64_t>(r.get("feed.bytes"))), 0)
                  << " MiB, generated in " << secs(r.get("feed.seconds")) << "; " << count(r.get("feed.outOfStockRows"))
                  << " rows out of stock, " << count(r.get("feed.saleArticles")) << " main SKUs on sale; "
                  << count(r.get("pool.templates")) << " content-pool templates\n";
        std::cout << "    delta: " << count(r.get("delta.rows")) << " rows = " << pct(r.get("delta.rows") / r.get("feed.rows"))
                  << " of the feed: " << count(r.get("delta.stockRows")) << " stock only, " << count(r.get("delta.priceRows"))
                  << " discount-price only, " << count(r.get("delta.bothRows")) << " stock and price, "
                  << count(r.get("delta.renamedRows")) << " rows (" << pct(r.get("delta.renamedRows") / r.get("delta.rows"))
                  << ") of " << count(r.get("delta.renamedArticles")) << " renamed main SKUs (new style word in name and "
                  << "description, " << count(r.get("delta.recolouredArticles")) << " of them also a new colour)\n";
        std::cout << "    (1) full build " << secs(full) << " (engine's own figure " << secs(r.get("build.full.engineSeconds"))
                  << "): " << count(r.get("build.full.articles")) << " articles, " << count(r.get("build.full.recomputed"))
                  << " profiles and lists computed; catalog scan alone (forEachLiveProduct, " << count(r.get("scan.products"))
                  << " products) " << secs(r.get("scan.seconds")) << " = " << pct(r.get("scan.seconds") / full) << " of (1); "
                  << fixed(r.get("build.meanSimilarList"), 1) << " SIMILAR entries per article; " << count(r.get("build.slotPools"))
                  << " slot pools with " << count(r.get("build.poolEntries")) << " entries; " << count(r.get("build.availableArticles"))
                  << " articles available; " << count(r.get("build.engineKinds")) << " kinds in the engine (largest "
                  << count(r.get("build.largestKind")) << " articles), " << fixed(r.get("build.pairs") / 1e6, 0)
                  << " million scored pairs = " << fixed(full * 1e9 / r.get("build.pairs"), 0) << " ns of (1) per pair; "
                  << "the SIMILAR lists' vectors reserve "
                  << fixed(mib(static_cast<uint64_t>(r.get("build.similarCapacityBytes"))), 0) << " MiB for "
                  << fixed(mib(static_cast<uint64_t>(r.get("build.similarEntryBytes"))), 0) << " MiB of entries\n";
        std::cout << "    (2) incremental " << secs(r.get("build.incremental.seconds")) << ": "
                  << (r.get("build.incremental.full") != 0 ? "FULL (not incremental!)" : "incremental") << ", changed articles read "
                  << (r.get("build.incremental.byKey") != 0 ? "by key (the import's change list)" : "by a scan of the change stamps") << ", "
                  << count(r.get("build.incremental.recomputed")) << " of " << count(r.get("build.incremental.articles"))
                  << " articles recomputed; renamed article's new name in the snapshot: "
                  << (r.get("build.incremental.renameSeen") != 0 ? "yes" : "NO") << "; catalog scan alone = "
                  << pct(r.get("scan.seconds") / r.get("build.incremental.seconds")) << " of (2); delta import: "
                  << count(r.get("import.delta.updated")) << " updated, " << count(r.get("import.delta.unchanged")) << " unchanged\n";
        for (const char* type : {"SIMILAR", "SET"}) {
            std::string key = std::string("query.") + type + ".";
            std::cout << "    (3) " << padRight(type, 7) << " mean " << ms(r.get(key + "mean")) << ", max " << ms(r.get(key + "max"))
                      << "; with ContentResponse::toJson p50 " << ms(r.get(key + "p50json")) << ", p99 " << ms(r.get(key + "p99json"))
                      << "; " << count(r.get(key + "calls")) << " timed calls; " << pct(r.get(key + "nonEmptyShare")) << " of answers non-empty, " << fixed(r.get(key + "meanItems"), 1)
                      << " items, " << count(r.get(key + "meanJsonBytes")) << " JSON bytes on average\n";
        }
        auto rss = [&](const char* phase) {
            return fixed(r.get(std::string("rss.") + phase + ".now") / 1024, 0) + "/" +
                   fixed(r.get(std::string("rss.") + phase + ".hwm") / 1024, 0);
        };
        std::cout << "    (4) RSS now/peak MiB after: generating " << rss("generated") << ", full import " << rss("imported")
                  << ", full build " << rss("built") << ", queries " << rss("queried") << ", delta and incremental build "
                  << rss("incremental") << "; wait4 ru_maxrss " << fixed(run.maxRssKiB / 1024.0, 0) << " MiB\n";
        std::cout << "    child: " << secs(run.seconds) << " in all, user " << secs(run.userSeconds) << ", sys "
                  << secs(run.systemSeconds) << "\n";
    }
    std::cout << "  timing: steady_clock around each call in the child; sync() before each timed import and build; the\n"
                 "  builds run with the catalog just written (page cache warm), as after an import in svc-server.\n"
                 "  (3) times contentFor alone (what the targets mean); toJson is the SDK endpoint's serialisation.\n"
                 "  anchors: random article (seed 99), a random variant SKU (90%) or the main SKU (10%).\n";
    return 0;
}

int run(const Options& options) {
    if (options.child) return runChild(*options.child);
    return runParent(options);
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-recommend", argc, argv, parseOptions, run); }
