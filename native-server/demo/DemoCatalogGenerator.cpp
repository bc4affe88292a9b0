#include "demo/DemoCatalogGenerator.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/PrivateFiles.hpp"

namespace svc {
namespace {

struct Colour {
    const char* name;
    const char* spectrum;
    const char* hex;
};

constexpr std::array kColours{
    Colour{"Black", "dark", "#1d1d1f"},   Colour{"White", "light", "#f4f4f2"}, Colour{"Navy", "blue", "#1f2f57"},
    Colour{"Blue", "blue", "#3b6db3"},    Colour{"Red", "red", "#b8302f"},     Colour{"Green", "green", "#3d7a4a"},
    Colour{"Beige", "neutral", "#d9c6a5"}, Colour{"Grey", "neutral", "#8a8d91"}, Colour{"Brown", "brown", "#6b4a32"},
    Colour{"Pink", "red", "#e49ab0"},     Colour{"Olive", "green", "#6f7240"}, Colour{"Yellow", "yellow", "#e7c440"},
};

enum class Shape { Top, Shirt, Knit, Jacket, Trousers, Dress, Skirt, Shoe, Boot, Belt, Bag };

struct Category {
    const char* department;  // Women, Men
    const char* path;        // breadcrumb
    const char* noun;
    Shape shape;
    int priceMin;  // cents
    int priceMax;
    const char* sizes;  // comma-separated
    const char* material;
};

constexpr std::array kCategories{
    Category{"Women", "Women > Clothing > T-Shirts", "T-Shirt", Shape::Top, 1299, 3999, "XS,S,M,L,XL", "cotton"},
    Category{"Women", "Women > Clothing > Blouses", "Blouse", Shape::Shirt, 2999, 6999, "XS,S,M,L,XL", "viscose"},
    Category{"Women", "Women > Clothing > Sweaters", "Sweater", Shape::Knit, 3999, 8999, "XS,S,M,L,XL", "wool blend"},
    Category{"Women", "Women > Clothing > Jackets", "Jacket", Shape::Jacket, 5999, 17999, "XS,S,M,L,XL", "polyester"},
    Category{"Women", "Women > Clothing > Jeans", "Jeans", Shape::Trousers, 3999, 9999, "34,36,38,40,42", "denim"},
    Category{"Women", "Women > Clothing > Dresses", "Dress", Shape::Dress, 3999, 12999, "34,36,38,40,42", "viscose"},
    Category{"Women", "Women > Clothing > Skirts", "Skirt", Shape::Skirt, 2499, 6999, "34,36,38,40,42", "cotton"},
    Category{"Women", "Women > Shoes > Sneakers", "Sneakers", Shape::Shoe, 4999, 12999, "37,38,39,40,41", "leather"},
    Category{"Women", "Women > Shoes > Boots", "Boots", Shape::Boot, 7999, 19999, "37,38,39,40,41", "leather"},
    Category{"Women", "Women > Accessories > Bags", "Bag", Shape::Bag, 2999, 14999, "One Size", "faux leather"},
    Category{"Men", "Men > Clothing > T-Shirts", "T-Shirt", Shape::Top, 1299, 3999, "S,M,L,XL,XXL", "cotton"},
    Category{"Men", "Men > Clothing > Shirts", "Shirt", Shape::Shirt, 2999, 7999, "S,M,L,XL,XXL", "cotton"},
    Category{"Men", "Men > Clothing > Sweaters", "Sweater", Shape::Knit, 3999, 9999, "S,M,L,XL,XXL", "merino"},
    Category{"Men", "Men > Clothing > Jackets", "Jacket", Shape::Jacket, 6999, 19999, "S,M,L,XL,XXL", "nylon"},
    Category{"Men", "Men > Clothing > Jeans", "Jeans", Shape::Trousers, 4999, 10999, "30,32,34,36,38", "denim"},
    Category{"Men", "Men > Clothing > Chinos", "Chinos", Shape::Trousers, 3999, 8999, "30,32,34,36,38", "cotton twill"},
    Category{"Men", "Men > Shoes > Sneakers", "Sneakers", Shape::Shoe, 5999, 13999, "41,42,43,44,45", "leather"},
    Category{"Men", "Men > Shoes > Boots", "Boots", Shape::Boot, 8999, 21999, "41,42,43,44,45", "suede"},
    Category{"Men", "Men > Accessories > Belts", "Belt", Shape::Belt, 1999, 5999, "85,90,95,100", "leather"},
};

constexpr std::array kBrands{"Nordwind", "Kestrel & Co", "Fjordline", "Maison Lys", "Urbanfield", "Alder", "Corvo", "Tessera"};
constexpr std::array kStyles{"Classic", "Relaxed", "Slim", "Oversized", "Essential", "Vintage", "Cropped", "Tailored"};
constexpr std::array kFits{"regular", "relaxed", "slim", "oversized"};
constexpr int kModelsPerCategory = 16;

// Simple silhouettes per shape, drawn in the article's colour on a light card.
std::string svgFor(Shape shape, const Colour& colour, bool striped) {
    std::string fill = colour.hex;
    std::string body;
    switch (shape) {
        case Shape::Top: body = "<path d='M70 60 L100 45 L140 45 L170 60 L195 100 L170 112 L160 95 L160 250 L80 250 L80 95 L70 112 L45 100 Z'/>"; break;
        case Shape::Shirt: body = "<path d='M70 60 L105 45 L120 60 L135 45 L170 60 L190 180 L168 185 L160 110 L160 255 L80 255 L80 110 L72 185 L50 180 Z'/>"; break;
        case Shape::Knit: body = "<path d='M65 65 L105 48 L135 48 L175 65 L195 215 L172 220 L160 110 L160 255 L80 255 L80 110 L68 220 L45 215 Z'/>"; break;
        case Shape::Jacket: body = "<path d='M62 62 L104 44 L120 70 L136 44 L178 62 L198 225 L174 230 L162 120 L162 262 L78 262 L78 120 L66 230 L42 225 Z'/>"; break;
        case Shape::Trousers: body = "<path d='M80 45 L160 45 L172 270 L130 270 L120 120 L110 270 L68 270 Z'/>"; break;
        case Shape::Dress: body = "<path d='M95 45 L145 45 L150 95 L190 265 L50 265 L90 95 Z'/>"; break;
        case Shape::Skirt: body = "<path d='M85 90 L155 90 L185 230 L55 230 Z'/>"; break;
        case Shape::Shoe: body = "<path d='M40 200 L40 160 L90 150 L130 175 L195 185 L205 215 L40 215 Z'/>"; break;
        case Shape::Boot: body = "<path d='M70 80 L120 80 L122 175 L190 190 L198 225 L70 225 Z'/>"; break;
        case Shape::Belt: body = "<rect x='25' y='145' width='190' height='30' rx='6'/><rect x='95' y='138' width='44' height='44' fill='none' stroke='#c9a227' stroke-width='7'/>"; break;
        case Shape::Bag: body = "<path d='M55 120 L185 120 L195 250 L45 250 Z'/><path d='M90 120 C90 70 150 70 150 120' fill='none' stroke='" + fill + "' stroke-width='9'/>"; break;
    }
    std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' width='240' height='320' viewBox='0 0 240 320'>";
    svg += "<defs><pattern id='s' width='12' height='12' patternUnits='userSpaceOnUse'><rect width='12' height='12' fill='" + fill +
           "'/><rect width='12' height='4' fill='#ffffff' opacity='0.35'/></pattern></defs>";
    svg += "<rect width='240' height='320' fill='#f1efeb'/>";
    svg += "<g fill='" + std::string(striped ? "url(#s)" : fill) + "' stroke='#00000033' stroke-width='2'>" + body + "</g>";
    svg += "</svg>\n";
    return svg;
}

std::string toLowerAscii(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string quoted(const std::string& value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"') out += "\"\"";
        else out += c;
    }
    return out + "\"";
}

std::vector<std::string> splitSizes(const char* sizes) {
    std::vector<std::string> out;
    std::string current;
    for (const char* p = sizes; *p; ++p) {
        if (*p == ',') {
            out.push_back(current);
            current.clear();
        } else {
            current += *p;
        }
    }
    out.push_back(current);
    return out;
}

}  // namespace

Result<DemoCatalogSummary> DemoCatalogGenerator::generate(const std::string& directory) const {
    namespace fs = std::filesystem;
    std::error_code error;
    error = PrivateFiles::createDirectories((fs::path(directory) / "images").string());
    if (error) return Error::unavailable("demo catalog: cannot create " + directory + ": " + error.message());

    // Raw engine output (not std::distributions) keeps the catalog identical across standard libraries.
    std::mt19937 random(seed_);
    auto pick = [&](uint32_t bound) { return static_cast<uint32_t>(random() % bound); };

    DemoCatalogSummary summary;
    summary.feedPath = (fs::path(directory) / "feed.csv").string();
    std::ofstream feed = PrivateFiles::openForWriting(summary.feedPath);
    if (!feed) return Error::unavailable("demo catalog: cannot write " + summary.feedPath);
    const std::vector<std::string> header = {"sku", "main-sku", "model", "stock", "variant", "name", "retail-price",
                                             "discount-price", "deeplink", "image", "category-path", "marke", "farbe",
                                             "beschreibung", "material", "stil", "passform", "abteilung", "farbspektrum"};
    for (size_t i = 0; i < header.size(); ++i) feed << (i ? ";" : "") << quoted(header[i]);
    feed << "\n";

    nlohmann::json shopProducts = nlohmann::json::array();
    int modelNumber = 0;
    for (const auto& category : kCategories) {
        for (int m = 0; m < kModelsPerCategory; ++m) {
            ++modelNumber;
            const char* brand = kBrands[pick(kBrands.size())];
            const char* style = kStyles[pick(kStyles.size())];
            const char* fit = kFits[pick(kFits.size())];
            std::string model = "M" + std::to_string(10000 + modelNumber);
            std::string name = std::string(brand) + " " + style + " " + category.noun;
            int span = category.priceMax - category.priceMin;
            int retail = (category.priceMin + static_cast<int>(pick(static_cast<uint32_t>(span)))) / 100 * 100 + 99;
            bool striped = pick(5) == 0 && category.shape != Shape::Belt && category.shape != Shape::Bag;
            uint32_t colourCount = 2 + pick(2);
            uint32_t firstColour = pick(kColours.size());
            for (uint32_t c = 0; c < colourCount; ++c) {
                const Colour& colour = kColours[(firstColour + c * 5) % kColours.size()];
                std::string mainSku = model + "-" + std::string(colour.name);
                for (auto& ch : mainSku) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
                std::string imageFile = mainSku + ".svg";
                std::ofstream image = PrivateFiles::openForWriting((fs::path(directory) / "images" / imageFile).string());
                image << svgFor(category.shape, colour, striped);
                if (!image) return Error::unavailable("demo catalog: cannot write image " + imageFile);
                bool onSale = pick(10) < 3;
                int discount = onSale ? (retail * (60 + static_cast<int>(pick(30))) / 100) / 100 * 100 + 99 : retail;
                if (discount > retail) discount = retail;
                std::string description = std::string(style) + " " + toLowerAscii(category.noun) + " by " + brand + " in " +
                                          toLowerAscii(colour.name) + ", made of " + category.material + ", " + fit + " fit.";
                nlohmann::json variants = nlohmann::json::array();
                std::string firstSku;
                for (const auto& size : splitSizes(category.sizes)) {
                    std::string sku = mainSku + "-" + (size == "One Size" ? std::string("OS") : size);
                    if (firstSku.empty()) firstSku = sku;
                    int stock = pick(10) == 0 ? 0 : static_cast<int>(1 + pick(20));
                    std::string deeplink = "/demo/product.html?sku=" + sku;
                    std::vector<std::string> row = {sku, mainSku, model, std::to_string(stock), size, name + " " + colour.name,
                                                    std::to_string(retail), std::to_string(discount), deeplink,
                                                    "/demo/images/" + imageFile, category.path, brand, colour.name,
                                                    description, category.material, style, fit, category.department,
                                                    colour.spectrum};
                    for (size_t i = 0; i < row.size(); ++i) feed << (i ? ";" : "") << quoted(row[i]);
                    feed << "\n";
                    variants.push_back({{"sku", sku}, {"size", size}, {"stock", stock}});
                    ++summary.variants;
                    if (summary.firstSku.empty()) summary.firstSku = sku;
                }
                shopProducts.push_back({{"mainSku", mainSku}, {"sku", firstSku}, {"name", name + " " + colour.name},
                                        {"brand", brand}, {"category", category.path}, {"color", colour.name},
                                        {"price", discount}, {"retailPrice", retail}, {"image", "/demo/images/" + imageFile},
                                        {"description", description}, {"variants", variants}});
                ++summary.articles;
            }
        }
    }
    feed.close();
    if (!feed) return Error::unavailable("demo catalog: writing " + summary.feedPath + " failed");
    std::ofstream shop = PrivateFiles::openForWriting((fs::path(directory) / "shop.json").string());
    shop << nlohmann::json{{"products", shopProducts}}.dump() << "\n";
    if (!shop) return Error::unavailable("demo catalog: cannot write shop.json");
    return summary;
}

}  // namespace svc
