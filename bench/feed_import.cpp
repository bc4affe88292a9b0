// bench-feed-import: how fast svc-server imports a large product feed, against a floor.
//
// One run, figures side by side (the machine is noisy; ratios matter more than seconds):
//   (a) the floor: the sqlite3 shell's .import of the same file into a bare table (one TEXT column per feed
//       column), a rollback journal and synchronous=NORMAL like svc's initial load, one transaction;
//   (b) `svc-server feed import` of the full feed into a fresh data dir;
//   (c) a delta feed with 1% of the rows (changed stock and discount-price), `--delta`;
//   (c2) the full feed again with another 1% of the rows changed (informational);
//   (d) the peak RSS of svc-server in (b), (c) and (c2), from wait4()'s rusage.
// The feed is generated (deterministic, synthetic fashion-shop content; nothing is read from outside) and streamed
// to a temporary directory under /tmp, which is removed at the end unless --keep.
// Exit status: 0 when every step ran (whatever the figures), 1 when a step failed, 2 on a bad command line.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "BenchSupport.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bench;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

double mib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// ---------------------------------------------------------------------------------------------------------------
// The feed: 25 columns, the spec's base and content-pool columns plus the ADR 0004 names.

constexpr std::array<std::string_view, 25> kColumns{
    "sku",          "main-sku", "model",  "stock",    "variant",     "name",          "retail-price",
    "discount-price", "deeplink", "image",  "thumbnail", "category-path", "marke",      "farbe",
    "beschreibung", "material", "stil",   "passform", "abteilung",   "farbspektrum",  "saison",
    "ean",          "kategorie2", "muster", "lowest-price-30d"};

enum Col : size_t {
    kSku, kMainSku, kModel, kStock, kVariant, kName, kRetail, kDiscount, kDeeplink, kImage, kThumbnail, kCategory,
    kMarke, kFarbe, kBeschreibung, kMaterial, kStil, kPassform, kAbteilung, kFarbspektrum, kSaison, kEan,
    kKategorie2, kMuster, kLowest, kColumnCount
};
static_assert(kColumnCount == kColumns.size());

enum class Sizes { Letters, Jeans, Numeric, Collar, Shoes, Kids, KidsShoes };

const std::vector<std::string_view>& sizesOf(Sizes sizes) {
    static const std::vector<std::string_view> letters{"XS", "S", "M", "L", "XL", "XXL", "3XL"};
    static const std::vector<std::string_view> jeans{"W26/L30", "W27/L32", "W28/L32", "W29/L32", "W30/L32",
                                                     "W31/L32", "W32/L32", "W33/L34", "W34/L34", "W36/L34"};
    static const std::vector<std::string_view> numeric{"32", "34", "36", "38", "40", "42", "44", "46"};
    static const std::vector<std::string_view> collar{"38", "39", "40", "41", "42", "43", "44", "45"};
    static const std::vector<std::string_view> shoes{"36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"};
    static const std::vector<std::string_view> kids{"92", "98", "104", "110", "116", "122", "128", "134", "140"};
    static const std::vector<std::string_view> kidsShoes{"28", "29", "30", "31", "32", "33", "34", "35"};
    switch (sizes) {
        case Sizes::Letters: return letters;
        case Sizes::Jeans: return jeans;
        case Sizes::Numeric: return numeric;
        case Sizes::Collar: return collar;
        case Sizes::Shoes: return shoes;
        case Sizes::Kids: return kids;
        case Sizes::KidsShoes: return kidsShoes;
    }
    return letters;
}

enum Dept : unsigned { kWomen = 1, kMen = 2, kKids = 4 };

struct ProductType {
    std::string_view leaf;        // category-path leaf (English, like the spec's examples)
    std::string_view group;       // Clothing or Shoes
    std::string_view kategorie2;  // German subcategory
    std::string_view noun;        // German noun used in the name
    std::string_view slug;
    Sizes sizes;
    unsigned depts;
    uint32_t minEuro, maxEuro;
    bool shoe;
};

constexpr std::array kTypes{
    ProductType{"Jeans", "Clothing", "Hosen", "Jeans", "jeans", Sizes::Jeans, kWomen | kMen | kKids, 49, 129, false},
    ProductType{"T-Shirts", "Clothing", "Shirts & Tops", "T-Shirt", "t-shirt", Sizes::Letters, kWomen | kMen | kKids, 12, 39, false},
    ProductType{"Blouses", "Clothing", "Blusen", "Bluse", "bluse", Sizes::Numeric, kWomen, 29, 89, false},
    ProductType{"Dresses", "Clothing", "Kleider", "Kleid", "kleid", Sizes::Numeric, kWomen | kKids, 39, 159, false},
    ProductType{"Knitwear", "Clothing", "Pullover & Strick", "Pullover", "pullover", Sizes::Letters, kWomen | kMen | kKids, 39, 149, false},
    ProductType{"Jackets", "Clothing", "Jacken", "Jacke", "jacke", Sizes::Letters, kWomen | kMen | kKids, 79, 299, false},
    ProductType{"Coats", "Clothing", "Mäntel", "Mantel", "mantel", Sizes::Numeric, kWomen | kMen, 119, 399, false},
    ProductType{"Trousers", "Clothing", "Hosen", "Chino", "chino", Sizes::Numeric, kWomen | kMen, 49, 119, false},
    ProductType{"Shirts", "Clothing", "Hemden", "Hemd", "hemd", Sizes::Collar, kMen, 39, 99, false},
    ProductType{"Skirts", "Clothing", "Röcke", "Rock", "rock", Sizes::Numeric, kWomen, 29, 99, false},
    ProductType{"Hoodies", "Clothing", "Sweatshirts & Hoodies", "Hoodie", "hoodie", Sizes::Letters, kWomen | kMen | kKids, 39, 99, false},
    ProductType{"Sneakers", "Shoes", "Sneaker", "Sneaker", "sneaker", Sizes::Shoes, kWomen | kMen | kKids, 59, 179, true},
    ProductType{"Boots", "Shoes", "Stiefel & Stiefeletten", "Stiefelette", "stiefelette", Sizes::Shoes, kWomen | kMen, 89, 249, true},
};

struct DeptInfo {
    Dept dept;
    std::string_view english;
    std::string_view german;
    std::string_view slug;
};
constexpr std::array kDepts{DeptInfo{kWomen, "Women", "Damen", "damen"}, DeptInfo{kMen, "Men", "Herren", "herren"},
                            DeptInfo{kKids, "Kids", "Kinder", "kinder"}};

struct Brand {
    std::string_view name;
    std::string_view slug;
};
constexpr std::array kBrands{
    Brand{"Nordkind", "nordkind"},       Brand{"Alba Moda", "alba-moda"},      Brand{"Urban Fjord", "urban-fjord"},
    Brand{"Seeberg", "seeberg"},         Brand{"Linea Verde", "linea-verde"},  Brand{"Kaltenbach", "kaltenbach"},
    Brand{"Mira Lou", "mira-lou"},       Brand{"Hafenliebe", "hafenliebe"},    Brand{"Stadtwald", "stadtwald"},
    Brand{"Oslo Denim", "oslo-denim"},   Brand{"Bergström", "bergstroem"},     Brand{"Café Noir", "cafe-noir"},
    Brand{"Lindgrün", "lindgruen"},      Brand{"Marlene K.", "marlene-k"},     Brand{"Brückner & Söhne", "brueckner-soehne"},
    Brand{"Fjella", "fjella"},           Brand{"Sonnenweiß", "sonnenweiss"},   Brand{"Küstenkind", "kuestenkind"},
};

struct Colour {
    std::string_view name;
    std::string_view spectrum;
    std::string_view code;
};
constexpr std::array kColours{
    Colour{"Dunkelblau", "Blau", "410"},  Colour{"Hellblau", "Blau", "420"},     Colour{"Schwarz", "Schwarz", "010"},
    Colour{"Weiß", "Weiß", "100"},        Colour{"Cremeweiß", "Weiß", "110"},    Colour{"Grün", "Grün", "500"},
    Colour{"Olivgrün", "Grün", "520"},    Colour{"Rot", "Rot", "600"},           Colour{"Bordeaux", "Rot", "650"},
    Colour{"Grau meliert", "Grau", "910"}, Colour{"Anthrazit", "Grau", "920"},   Colour{"Beige", "Braun", "710"},
    Colour{"Camel", "Braun", "720"},      Colour{"Rosé", "Rosa", "300"},         Colour{"Senfgelb", "Gelb", "210"},
};

constexpr std::array<std::string_view, 10> kClothMaterials{
    "100% Baumwolle",        "98% Baumwolle, 2% Elasthan", "100% Bio-Baumwolle",  "70% Wolle, 30% Polyamid",
    "100% Leinen",           "55% Leinen, 45% Viskose",    "100% Polyester (recycelt)", "80% Baumwolle, 20% Polyester",
    "100% Merinowolle",      "65% Viskose, 35% Polyamid"};
constexpr std::array<std::string_view, 4> kShoeMaterials{
    "Obermaterial: Glattleder, Sohle: Gummi", "Obermaterial: Veloursleder, Sohle: Gummi",
    "Obermaterial: Textil, Sohle: EVA", "Obermaterial: Lederimitat, Sohle: TPU"};
constexpr std::array<std::string_view, 7> kStyles{"Casual", "Business", "Sportlich", "Elegant", "Basic", "Vintage", "Streetwear"};
constexpr std::array<std::string_view, 6> kFits{"Slim Fit", "Regular Fit", "Relaxed Fit", "Oversized", "Skinny", "Straight"};
constexpr std::array<std::string_view, 7> kPatterns{"Uni", "Gestreift", "Kariert", "Geblümt", "Meliert", "Print", "Gepunktet"};
constexpr std::array<std::string_view, 5> kSeasons{"Sommer 2024", "Winter 2024/25", "Sommer 2025", "Winter 2025/26",
                                                   "Ganzjährig"};
constexpr std::array<std::string_view, 24> kModelNames{
    "Mara", "Ole", "Lina", "Jonas", "Frieda", "Malte", "Greta", "Henrik", "Ida", "Lasse", "Nele", "Theo",
    "Smilla", "Jannik", "Romy", "Bosse", "Kiel", "Lissabon", "Bergen", "Sylt", "Amrum", "Porto", "Malmö", "Växjö"};
constexpr std::array<std::string_view, 6> kTipWords{"Classic", "Weekend", "Urban", "Essential", "Heritage", "Soft Touch"};

// URL slugs are ASCII; the few non-ASCII letters in names are transliterated.
std::string slugOf(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == 0xC3 && i + 1 < text.size()) {
            unsigned char d = static_cast<unsigned char>(text[++i]);
            switch (d) {
                case 0xA4: case 0x84: out += "ae"; break;  // ä Ä
                case 0xB6: case 0x96: out += "oe"; break;  // ö Ö
                case 0xBC: case 0x9C: out += "ue"; break;  // ü Ü
                case 0x9F: out += "ss"; break;             // ß
                case 0xA9: out += "e"; break;              // é
                default: break;
            }
        } else if (std::isalnum(c)) {
            out += static_cast<char>(std::tolower(c));
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out;
}

std::string eanFor(uint64_t number) {
    // A GTIN-13 with a valid check digit, from an invented 40x prefix (German range) and the row number.
    std::string tail = std::to_string(number % 10000000000ULL);
    std::string digits = "40" + std::string(10 - tail.size(), '0') + tail;
    int sum = 0;
    for (size_t i = 0; i < 12; ++i) sum += (digits[i] - '0') * (i % 2 == 0 ? 1 : 3);
    digits += static_cast<char>('0' + (10 - sum % 10) % 10);
    return digits;
}

// Buffered, append-only file writer (the feed is streamed, never held in memory).
class FeedWriter {
public:
    explicit FeedWriter(const std::string& path) : path_(path) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) throw StepFailure("cannot create " + path + ": " + std::strerror(errno));
        buffer_.reserve(kBufferSize + 8192);
    }
    ~FeedWriter() {
        if (fd_ >= 0) ::close(fd_);
    }
    FeedWriter(const FeedWriter&) = delete;
    FeedWriter& operator=(const FeedWriter&) = delete;

    template <typename Row>
    void writeRow(const Row& values) {
        for (size_t i = 0; i < values.size(); ++i) {
            if (i > 0) buffer_ += ';';
            buffer_ += '"';
            for (char c : std::string_view(values[i])) {
                if (c == '"') buffer_ += '"';
                buffer_ += c;
            }
            buffer_ += '"';
        }
        buffer_ += '\n';
        ++rows_;
        if (buffer_.size() >= kBufferSize) flush();
    }
    void close() {
        flush();
        if (::close(fd_) != 0) throw StepFailure("cannot write " + path_ + ": " + std::strerror(errno));
        fd_ = -1;
    }
    uint64_t bytes() const { return bytes_; }
    uint64_t rows() const { return rows_; }

private:
    static constexpr size_t kBufferSize = 1 << 20;
    void flush() {
        size_t done = 0;
        while (done < buffer_.size()) {
            ssize_t wrote = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
            if (wrote < 0) {
                if (errno == EINTR) continue;
                throw StepFailure("cannot write " + path_ + ": " + std::strerror(errno));
            }
            done += static_cast<size_t>(wrote);
        }
        bytes_ += buffer_.size();
        buffer_.clear();
    }
    std::string path_;
    int fd_ = -1;
    std::string buffer_;
    uint64_t bytes_ = 0;
    uint64_t rows_ = 0;
};

struct GeneratedFeeds {
    std::string full;        // (b): N rows
    std::string delta;       // (c): header + 1% of the rows, stock and discount-price changed
    std::string fullChanged; // (c2): the full feed as it is after (c), with another 1% of the rows changed
    uint64_t rows = 0;
    uint64_t fullBytes = 0;
    uint64_t deltaRows = 0;
    uint64_t changedRows = 0;  // rows of (c2) that differ from the catalog after (c)
    uint64_t mainSkus = 0;
    double seconds = 0;
};

using Row = std::array<std::string, kColumnCount>;

// New stock and discount-price for a changed row; both always differ from the old values.
void changeStockAndPrice(Row& row, Rng& rng) {
    int64_t stock = std::stoll(row[kStock]);
    int64_t price = std::stoll(row[kDiscount]);
    row[kStock] = std::to_string(stock == 0 ? 1 + rng.below(30) : (stock + 1 + rng.below(20)) % 61);
    if (row[kStock] == std::to_string(stock)) row[kStock] = std::to_string(stock + 1);
    int64_t cut = 100 * (1 + rng.below(10));  // 1 to 10 euros
    row[kDiscount] = std::to_string(price > cut + 500 ? price - cut : price + cut);
}

GeneratedFeeds generateFeeds(const std::string& dir, uint64_t rows) {
    auto started = std::chrono::steady_clock::now();
    GeneratedFeeds feeds;
    feeds.full = dir + "/feed-full.csv";
    feeds.delta = dir + "/feed-delta-1pct.csv";
    feeds.fullChanged = dir + "/feed-full-1pct-changed.csv";
    FeedWriter full(feeds.full), delta(feeds.delta), fullChanged(feeds.fullChanged);
    Row header;
    for (size_t i = 0; i < kColumnCount; ++i) header[i] = std::string(kColumns[i]);
    full.writeRow(header);
    delta.writeRow(header);
    fullChanged.writeRow(header);

    Rng rng(20240611u);     // content
    Rng pickRng(7919u);     // which rows change
    Rng changeRng(104729u); // how they change
    uint32_t deltaOffset = 0, changedOffset = 0;

    Row row;
    uint64_t index = 0;
    uint64_t modelNumber = 100000;
    while (index < rows) {
        // One model (the basic product) in 1 to 3 colours; each colour is a main SKU with ~5 sizes.
        ++modelNumber;
        const ProductType& type = rng.pick(kTypes);
        const DeptInfo* dept = nullptr;
        do dept = &rng.pick(kDepts);
        while (!(type.depts & dept->dept));
        const Brand& brand = rng.pick(kBrands);
        std::string_view modelName = rng.pick(kModelNames);
        std::string_view style = rng.pick(kStyles);
        std::string_view fit = type.shoe ? std::string_view{} : rng.pick(kFits);
        std::string_view material = type.shoe ? rng.pick(kShoeMaterials) : rng.pick(kClothMaterials);
        std::string_view season = rng.pick(kSeasons);
        Sizes sizeSet = type.sizes;
        if (dept->dept == kKids) sizeSet = type.shoe ? Sizes::KidsShoes : Sizes::Kids;
        const auto& sizes = sizesOf(sizeSet);
        uint32_t euros = rng.between(type.minEuro, type.maxEuro);
        std::string model = std::string(1, static_cast<char>('A' + rng.below(26))) + std::to_string(modelNumber);
        std::string categoryPath = std::string(dept->english) + " > " + std::string(type.group) + " > " + std::string(type.leaf);

        uint32_t colours = 1 + rng.below(3);
        uint32_t firstColour = rng.below(static_cast<uint32_t>(kColours.size()));
        for (uint32_t c = 0; c < colours && index < rows; ++c) {
            const Colour& colour = kColours[(firstColour + c * 4) % kColours.size()];
            std::string_view pattern = rng.pick(kPatterns);
            std::string mainSku = model + "-" + std::string(colour.code);
            ++feeds.mainSkus;
            int64_t retail = static_cast<int64_t>(euros) * 100 + (rng.percent(70) ? 99 : 95);
            int64_t discount = retail;
            std::string lowest;
            bool sale = rng.percent(35);
            if (sale) {
                discount = retail * (50 + rng.below(41)) / 100 / 100 * 100 + 95;  // 10-50% off, ends in ,95
                if (discount >= retail) discount = retail - 500;
                lowest = std::to_string(discount + (rng.percent(50) ? 0 : 100 * rng.between(1, 5)));
            }
            std::string name = std::string(brand.name) + " " + std::string(type.noun) + " \xE2\x80\x9E" +
                               std::string(modelName) + "\xE2\x80\x9C" + (fit.empty() ? "" : " " + std::string(fit)) +
                               ", " + std::string(colour.name);
            std::string urlStem = std::string(dept->slug) + "/" + std::string(brand.slug) + "-" + std::string(type.slug) +
                                  "-" + slugOf(modelName) + "-" + slugOf(mainSku);
            std::string category = categoryPath;
            if (sale && rng.percent(60)) category += "," + std::string(dept->english) + " > Sale > " + std::string(type.leaf);

            std::string description;
            bool html = rng.percent(15);
            if (html) description += "<p>";
            switch (rng.below(3)) {
                case 0:
                    description += std::string(type.noun) + " " + std::string(modelName) + " von " + std::string(brand.name) +
                                   " aus " + std::string(material) + ", bequem für jeden Tag.";
                    break;
                case 1:
                    description += (fit.empty() ? std::string("Leicht") : std::string(fit)) + " und " + std::string(pattern) +
                                   " in " + std::string(colour.name) + ": ein " + std::string(style) + "-Lieblingsstück.";
                    break;
                default:
                    description += "Ein " + std::string(style) + "-Klassiker in " + std::string(colour.name) + ", fällt normal aus.";
                    break;
            }
            if (rng.percent(30)) {
                // A quoted word and a comma, as shops write them ("" in the CSV).
                description += std::string(html ? "<br>" : " ") + "Passt zum Gürtel \"" + std::string(rng.pick(kTipWords)) +
                               "\", Pflege bei 30 °C.";
            }
            if (html) description += "</p>";

            uint32_t count = std::min<uint32_t>(static_cast<uint32_t>(sizes.size()), 4 + rng.below(3));
            uint32_t first = rng.below(static_cast<uint32_t>(sizes.size()) - count + 1);
            for (uint32_t s = 0; s < count && index < rows; ++s, ++index) {
                std::string_view size = sizes[first + s];
                uint32_t stock = rng.percent(12) ? 0 : rng.between(1, 40);
                row[kSku] = mainSku + "-" + std::to_string(first + s + 1);
                row[kMainSku] = mainSku;
                row[kModel] = model;
                row[kStock] = std::to_string(stock);
                row[kVariant] = std::string(size);
                row[kName] = name;
                row[kRetail] = std::to_string(retail);
                row[kDiscount] = std::to_string(discount);
                row[kDeeplink] = "https://www.shop.example/" + urlStem + "?size=" + slugOf(size);
                row[kImage] = "https://img.shop.example/" + slugOf(mainSku) + "/1200.jpg";
                row[kThumbnail] = "https://img.shop.example/" + slugOf(mainSku) + "/300.jpg";
                row[kCategory] = category;
                row[kMarke] = std::string(brand.name);
                row[kFarbe] = std::string(colour.name);
                row[kBeschreibung] = description;
                row[kMaterial] = std::string(material);
                row[kStil] = std::string(style);
                row[kPassform] = std::string(fit);
                row[kAbteilung] = std::string(dept->german);
                row[kFarbspektrum] = std::string(colour.spectrum);
                row[kSaison] = std::string(season);
                row[kEan] = eanFor((index + 1) * 2654435761ULL % 10000000000ULL);
                row[kKategorie2] = std::string(type.kategorie2);
                row[kMuster] = std::string(pattern);
                row[kLowest] = lowest;
                full.writeRow(row);
                if (index % 4096 == 0) stopIfInterrupted();

                // In each block of 100 rows, one row changes for the delta and another for (c2).
                if (index % 100 == 0) {
                    deltaOffset = pickRng.below(100);
                    changedOffset = (deltaOffset + 1 + pickRng.below(99)) % 100;
                }
                uint32_t offset = static_cast<uint32_t>(index % 100);
                if (offset == deltaOffset) {
                    changeStockAndPrice(row, changeRng);
                    delta.writeRow(row);
                    ++feeds.deltaRows;
                    fullChanged.writeRow(row);  // after (c) the catalog holds the delta's values
                } else if (offset == changedOffset) {
                    changeStockAndPrice(row, changeRng);
                    fullChanged.writeRow(row);
                    ++feeds.changedRows;
                } else {
                    fullChanged.writeRow(row);
                }
            }
        }
    }
    full.close();
    delta.close();
    fullChanged.close();
    feeds.rows = rows;
    feeds.fullBytes = full.bytes();
    feeds.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return feeds;
}

// ---------------------------------------------------------------------------------------------------------------
// Children: fork/execv, timed with steady_clock, resources from wait4().

struct ChildRun {
    double seconds = 0;
    long maxRssKiB = 0;
    double userSeconds = 0;
    double systemSeconds = 0;
    std::string out;
    std::string err;
};

// Runs argv[0] with the arguments; stdin from stdinPath (or /dev/null), stdout and stderr into files in workDir.
ChildRun runChild(const std::string& step, const std::vector<std::string>& argv, const std::string& workDir,
                  const std::string& stdinPath = "/dev/null") {
    std::string tag = workDir + "/" + step;
    std::string outPath = tag + ".stdout", errPath = tag + ".stderr";

    // Let the previous step's dirty pages reach the disk before the clock starts, so no step pays for another.
    ::sync();
    auto started = std::chrono::steady_clock::now();
    pid_t pid = spawn(step, argv, outPath, errPath, {}, stdinPath);
    int status = 0;
    struct rusage usage {};
    bool forwarded = false;
    while (::wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) throw StepFailure(step + ": wait4 failed: " + std::strerror(errno));
        if (interrupted && !forwarded) {
            ::kill(pid, SIGTERM);  // a SIGTERM sent to the bench alone must stop its child too
            forwarded = true;
        }
    }
    stopIfInterrupted();
    ChildRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.maxRssKiB = usage.ru_maxrss;
    run.userSeconds = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
    run.systemSeconds = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
    run.out = readWholeFile(outPath);
    run.err = readWholeFile(errPath);
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        std::string how = describeStatus(status);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) how += " (could not execute " + argv[0] + ")";
        std::string message = step + " failed: `" + commandLine(argv) + "` " + how;
        std::string tail = lastLines(run.err, 10);
        if (!tail.empty()) message += "\n  stderr: " + tail;
        throw StepFailure(message);
    }
    return run;
}

nlohmann::json parseJsonOutput(const std::string& step, const ChildRun& run) {
    auto json = nlohmann::json::parse(run.out, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        throw StepFailure(step + ": expected a JSON object on stdout, got: " + lastLines(run.out, 5));
    }
    return json;
}

int64_t jsonCount(const nlohmann::json& report, const char* key) {
    auto it = report.find(key);
    if (it == report.end() || !it->is_number_integer()) return -1;
    return it->get<int64_t>();
}

std::string countsLine(const nlohmann::json& report) {
    std::string line;
    for (const char* key : {"rowsRead", "inserted", "updated", "unchanged", "rejected", "markedDeleted"}) {
        if (!line.empty()) line += ", ";
        int64_t value = jsonCount(report, key);
        line += std::string(key) + " " + (value < 0 ? std::string("?") : withThousands(static_cast<uint64_t>(value)));
    }
    return line;
}

// The counts that make the run meaningful: all rows read, none rejected. Other mismatches are reported, not fatal.
void checkReport(const std::string& step, const nlohmann::json& report, int64_t rowsRead,
                 std::vector<std::pair<const char*, int64_t>> expected, std::vector<std::string>& notes) {
    if (jsonCount(report, "rowsRead") != rowsRead || jsonCount(report, "rejected") != 0) {
        std::string message = step + ": expected rowsRead " + std::to_string(rowsRead) + " and rejected 0; got " +
                              countsLine(report);
        if (report.contains("errors") && report["errors"].is_array() && !report["errors"].empty()) {
            message += "\n  first error: " + report["errors"][0].dump();
        }
        throw StepFailure(message);
    }
    for (const auto& [key, value] : expected) {
        if (jsonCount(report, key) != value) {
            notes.push_back(step + ": expected " + key + " " + withThousands(static_cast<uint64_t>(value)) + ", got " +
                            countsLine(report));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------

struct Options {
    uint64_t rows = 1000000;
    bool keep = false;
    std::string server = std::string(SVC_BUILD_BIN_DIR) + "/svc-server";
    // PostgreSQL instead of the data dir's SQLite (issue 24): svc-server gets --database-url, the floor is psql's \copy.
    std::string databaseUrl = [] {
        const char* url = std::getenv("SVC_BENCH_DATABASE_URL");
        return std::string(url ? url : "");
    }();
};

void printHelp() {
    std::cout <<
        R"(bench-feed-import: svc-server's feed import against the sqlite3 shell's .import (the floor)

Usage: bench-feed-import [--rows N] [--keep] [--server PATH] [--database-url URL]

Generates a deterministic fashion-shop feed (25 columns, ';'-separated, every value quoted, ~5 sizes per main SKU)
into a temporary directory under /tmp, then times in one run:
  (a)  sqlite3 .import of the feed into a bare table (rollback journal, synchronous=NORMAL, one transaction): the floor
  (b)  svc-server feed import of the full feed into a fresh data dir            target <= 1.5x (a)
  (c)  svc-server feed import --delta of 1% of the rows (stock, discount-price)  target < 10% of (b)
  (c2) the full feed again with another 1% of the rows changed                  informational
  (d)  peak RSS of svc-server in (b), (c), (c2)                                  target < 300 MiB

Options:
  --rows N       rows (variants) in the feed, at least 100 (default 1000000)
  --keep         keep the temporary directory (feeds, databases, outputs)
  --server PATH  svc-server binary (default )"
              << SVC_BUILD_BIN_DIR << R"(/svc-server)
  --database-url URL  import into PostgreSQL (a schema of its own, dropped afterwards; also SVC_BENCH_DATABASE_URL):
                 svc-server runs with --database-url, and the floor (a) is psql's \copy of the feed into a bare table
                 (FORMAT csv, one text column per feed column, no key), PostgreSQL's own COPY
  --help         this text

Needs the sqlite3 shell (Debian package sqlite3) on PATH, or psql (postgresql-client) with --database-url. Exit status: 0 when every step ran (PASS or FAIL is a
measurement), 1 when a step failed to run, 2 on a bad command line.
)";
}

// Returns 0 to continue, or an exit status.
int parseOptions(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&](const char* name) -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            printHelp();
            return -1;
        } else if (arg == "--keep") {
            options.keep = true;
        } else if (arg == "--rows" || arg.rfind("--rows=", 0) == 0) {
            std::string text = arg == "--rows" ? value("--rows") : arg.substr(7);
            text.erase(std::remove(text.begin(), text.end(), ','), text.end());
            text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 12) {
                throw std::invalid_argument("--rows: '" + text + "' is not a whole number");
            }
            options.rows = std::stoull(text);
            if (options.rows < 100) throw std::invalid_argument("--rows: at least 100 (the delta is 1% of the rows)");
        } else if (arg == "--database-url" || arg.rfind("--database-url=", 0) == 0) {
            options.databaseUrl = arg == "--database-url" ? value("--database-url") : arg.substr(15);
        } else if (arg == "--server" || arg.rfind("--server=", 0) == 0) {
            options.server = arg == "--server" ? value("--server") : arg.substr(9);
        } else {
            throw std::invalid_argument("unknown argument '" + arg + "' (see --help)");
        }
    }
    return 0;
}

int run(const Options& options) {
    const bool postgres = !options.databaseUrl.empty();
    std::string sqlite3 = findInPath("sqlite3");
    if (sqlite3.empty() && !postgres) throw StepFailure("the sqlite3 shell is not on PATH (Debian package sqlite3)");
    std::string psql = postgres ? findInPath("psql") : "";
    if (postgres && psql.empty()) throw StepFailure("psql is not on PATH (Debian package postgresql-client)");

    TempDir temp = createTempDir("bench-feed-import", options.keep);
    const std::string& dir = temp.path;
    std::vector<std::string> notes;
    std::string server = privateServerCopy(options.server, dir);

    std::string sqliteVersion = postgres ? "" : lastLines(runChild("sqlite3-version", {sqlite3, "--version"}, dir).out, 1);
    sqliteVersion = sqliteVersion.substr(0, sqliteVersion.find(' '));
    // PostgreSQL: a schema of this run's own (the server may hold other data), dropped at the end.
    const std::string schema = "bench_feed_import_" + std::to_string(::getpid());
    const std::string schemaUrl =
        options.databaseUrl + (options.databaseUrl.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + schema;
    auto psqlRun = [&](const std::string& step, const std::string& url, const std::string& command) {
        ChildRun run = runChild(step, {psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", url, "-c", command}, dir);
        if (!run.err.empty() && run.err.find("ERROR") != std::string::npos) throw StepFailure(step + ": " + lastLines(run.err, 3));
        return run;
    };
    struct DropSchema {
        std::function<void()> drop;
        ~DropSchema() {
            if (drop) drop();
        }
    } dropSchema;
    if (postgres) {
        psqlRun("pg-create-schema", options.databaseUrl, "CREATE SCHEMA " + schema);
        dropSchema.drop = [&] { (void)runChild("pg-drop-schema", {psql, "-X", "-q", options.databaseUrl, "-c", "DROP SCHEMA " + schema + " CASCADE"}, dir); };
    }

    // Feeds (~2.1x the full feed), the floor's database (~1x) and svc's data dir with its WAL (~3x).
    uint64_t needBytes = options.rows * 560 * 6;
    if (struct statvfs disk {}; ::statvfs(dir.c_str(), &disk) == 0 &&
                                static_cast<uint64_t>(disk.f_bavail) * disk.f_frsize < needBytes) {
        throw StepFailure("about " + fixed(mib(needBytes) / 1024, 1) + " GiB are needed in /tmp; only " +
                          fixed(mib(static_cast<uint64_t>(disk.f_bavail) * disk.f_frsize) / 1024, 1) + " GiB are free");
    }

    std::cout << "bench-feed-import: generating " << withThousands(options.rows) << " rows in " << dir << " ..." << std::flush;
    GeneratedFeeds feeds = generateFeeds(dir, options.rows);
    std::cout << " " << fixed(feeds.seconds, 1) << " s\n" << std::flush;
    auto progress = [](const char* step) { std::cout << "  running " << step << " ..." << std::flush; };
    auto progressDone = [](const ChildRun& run) { std::cout << " " << fixed(run.seconds, 2) << " s\n" << std::flush; };

    // (a) The floor.
    std::string floorDb = dir + "/floor.sqlite3";
    std::string floorScript = dir + "/floor-import.sql";
    {
        std::ofstream script(floorScript);
        // The shell's default rollback journal, as svc's initial load uses (ADR 0012): a WAL
        // floor would write every page twice and flatter svc.
        script << "PRAGMA journal_mode=DELETE;\nPRAGMA synchronous=NORMAL;\nCREATE TABLE t(";
        for (size_t i = 0; i < kColumnCount; ++i) script << (i ? ", " : "") << '"' << kColumns[i] << "\" TEXT";
        script << ");\nBEGIN;\n.mode csv\n.separator \";\"\n.import --skip 1 \"" << feeds.full << "\" t\nCOMMIT;\n";
        if (!script) throw StepFailure("cannot write " + floorScript);
    }
    ChildRun floor;
    if (postgres) {
        std::string table = "CREATE TABLE t(";
        for (size_t i = 0; i < kColumnCount; ++i) table += std::string(i ? ", " : "") + '"' + std::string(kColumns[i]) + "\" text";
        psqlRun("a-pg-create-table", schemaUrl, table + ")");
        progress("(a) psql \\copy");
        floor = psqlRun("a-pg-copy", schemaUrl, "\\copy t FROM '" + feeds.full + "' (FORMAT csv, HEADER true, DELIMITER ';')");
        progressDone(floor);
        std::string count = psqlRun("a-pg-count", schemaUrl, "SELECT count(*) FROM t").out;
        if (count.substr(0, count.find('\n')) != std::to_string(feeds.rows)) {
            throw StepFailure("(a) psql \\copy: the table holds " + count + " rows, expected " + std::to_string(feeds.rows));
        }
    } else {
        progress("(a) sqlite3 .import");
        floor = runChild("a-sqlite3-import", {sqlite3, "-bail", "-batch", floorDb}, dir, floorScript);
        progressDone(floor);
    }
    if (!floor.err.empty()) notes.push_back("(a) the floor wrote to stderr: " + lastLines(floor.err, 3));
    if (!postgres) {
        ChildRun count = runChild("a-sqlite3-count", {sqlite3, "-batch", floorDb, "SELECT count(*) FROM t;"}, dir);
        std::string text = count.out.substr(0, count.out.find('\n'));
        if (text != std::to_string(feeds.rows)) {
            throw StepFailure("(a) sqlite3 .import: the table holds " + text + " rows, expected " + std::to_string(feeds.rows));
        }
    }

    // (b) Full import into a fresh data dir.
    std::string dataDir = dir + "/svc-data";
    std::vector<std::string> storage{"--data-dir", dataDir};
    if (postgres) storage.insert(storage.end(), {"--database-url", schemaUrl});
    std::vector<std::string> createArgs{server, "tenant", "create"};
    createArgs.insert(createArgs.end(), storage.begin(), storage.end());
    createArgs.insert(createArgs.end(), {"--name", "bench"});
    ChildRun created = runChild("b-tenant-create", createArgs, dir);
    auto tenant = parseJsonOutput("tenant create", created);
    if (!tenant.contains("apiId") || !tenant["apiId"].is_string()) {
        throw StepFailure("tenant create: no apiId in its output: " + lastLines(created.out, 5));
    }
    std::string apiId = tenant["apiId"].get<std::string>();
    auto importArgs = [&](const std::string& file, bool isDelta) {
        std::vector<std::string> args{server, "feed", "import"};
        args.insert(args.end(), storage.begin(), storage.end());
        args.insert(args.end(), {"--api-id", apiId});
        if (isDelta) args.push_back("--delta");
        args.push_back(file);
        return args;
    };
    int64_t n = static_cast<int64_t>(feeds.rows);
    // One timed import step: run it, read its JSON report, check the counts it must report.
    auto timedImport = [&](const char* step, const std::string& tag, const std::string& file, bool isDelta,
                           int64_t rowsRead, const std::vector<std::pair<const char*, int64_t>>& expected) {
        progress(step);
        ChildRun run = runChild(tag, importArgs(file, isDelta), dir);
        progressDone(run);
        auto report = parseJsonOutput(step, run);
        checkReport(step, report, rowsRead, expected, notes);
        return std::pair<ChildRun, nlohmann::json>{run, report};
    };
    auto [fullRun, fullReport] =
        timedImport("(b) svc full import", "b-svc-full-import", feeds.full, false, n, {{"inserted", n}, {"markedDeleted", 0}});

    // (c) Delta with 1% of the rows.
    int64_t deltaRows = static_cast<int64_t>(feeds.deltaRows);
    auto [deltaRun, deltaReport] = timedImport("(c) svc delta import", "c-svc-delta-import", feeds.delta, true, deltaRows,
                                               {{"updated", deltaRows}, {"inserted", 0}});

    // (c2) The full feed again, 1% changed.
    int64_t changedRows = static_cast<int64_t>(feeds.changedRows);
    auto [changedRun, changedReport] =
        timedImport("(c2) svc full feed, 1% changed", "c2-svc-full-1pct-import", feeds.fullChanged, false, n,
                    {{"updated", changedRows}, {"unchanged", n - changedRows}, {"inserted", 0}, {"markedDeleted", 0}});
    std::cout << "\n";

    std::error_code sizeError;
    uint64_t svcDbBytes = 0;
    for (const auto& entry : fs::directory_iterator(dataDir, sizeError)) {
        if (entry.is_regular_file()) svcDbBytes += entry.file_size();
    }
    uint64_t floorDbBytes = fs::file_size(floorDb, sizeError);

    // ---- The table.
    double ratioB = fullRun.seconds / floor.seconds;
    double shareC = deltaRun.seconds / fullRun.seconds;
    double shareC2 = changedRun.seconds / fullRun.seconds;
    double rssFull = fullRun.maxRssKiB / 1024.0, rssDelta = deltaRun.maxRssKiB / 1024.0, rssChanged = changedRun.maxRssKiB / 1024.0;
    double rssPeak = std::max({rssFull, rssDelta, rssChanged});
    auto passFail = [](bool pass) { return pass ? "PASS" : "FAIL"; };
    auto secs = [](double s) { return padLeft(fixed(s, s < 10 ? 2 : 1) + " s", 9); };
    auto pct = [](double share) { return fixed(100.0 * share, share < 0.1 ? 1 : 0) + "%"; };
    const size_t label = 34;

    std::cout << "feed: " << withThousands(feeds.rows) << " rows (" << withThousands(feeds.mainSkus) << " main SKUs), "
              << kColumnCount << " columns, " << fixed(mib(feeds.fullBytes), 0) << " MiB ("
              << fixed(static_cast<double>(feeds.fullBytes) / static_cast<double>(feeds.rows), 0) << " bytes/row); delta "
              << withThousands(feeds.deltaRows) << " rows; generated in " << fixed(feeds.seconds, 1) << " s\n";
    std::cout << padRight(postgres ? "(a) psql \\copy (floor)" : "(a) sqlite3 .import (floor)", label) << secs(floor.seconds) << "   1.00x\n";
    std::cout << padRight("(b) svc full import", label) << secs(fullRun.seconds) << "   " << padRight(fixed(ratioB, 2) + "x of (a)", 15)
              << " target <= 1.5x   " << passFail(ratioB <= 1.5) << "\n";
    std::cout << padRight("(c) svc delta import, 1% rows", label) << secs(deltaRun.seconds) << "   "
              << padRight(pct(shareC) + " of (b)", 15) << " target < 10%     " << passFail(shareC < 0.10) << "\n";
    std::cout << padRight("(c2) svc full feed, 1% changed", label) << secs(changedRun.seconds) << "   "
              << padRight(pct(shareC2) + " of (b)", 15) << " (informational)\n";
    std::cout << "(d) peak RSS: full " << fixed(rssFull, 0) << " MiB, delta " << fixed(rssDelta, 0) << " MiB, full-1% "
              << fixed(rssChanged, 0) << " MiB    target < 300 MiB  " << passFail(rssPeak < 300) << "\n";

    std::cout << "\ndetails\n";
    auto cpu = [](const ChildRun& r) {
        return "user " + fixed(r.userSeconds, 2) + " s, sys " + fixed(r.systemSeconds, 2) + " s, waiting " +
               fixed(std::max(0.0, r.seconds - r.userSeconds - r.systemSeconds), 2) + " s";
    };
    // PostgreSQL's work is in the server, not in the psql or svc-server processes these figures are about.
    std::cout << "  (a)  CPU: " << cpu(floor) << "; peak RSS " << fixed(floor.maxRssKiB / 1024.0, 0) << " MiB"
              << (postgres ? std::string(" (psql; the server's CPU is not counted)") : "; database " + fixed(mib(floorDbBytes), 0) + " MiB") << "\n";
    std::cout << "  (b)  CPU: " << cpu(fullRun) << "; data dir " << fixed(mib(svcDbBytes), 0) << " MiB after (c2)\n";
    std::cout << "  (c)  CPU: " << cpu(deltaRun) << "\n";
    std::cout << "  (c2) CPU: " << cpu(changedRun) << "\n";
    std::cout << "  (b)  report: " << countsLine(fullReport) << "\n";
    std::cout << "  (c)  report: " << countsLine(deltaReport) << "\n";
    std::cout << "  (c2) report: " << countsLine(changedReport) << " (" << withThousands(feeds.changedRows)
              << " rows differ from the catalog after (c))\n";
    if (postgres) {
        std::cout << "  (a) ran: psql URL -c \"\\copy t FROM 'feed-full.csv' (FORMAT csv, HEADER true, DELIMITER ';')\"  (t: "
                  << kColumnCount << " text columns, no key, in schema " << schema << ")\n";
        std::cout << "  (b), (c), (c2) ran with --database-url URL (schema " << schema << "), the data dir holding only keys\n";
    } else {
        std::cout << "  (a) ran: " << sqlite3 << " -bail -batch floor.sqlite3 < floor-import.sql  (sqlite3 " << sqliteVersion << ")\n";
    }
    if (!postgres) {
        std::ifstream script(floorScript);
        std::string line;
        while (std::getline(script, line)) {
            if (line.rfind(".import", 0) == 0) line = ".import --skip 1 feed-full.csv t";
            if (line.rfind("CREATE TABLE", 0) == 0) line = "CREATE TABLE t(\"sku\" TEXT, \"main-sku\" TEXT, ... 25 TEXT columns, no key, no index);";
            std::cout << "        " << line << "\n";
        }
    }
    std::cout << "  (b) ran: svc-server feed import --data-dir D --api-id ID feed-full.csv  (fresh D, after tenant create)\n";
    std::cout << "  (c) ran: svc-server feed import --data-dir D --api-id ID --delta feed-delta-1pct.csv\n";
    std::cout << "  (c2) ran: svc-server feed import --data-dir D --api-id ID feed-full-1pct-changed.csv\n";
    std::cout << "  svc-server: " << options.server << " (run as a copy made at the start, so a rebuild during the run\n"
                 "  cannot mix two versions)\n";
    std::cout << "  timing: steady_clock around fork..wait4, sync() before each step; RSS from wait4's ru_maxrss, which\n"
                 "  also counts the forked bench before execv (bench peak RSS "
              << [] {
                     struct rusage self {};
                     ::getrusage(RUSAGE_SELF, &self);
                     return fixed(self.ru_maxrss / 1024.0, 0);
                 }()
              << " MiB)\n";
    for (const auto& note : notes) std::cout << "  note: " << note << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-feed-import", argc, argv, parseOptions, run); }
