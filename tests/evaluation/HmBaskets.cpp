#include "evaluation/HmBaskets.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "evaluation/FashionCatalog.hpp"

namespace svc::evaluation {
namespace {

bool readFile(const std::string& path, std::string& text, std::string& whyNot) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        whyNot = path + ": cannot be read";
        return false;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    return true;
}

// Column positions by header name; false (naming the column) when one is missing.
bool findColumns(const CsvRow& header, const std::vector<std::string>& names, std::vector<size_t>& positions, const std::string& file,
                 std::string& whyNot) {
    positions.clear();
    for (const auto& name : names) {
        size_t found = header.fields.size();
        for (size_t i = 0; i < header.fields.size(); ++i) {
            if (header.fields[i] == name) found = i;
        }
        if (found == header.fields.size()) {
            whyNot = file + ": no column '" + name + "'";
            return false;
        }
        positions.push_back(found);
    }
    return true;
}

std::string csvQuoted(std::string_view value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string departmentOf(const std::string& indexGroup) {
    if (indexGroup == "Ladieswear" || indexGroup == "Divided") return "Women";
    if (indexGroup == "Menswear") return "Men";
    if (indexGroup == "Baby/Children") return "Kids";
    return indexGroup;
}

}  // namespace

std::string defaultHmBasketsPath() { return std::string(SVC_SOURCE_DIR) + "/../shared/data/hm-baskets"; }

std::optional<HmBaskets> HmBaskets::load(const std::string& directory, std::string& whyNot) {
    HmBaskets data;
    std::string text;
    const std::string articlesPath = directory + "/articles.csv";
    if (!readFile(articlesPath, text, whyNot)) return std::nullopt;
    auto rows = readCsv(text, ',', whyNot);
    if (!rows || rows->empty()) {
        whyNot = articlesPath + ": " + (rows ? "empty" : whyNot);
        return std::nullopt;
    }
    std::vector<size_t> at;
    if (!findColumns(rows->front(),
                     {"article_id", "product_code", "prod_name", "product_type_name", "product_group_name", "colour_group_name",
                      "graphical_appearance_name", "department_name", "index_group_name", "section_name", "detail_desc"},
                     at, articlesPath, whyNot))
        return std::nullopt;
    for (size_t r = 1; r < rows->size(); ++r) {
        const auto& fields = (*rows)[r].fields;
        if (fields.size() != rows->front().fields.size()) {
            whyNot = articlesPath + ":" + std::to_string((*rows)[r].line) + ": " + std::to_string(fields.size()) + " fields";
            return std::nullopt;
        }
        HmArticle article{fields[at[0]], fields[at[1]], fields[at[2]], fields[at[3]], fields[at[4]], fields[at[5]],
                          fields[at[6]], fields[at[7]], fields[at[8]], fields[at[9]], fields[at[10]], 0};
        if (article.id.empty() || !data.byMainSku_.emplace(article.mainSku(), data.articles_.size()).second) {
            whyNot = articlesPath + ":" + std::to_string((*rows)[r].line) + ": blank or repeated article_id";
            return std::nullopt;
        }
        data.articles_.push_back(std::move(article));
    }

    const std::string transactionsPath = directory + "/transactions.csv";
    if (!readFile(transactionsPath, text, whyNot)) return std::nullopt;
    rows = readCsv(text, ',', whyNot);
    if (!rows || rows->empty()) {
        whyNot = transactionsPath + ": " + (rows ? "empty" : whyNot);
        return std::nullopt;
    }
    if (!findColumns(rows->front(), {"customer_id", "article_id", "price"}, at, transactionsPath, whyNot)) return std::nullopt;
    std::map<std::string, size_t> basketOf;
    std::vector<double> priceSum(data.articles_.size(), 0);
    std::vector<size_t> priceCount(data.articles_.size(), 0);
    for (size_t r = 1; r < rows->size(); ++r) {
        const auto& fields = (*rows)[r].fields;
        const std::string where = transactionsPath + ":" + std::to_string((*rows)[r].line);
        if (fields.size() != rows->front().fields.size()) {
            whyNot = where + ": " + std::to_string(fields.size()) + " fields";
            return std::nullopt;
        }
        auto article = data.indexOfMainSku("H" + fields[at[1]]);
        if (!article) {
            whyNot = where + ": article_id " + fields[at[1]] + " is not in articles.csv";
            return std::nullopt;
        }
        char* end = nullptr;
        double price = std::strtod(fields[at[2]].c_str(), &end);
        if (end == fields[at[2]].c_str() || *end != '\0' || !(price > 0)) {
            whyNot = where + ": price '" + fields[at[2]] + "' is not a positive number";
            return std::nullopt;
        }
        priceSum[*article] += price;
        priceCount[*article] += 1;
        auto [found, fresh] = basketOf.emplace(fields[at[0]], 0);
        if (fresh) found->second = data.baskets_.size(), data.baskets_.push_back({fields[at[0]], {}});
        auto& lines = data.baskets_[found->second].articles;
        if (std::find(lines.begin(), lines.end(), *article) == lines.end()) lines.push_back(*article);
    }
    for (size_t i = 0; i < data.articles_.size(); ++i) {
        // Every article of articles.csv was bought; one that was not still gets a price to be shown.
        double mean = priceCount[i] ? priceSum[i] / static_cast<double>(priceCount[i]) : 0.0002;
        data.articles_[i].priceCents = std::max<int64_t>(1, std::llround(mean * 100000));
    }
    std::sort(data.baskets_.begin(), data.baskets_.end(), [](const auto& a, const auto& b) { return a.customer < b.customer; });
    return data;
}

std::optional<size_t> HmBaskets::indexOfMainSku(std::string_view mainSku) const {
    auto found = byMainSku_.find(mainSku);
    if (found == byMainSku_.end()) return std::nullopt;
    return found->second;
}

std::string HmBaskets::feedCsv() const {
    std::string out = "sku;main-sku;model;stock;variant;name;retail-price;deeplink;image;category-path;farbe;beschreibung;abteilung\n";
    for (const auto& a : articles_) {
        const std::string path = a.indexGroup + " > " + a.productGroup + " > " + a.productType;
        const std::vector<std::string> values{a.sku(),
                                              a.mainSku(),
                                              "P" + a.productCode,
                                              "10",
                                              "OS",
                                              a.name,
                                              std::to_string(a.priceCents),
                                              "https://hm.example/p/" + a.id,
                                              "https://hm.example/img/" + a.id + ".jpg",
                                              path,
                                              a.colour,
                                              a.description,
                                              departmentOf(a.indexGroup)};
        for (size_t i = 0; i < values.size(); ++i) out += (i ? ";" : "") + csvQuoted(values[i]);
        out += '\n';
    }
    return out;
}

}  // namespace svc::evaluation
