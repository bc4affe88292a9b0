#include "evaluation/FashionCatalog.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <utility>

#include "evaluation/EvalRandom.hpp"

#ifndef SVC_SOURCE_DIR
#error "tests/evaluation needs the compile definition SVC_SOURCE_DIR (the repository root)"
#endif

namespace svc::evaluation {

std::string defaultFashionCatalogPath() { return std::string(SVC_SOURCE_DIR) + "/../shared/data/fashion/catalog.csv"; }

// ---------------------------------------------------------------------------
// RFC 4180 reader

namespace {

bool isLineEnd(std::string_view text, size_t pos) {
    return text[pos] == '\n' || (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n');
}

// Advances past the line end at `pos` (LF or CRLF).
size_t skipLineEnd(std::string_view text, size_t pos) { return pos + (text[pos] == '\r' ? 2 : 1); }

std::string lineError(size_t line, std::string_view message) { return "line " + std::to_string(line) + ": " + std::string(message); }

}  // namespace

std::optional<std::vector<CsvRow>> readCsv(std::string_view text, char delimiter, std::string& whyNot) {
    std::vector<CsvRow> rows;
    size_t pos = 0;
    size_t line = 1;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
    const size_t size = text.size();
    while (pos < size) {
        if (isLineEnd(text, pos)) {  // an empty line
            pos = skipLineEnd(text, pos);
            ++line;
            continue;
        }
        CsvRow row;
        row.line = line;
        for (;;) {
            std::string field;
            if (pos < size && text[pos] == '"') {
                const size_t quoteLine = line;
                ++pos;
                for (;;) {
                    size_t quote = text.find('"', pos);
                    if (quote == std::string_view::npos) {
                        whyNot = lineError(quoteLine, "field " + std::to_string(row.fields.size() + 1) + ": quoted value is never closed");
                        return std::nullopt;
                    }
                    std::string_view chunk = text.substr(pos, quote - pos);
                    line += static_cast<size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
                    field.append(chunk);
                    pos = quote + 1;
                    if (pos < size && text[pos] == '"') {  // "" is one quote
                        field += '"';
                        ++pos;
                        continue;
                    }
                    break;
                }
                if (pos < size && text[pos] != delimiter && !isLineEnd(text, pos)) {
                    whyNot = lineError(line, "field " + std::to_string(row.fields.size() + 1) + ": unexpected character '" +
                                                 std::string(1, text[pos]) + "' after a closing quote");
                    return std::nullopt;
                }
            } else {
                const size_t start = pos;
                while (pos < size && text[pos] != delimiter && text[pos] != '"' && !isLineEnd(text, pos)) ++pos;
                if (pos < size && text[pos] == '"') {
                    whyNot = lineError(line, "field " + std::to_string(row.fields.size() + 1) +
                                                 ": a quote inside an unquoted value (RFC 4180 wants the value quoted)");
                    return std::nullopt;
                }
                field.assign(text.substr(start, pos - start));
            }
            row.fields.push_back(std::move(field));
            if (pos >= size) break;
            if (text[pos] == delimiter) {
                ++pos;  // a delimiter right before the end of the text still opens an (empty) field
                continue;
            }
            pos = skipLineEnd(text, pos);
            ++line;
            break;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

// ---------------------------------------------------------------------------
// Loading

namespace {

enum Column : size_t { Id, Gender, MasterCategory, SubCategory, ArticleType, BaseColour, Season, Year, Usage, DisplayName, ColumnCount };
constexpr std::array<std::string_view, ColumnCount> kColumnNames{
    "id", "gender", "masterCategory", "subCategory", "articleType", "baseColour", "season", "year", "usage", "productDisplayName"};

std::string firstWord(std::string_view text) {
    size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) return {};
    size_t end = text.find(' ', start);
    return std::string(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
}

}  // namespace

std::optional<FashionCatalog> FashionCatalog::load(const std::string& csvPath, std::string& whyNot) {
    std::ifstream in(csvPath, std::ios::binary);
    if (!in) {
        whyNot = csvPath + ": cannot open the file (" + std::strerror(errno) + ")";
        return std::nullopt;
    }
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) {
        whyNot = csvPath + ": read error";
        return std::nullopt;
    }
    auto catalog = fromCsvText(content.str(), whyNot);
    if (!catalog) whyNot = csvPath + ": " + whyNot;
    return catalog;
}

std::optional<FashionCatalog> FashionCatalog::fromCsvText(std::string_view csvText, std::string& whyNot) {
    auto rows = readCsv(csvText, ',', whyNot);
    if (!rows) return std::nullopt;
    if (rows->empty()) {
        whyNot = "the catalog is empty (no header)";
        return std::nullopt;
    }
    const std::vector<std::string>& header = rows->front().fields;
    std::array<size_t, ColumnCount> at{};
    for (size_t column = 0; column < ColumnCount; ++column) {
        auto found = std::find(header.begin(), header.end(), kColumnNames[column]);
        if (found == header.end()) {
            whyNot = lineError(rows->front().line, "header: column '" + std::string(kColumnNames[column]) + "' is missing");
            return std::nullopt;
        }
        at[column] = static_cast<size_t>(found - header.begin());
    }

    FashionCatalog catalog;
    catalog.items_.reserve(rows->size() - 1);
    for (size_t r = 1; r < rows->size(); ++r) {
        CsvRow& row = (*rows)[r];
        if (row.fields.size() != header.size()) {
            whyNot = lineError(row.line, "expected " + std::to_string(header.size()) + " fields, found " + std::to_string(row.fields.size()));
            return std::nullopt;
        }
        auto take = [&](Column column) {
            std::string& value = row.fields[at[column]];
            const size_t first = value.find_first_not_of(" \t");
            if (first == std::string::npos) return std::string();
            value.erase(value.find_last_not_of(" \t") + 1);
            value.erase(0, first);
            return value == "NA" ? std::string() : std::move(value);
        };
        FashionItem item;
        item.id = take(Id);
        item.gender = take(Gender);
        item.masterCategory = take(MasterCategory);
        item.subCategory = take(SubCategory);
        item.articleType = take(ArticleType);
        item.baseColour = take(BaseColour);
        item.season = take(Season);
        std::string year = take(Year);
        item.usage = take(Usage);
        item.productDisplayName = take(DisplayName);
        if (item.id.empty()) {
            whyNot = lineError(row.line, "blank id");
            return std::nullopt;
        }
        if (!year.empty()) {
            auto [end, error] = std::from_chars(year.data(), year.data() + year.size(), item.year);
            if (error != std::errc() || end != year.data() + year.size()) {
                whyNot = lineError(row.line, "year '" + year + "' is not a number");
                return std::nullopt;
            }
        }
        item.brand = firstWord(item.productDisplayName);
        if (!catalog.indexByMainSku_.emplace(item.mainSku(), catalog.items_.size()).second) {
            whyNot = lineError(row.line, "duplicate id " + item.id);
            return std::nullopt;
        }
        catalog.items_.push_back(std::move(item));
    }
    return catalog;
}

std::vector<const FashionItem*> FashionCatalog::all() const {
    std::vector<const FashionItem*> pointers;
    pointers.reserve(items_.size());
    for (const auto& item : items_) pointers.push_back(&item);
    return pointers;
}

const FashionItem* FashionCatalog::byMainSku(std::string_view mainSku) const {
    auto found = indexByMainSku_.find(mainSku);
    return found == indexByMainSku_.end() ? nullptr : &items_[found->second];
}

// ---------------------------------------------------------------------------
// Invented offers

namespace {

// Typical price per articleType in cents (an invented, plausible band); other types
// fall back to their masterCategory's band.
int64_t basePriceCents(const FashionItem& item) {
    static const std::map<std::string_view, int64_t, std::less<>> byArticleType{
        {"Backpacks", 3999}, {"Belts", 1999}, {"Bra", 1499}, {"Briefs", 999}, {"Capris", 1999},
        {"Caps", 1299}, {"Casual Shoes", 5999}, {"Clutches", 2999}, {"Cufflinks", 1999}, {"Deodorant", 499},
        {"Dresses", 4499}, {"Dupatta", 1499}, {"Earrings", 1499}, {"Flats", 2999}, {"Flip Flops", 1499},
        {"Formal Shoes", 7999}, {"Handbags", 4999}, {"Heels", 4999}, {"Innerwear Vests", 799}, {"Jackets", 6999},
        {"Jeans", 4999}, {"Kurtas", 2999}, {"Kurtis", 1999}, {"Leggings", 1299}, {"Lipstick", 999},
        {"Nail Polish", 399}, {"Necklace and Chains", 2999}, {"Nightdress", 1999}, {"Pendant", 2999},
        {"Perfume and Body Mist", 3999}, {"Sandals", 2999}, {"Sarees", 5999}, {"Scarves", 1299}, {"Shirts", 3499},
        {"Shorts", 2499}, {"Skirts", 2499}, {"Socks", 599}, {"Sports Shoes", 7999}, {"Sunglasses", 6999},
        {"Sweaters", 4499}, {"Sweatshirts", 3999}, {"Ties", 1499}, {"Tops", 2499}, {"Track Pants", 2999},
        {"Trousers", 3999}, {"Tshirts", 1999}, {"Tunics", 2499}, {"Wallets", 2499}, {"Watches", 12999},
    };
    if (auto found = byArticleType.find(item.articleType); found != byArticleType.end()) return found->second;
    if (item.masterCategory == "Apparel") return 2499;
    if (item.masterCategory == "Footwear") return 4999;
    if (item.masterCategory == "Accessories") return 1999;
    if (item.masterCategory == "Personal Care") return 799;
    return 999;
}

// `cents` times permille/1000, rounded to whole units, minus one cent (x.99); at least 0.99.
int64_t priceEndingIn99(int64_t cents, int64_t permille) {
    int64_t units = (cents * permille + 50'000) / 100'000;
    return std::max<int64_t>(1, units) * 100 - 1;
}

const std::vector<std::string>& sizesFor(const FashionItem& item) {
    static const std::vector<std::string> apparel{"S", "M", "L", "XL"};
    static const std::vector<std::string> footwear{"6", "7", "8", "9", "10"};
    static const std::vector<std::string> oneSize{"OS"};
    if (item.masterCategory == "Apparel") return apparel;
    if (item.masterCategory == "Footwear") return footwear;
    return oneSize;
}

}  // namespace

InventedOffer FashionCatalog::inventOffer(const FashionItem& item, uint64_t seed) {
    EvalRng rng(deriveSeed(seed, stableHash(item.id)));
    InventedOffer offer;
    const auto& sizes = sizesFor(item);
    const size_t count = 1 + static_cast<size_t>(rng.below(std::min<size_t>(5, sizes.size())));
    const size_t first = static_cast<size_t>(rng.below(sizes.size() - count + 1));
    const std::string mainSku = item.mainSku();
    bool anyInStock = false;
    for (size_t i = first; i < first + count; ++i) {
        InventedVariant variant;
        variant.size = sizes[i];
        variant.sku = mainSku + "-" + sizes[i];
        variant.stock = rng.chance(0.1) ? 0 : rng.between(1, 40);
        anyInStock = anyInStock || variant.stock > 0;
        offer.variants.push_back(std::move(variant));
    }
    if (!anyInStock) offer.variants[rng.below(count)].stock = rng.between(1, 40);

    offer.retailPriceCents = priceEndingIn99(basePriceCents(item), rng.between(700, 1500));
    if (rng.chance(0.2)) {
        int64_t discount = priceEndingIn99(offer.retailPriceCents, rng.between(500, 900));
        if (discount < offer.retailPriceCents) offer.discountPriceCents = discount;
    }
    return offer;
}

std::string FashionCatalog::categoryPath(const FashionItem& item) {
    std::string path;
    for (const std::string* level : {&item.masterCategory, &item.subCategory, &item.articleType}) {
        if (level->empty()) continue;
        if (!path.empty()) path += " > ";
        path += *level;
    }
    return path;
}

// ---------------------------------------------------------------------------
// The feed

namespace {

void appendQuoted(std::string& out, std::string_view value) {
    out += '"';
    for (;;) {
        size_t quote = value.find('"');
        if (quote == std::string_view::npos) break;
        out.append(value.substr(0, quote + 1));
        out += '"';
        value.remove_prefix(quote + 1);
    }
    out.append(value);
    out += '"';
}

}  // namespace

const std::vector<std::string>& FashionCatalog::feedColumns() {
    static const std::vector<std::string> columns{
        "sku",       "main-sku", "model",         "stock", "variant", "name",      "retail-price", "discount-price", "deeplink",
        "image",     "category-path", "marke",    "farbe", "beschreibung", "abteilung", "stil",    "saison"};
    return columns;
}

size_t FashionCatalog::writtenItemCount(const FeedOptions& options) const {
    return options.maxItems == 0 ? items_.size() : std::min(options.maxItems, items_.size());
}

std::vector<bool> FashionCatalog::blankedFlags(const FeedOptions& options, size_t itemCount) const {
    std::vector<bool> blanked(itemCount, false);
    const double share = std::clamp(options.blankCategoryShare, 0.0, 1.0);
    const size_t blankCount = std::min(itemCount, static_cast<size_t>(std::llround(share * static_cast<double>(itemCount))));
    std::vector<size_t> order(itemCount);
    std::iota(order.begin(), order.end(), size_t{0});
    EvalRng rng(deriveSeed(options.seed, stableHash("blank-category-path")));
    for (size_t i = 0; i < blankCount; ++i) {  // a partial Fisher-Yates shuffle
        size_t j = i + static_cast<size_t>(rng.below(itemCount - i));
        std::swap(order[i], order[j]);
        blanked[order[i]] = true;
    }
    return blanked;
}

std::vector<std::string> FashionCatalog::blankedMainSkus(const FeedOptions& options) const {
    const size_t count = writtenItemCount(options);
    const auto blanked = blankedFlags(options, count);
    std::vector<std::string> mainSkus;
    for (size_t i = 0; i < count; ++i)
        if (blanked[i]) mainSkus.push_back(items_[i].mainSku());
    return mainSkus;
}

std::string FashionCatalog::feedCsv(const FeedOptions& options) const {
    const size_t count = writtenItemCount(options);
    const auto blanked = blankedFlags(options, count);
    std::string out;
    out.reserve(count * 3 * 320);
    const auto& columns = feedColumns();
    for (size_t c = 0; c < columns.size(); ++c) {
        if (c) out += ';';
        appendQuoted(out, columns[c]);
    }
    out += '\n';

    std::string mainSku, model, deeplink, image, path, retail, discount;
    for (size_t i = 0; i < count; ++i) {
        const FashionItem& item = items_[i];
        const InventedOffer offer = inventOffer(item, options.seed);
        mainSku = item.mainSku();
        model = item.model();
        deeplink = "https://fashion.example/p/" + item.id;
        image = "https://fashion.example/img/" + item.id + ".jpg";
        path = blanked[i] ? std::string() : categoryPath(item);
        retail = std::to_string(offer.retailPriceCents);
        discount = offer.discountPriceCents ? std::to_string(*offer.discountPriceCents) : std::string();
        for (const InventedVariant& variant : offer.variants) {
            const std::string stock = std::to_string(variant.stock);
            // beschreibung repeats the name: the catalog has no description text.
            const std::string_view values[] = {variant.sku, mainSku,    model,           stock,      variant.size,    item.productDisplayName,
                                               retail,      discount,   deeplink,        image,      path,            item.brand,
                                               item.baseColour, item.productDisplayName, item.gender, item.usage, item.season};
            static_assert(std::size(values) == 17);
            for (size_t c = 0; c < std::size(values); ++c) {
                if (c) out += ';';
                appendQuoted(out, values[c]);
            }
            out += '\n';
        }
    }
    return out;
}

}  // namespace svc::evaluation
