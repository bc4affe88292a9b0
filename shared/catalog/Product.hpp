#pragma once
// One purchasable variant (SKU) as the catalog keeps it. Content is computed per
// main SKU (model + colour); variants of one main SKU differ by size only.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace svc {

struct Product {
    std::string sku;
    std::string mainSku;
    std::string model;
    std::string variant;
    std::string name;
    std::string deeplink;
    std::string image;
    std::string thumbnail;
    std::string brand;
    std::string color;
    std::string description;
    std::vector<std::string> categoryPaths;  // breadcrumbs, e.g. "Women > Clothing > Jeans"
    int64_t stock = 0;                       // 0 = not available; a flag or a quantity
    std::optional<int64_t> retailPrice;      // cents
    std::optional<int64_t> discountPrice;    // cents, the selling price
    std::optional<int64_t> lowestPrice30d;   // cents, where the law requires it
    // Cents: the lowest selling price of the 30 days before the current price began, from svc's
    // own price history (ADR 0030). The catalog's reads leave it empty; the content host fills it
    // in for reduced variants when it builds a snapshot, so answering reads no database (ADR 0080).
    std::optional<int64_t> recordedLowestPrice30d;
    std::map<std::string, std::string> properties;  // every further feed column
    bool deleted = false;
    int64_t lastSeenAt = 0;  // when a feed last contained it (Unix time)
    bool stale = false;      // absent from every feed for over 24 hours: treated as out of stock

    bool operator==(const Product&) const = default;  // every member, including any added later

    bool available() const { return !deleted && !stale && stock > 0; }
    // The price a shopper pays: the discount price when given, else the retail price.
    std::optional<int64_t> sellingPrice() const { return discountPrice ? discountPrice : retailPrice; }
    const std::string& primaryCategory() const {
        static const std::string none;
        return categoryPaths.empty() ? none : categoryPaths.front();
    }
};

}  // namespace svc
