#pragma once
// What the rows of one feed carry, read off its header. The store writes exactly this:
// a field or property the feed has no column for is never changed (docs/adr/0070).
#include <set>
#include <string>
#include <vector>

#include "feed/FeedColumns.hpp"

namespace svc {

struct FeedShape {
    std::set<FeedField> fields;                // the base fields the feed has columns for (always Sku)
    std::vector<std::string> propertyColumns;  // the properties it sets or clears, sorted by name
    // A feed with a `name` column describes products: it may create them, and a full one owns
    // what it lists. Without one (stock and price) it only updates products another feed described.
    bool describesProducts() const { return fields.count(FeedField::Name) > 0; }
};

}  // namespace svc
