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
#include "feed/FeedShape.hpp"
#include "feed/RowError.hpp"

namespace svc {

class FeedRowMapper {
public:
    // Fails when the header lacks the identifier column or names a column twice. Two names of
    // one field are accepted (see warnings()).
    static Result<FeedRowMapper> fromHeader(const std::vector<std::string>& header, const std::string& identifier);

    std::variant<Product, RowError> map(const std::vector<std::string>& fields, size_t line) const;
    // The same into `product`, which may hold an earlier row: its strings, category paths
    // and property nodes are reused, so a steady import allocates little. On success
    // `product` equals what map() returns; on error its content is unspecified.
    std::optional<RowError> mapInto(const std::vector<std::string>& fields, size_t line, Product& product) const;

    // What the feed carries: fields and properties it has no column for must be left untouched.
    const FeedShape& shape() const { return shape_; }
    const std::set<FeedField>& presentFields() const { return shape_.fields; }
    bool hasPropertyColumns() const { return !shape_.propertyColumns.empty(); }
    size_t columnCount() const { return columns_.size(); }
    size_t identifierColumn() const;  // 1-based
    // About the header as a whole, once per feed (e.g. which of two names of one field wins).
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    struct Column {
        std::string name;
        std::optional<FeedField> field;  // nullopt: kept in Product::properties
    };
    std::vector<Column> columns_;
    FeedShape shape_;
    std::vector<std::string> warnings_;
    std::vector<size_t> propertyColumns_;
    std::vector<size_t> propertyColumnsByName_;  // propertyColumns_ in the order of Product::properties
};

}  // namespace svc
