#pragma once
// How the content pool reads a product's category: which path, which of its levels say
// something about the kind of product, and which level names the kind. One rule for the
// feature space (matching) and for the console's list of a catalog's categories (ADR 0075).
#include <string>
#include <string_view>
#include <vector>

#include "catalog/Product.hpp"

namespace svc {

class CategoryPath {
public:
    // kategorie1's first path, else the primary category path.
    static std::string_view ofProduct(const Product& product);
    // The path's levels ("Women > Sale > Skinny Jeans": "Women", "Skinny Jeans"), as written
    // but trimmed; levels that say nothing about the kind (sale, new, all, ...) are left out.
    static std::vector<std::string> levels(std::string_view path);
    // The index of the level naming the kind: the deepest that is not only a department
    // ("Women"); nullopt-like `npos` when there is none.
    static size_t kindLevel(const std::vector<std::string>& levels);
    static constexpr size_t npos = static_cast<size_t>(-1);
    // Whether a level's key (TextTokenizer::key) is one that says nothing about the kind.
    static bool isGenericKey(const std::string& key);
};

}  // namespace svc
