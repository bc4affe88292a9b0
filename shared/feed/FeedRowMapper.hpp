#pragma once
// Maps CSV records of one feed to Products, given its header and the identifier
// column named by the upload. Knows which columns the feed has, so that a partial
// feed (e.g. stock and price only) updates just those columns.
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "catalog/Product.hpp"
#include "core/Result.hpp"
#include "feed/FeedColumns.hpp"
#include "feed/RowError.hpp"

namespace svc {

class FeedRowMapper {
public:
    // Fails when the header lacks the identifier column or names a column twice.
    static Result<FeedRowMapper> fromHeader(const std::vector<std::string>& header, const std::string& identifier);

    std::variant<Product, RowError> map(const std::vector<std::string>& fields, size_t line) const;
    // The same into `product`, which may hold an earlier row: its strings, category paths
    // and property nodes are reused, so a steady import allocates little. On success
    // `product` equals what map() returns; on error its content is unspecified.
    std::optional<RowError> mapInto(const std::vector<std::string>& fields, size_t line, Product& product) const;

    // Fields the feed provides (always includes Sku). Others must be left untouched.
    const std::set<FeedField>& presentFields() const { return presentFields_; }
    bool hasPropertyColumns() const { return !propertyColumns_.empty(); }
    size_t columnCount() const { return columns_.size(); }

private:
    struct Column {
        std::string name;
        std::optional<FeedField> field;  // nullopt: kept in Product::properties
    };
    std::vector<Column> columns_;
    std::set<FeedField> presentFields_;
    std::vector<size_t> propertyColumns_;
    std::vector<size_t> propertyColumnsByName_;  // propertyColumns_ in the order of Product::properties
};

}  // namespace svc
