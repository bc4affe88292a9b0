#pragma once
// An article is what content is computed for: one main SKU (model + colour) with
// its variants (sizes). Widgets and GraphQL may name any SKU or the main SKU.
#include <string>
#include <vector>

#include "catalog/Product.hpp"

namespace svc {

struct Article {
    std::string mainSku;
    std::vector<Product> variants;

    bool available() const {
        for (const auto& variant : variants) {
            if (variant.available()) return true;
        }
        return false;
    }
    // The variant that speaks for the article: the first available one, else the first.
    const Product& representative() const {
        for (const auto& variant : variants) {
            if (variant.available()) return variant;
        }
        return variants.front();
    }
};

// Groups variants by main SKU, keeping the first-seen order of main SKUs.
std::vector<Article> groupIntoArticles(std::vector<Product> products);

}  // namespace svc
