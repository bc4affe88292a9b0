#pragma once
// Evaluation support: the real H&M baskets of ../shared/data/hm-baskets (see its README):
// the catalog rows of the articles bought and one basket per customer (that day's lines),
// and an svc product feed generated from the catalog rows.
//
// The data has no sizes, stock, prices or URLs, so the feed INVENTS them and says so:
// one variant per article (size "OS"), stock 10, the price the mean of the article's
// transaction prices x 100,000 in cents (the README's "plausible cent value"), and
// URLs under https://hm.example/. The department (column abteilung) comes from H&M's index
// group, which a shop would state as its department: Ladieswear and Divided (H&M's young
// women's line) as "Women", Menswear as "Men", Baby/Children as "Kids", others as given.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::evaluation {

// <repo>/../shared/data/hm-baskets, from the compile definition SVC_SOURCE_DIR.
std::string defaultHmBasketsPath();

struct HmArticle {
    std::string id;           // article_id: the SKU (a colour of a model)
    std::string productCode;  // the model
    std::string name;
    std::string productType;  // e.g. Trousers
    std::string productGroup; // e.g. Garment Lower body
    std::string colour;
    std::string pattern;      // graphical_appearance_name
    std::string department;   // department_name
    std::string indexGroup;   // index_group_name
    std::string section;
    std::string description;
    int64_t priceCents = 0;   // invented: mean transaction price x 100,000

    std::string mainSku() const { return "H" + id; }
    std::string sku() const { return "H" + id + "-OS"; }
};

struct HmBasket {
    std::string customer;
    std::vector<size_t> articles;  // indices into HmBaskets::articles(), distinct, in order of first line
};

class HmBaskets {
public:
    // Reads articles.csv and transactions.csv of `directory`; fails with the reason in
    // `whyNot` (missing file, a column missing, a line naming an unknown article, ...).
    static std::optional<HmBaskets> load(const std::string& directory, std::string& whyNot);

    const std::vector<HmArticle>& articles() const { return articles_; }
    const std::vector<HmBasket>& baskets() const { return baskets_; }  // by customer id
    std::optional<size_t> indexOfMainSku(std::string_view mainSku) const;
    // The svc feed: sku, main-sku, model, stock, variant, name, retail-price, deeplink,
    // image, category-path ("index group > product group > product type"), farbe,
    // beschreibung, abteilung. Semicolon-separated, every value quoted.
    std::string feedCsv() const;

private:
    std::vector<HmArticle> articles_;
    std::vector<HmBasket> baskets_;
    std::map<std::string, size_t, std::less<>> byMainSku_;
};

}  // namespace svc::evaluation
