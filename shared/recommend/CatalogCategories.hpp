#pragma once
// The categories a tenant's catalog actually has, as the content pool reads them: for each
// kind level (CategoryPath::kindLevel) its name as the feed writes it, how many articles
// carry it, example paths and the levels above it. What the console lists for the operator
// to map onto the content pool's slots, and what svc's proposal reads (ADR 0075).
#include <cstddef>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalog/Product.hpp"

namespace svc {

struct CatalogCategory {
    std::string name;                  // the kind level in its most common spelling ("Skinny Jeans")
    std::string key;                   // TextTokenizer::key(name): what templates and mappings match
    size_t products = 0;               // articles (main SKUs) of this kind
    std::vector<std::string> paths;    // up to kMaxPaths paths, most common first
    std::vector<std::string> parents;  // the levels above the kind in the most common path, nearest first
};

class CatalogCategories {
public:
    static constexpr size_t kMaxPaths = 3;
    // Longer names are left out: no template or operator names such a category, and a hostile
    // feed's 64 KiB field would otherwise go to the console as it is.
    static constexpr size_t kMaxNameBytes = 256;

    // Every live product; variants of one article count once (by main SKU).
    void add(const Product& product);
    // Most articles first, then by key; at most `limit`.
    std::vector<CatalogCategory> list(size_t limit) const;
    size_t size() const { return byKey_.size(); }
    bool has(const std::string& key) const { return byKey_.count(key) != 0; }

private:
    struct Tally {
        size_t products = 0;
        std::map<std::string, size_t> spellings;
        std::map<std::string, size_t> paths;  // path (levels joined by " > ") -> articles
        std::map<std::string, std::vector<std::string>> parentsOfPath;
    };
    std::map<std::string, Tally> byKey_;
    std::unordered_set<std::string> articlesSeen_;
};

}  // namespace svc
