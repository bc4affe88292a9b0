#include "feed/FeedRowMapper.hpp"

#include <algorithm>
#include <map>

#include "text/StringUtil.hpp"
#include "text/Utf8.hpp"

namespace svc {

Result<FeedRowMapper> FeedRowMapper::fromHeader(const std::vector<std::string>& header, const std::string& identifier) {
    FeedRowMapper mapper;
    std::string identifierLower = toLower(trim(identifier));
    if (identifierLower.empty()) return Error::invalidArgument("identifier: must name a column");
    bool identifierFound = false;
    std::set<std::string> seenNames;
    std::map<FeedField, size_t> fieldColumn;  // which column sets each field
    for (size_t i = 0; i < header.size(); ++i) {
        std::string name = toLower(trim(header[i]));
        if (findInvalidUtf8(name) != std::string::npos) {
            return Error::invalidArgument("header column " + std::to_string(i + 1) + ": invalid UTF-8");
        }
        if (name.empty()) return Error::invalidArgument("header column " + std::to_string(i + 1) + ": empty column name");
        if (!seenNames.insert(name).second) {
            return Error::invalidArgument("header column " + std::to_string(i + 1) + ": column '" + name + "' appears twice");
        }
        Column column{name, std::nullopt};
        if (name == identifierLower) {
            // The identifier column is the record key whatever its name (sku, product_id, ...).
            column.field = FeedField::Sku;
            identifierFound = true;
            fieldColumn[FeedField::Sku] = i;
        } else if (auto field = feedFieldForColumn(name); field && *field != FeedField::Sku) {
            column.field = field;
            auto earlier = fieldColumn.find(*field);
            if (earlier == fieldColumn.end()) {
                fieldColumn.emplace(*field, i);
            } else {
                // Two names of one field (the spec's content-pool name and the base-data name, e.g.
                // kategorie1 and category-path): the base-data one sets the field, the content-pool
                // one is kept as a property for the content pool. Of two of a kind, the first wins.
                Column& first = mapper.columns_[earlier->second];
                bool laterWins = isContentPoolAlias(first.name) && !isContentPoolAlias(name);
                Column& loser = laterWins ? first : column;
                const std::string& winner = laterWins ? name : first.name;
                mapper.warnings_.push_back("columns '" + first.name + "' and '" + name + "' both name the " +
                                           std::string(feedFieldDescription(*field)) + ": '" + winner + "' sets it, '" +
                                           loser.name + "' is kept as a property (the content pool reads it)");
                loser.field.reset();
                if (laterWins) earlier->second = i;
            }
        }
        mapper.columns_.push_back(std::move(column));
    }
    if (!identifierFound) {
        return Error::invalidArgument("header: identifier column '" + identifierLower + "' is missing");
    }
    for (size_t i = 0; i < mapper.columns_.size(); ++i) {
        const Column& column = mapper.columns_[i];
        if (column.field) {
            mapper.shape_.fields.insert(*column.field);
            // A content-pool name mapped to its field also stands for the property of that name
            // an earlier feed may have left (it had both names): this feed clears it.
            if (isContentPoolAlias(column.name)) mapper.shape_.propertyColumns.push_back(column.name);
        } else {
            mapper.propertyColumns_.push_back(i);
            mapper.shape_.propertyColumns.push_back(column.name);
        }
    }
    std::sort(mapper.shape_.propertyColumns.begin(), mapper.shape_.propertyColumns.end());
    mapper.propertyColumnsByName_ = mapper.propertyColumns_;
    std::sort(mapper.propertyColumnsByName_.begin(), mapper.propertyColumnsByName_.end(),
              [&](size_t a, size_t b) { return mapper.columns_[a].name < mapper.columns_[b].name; });
    return mapper;
}

size_t FeedRowMapper::identifierColumn() const {
    for (size_t i = 0; i < columns_.size(); ++i) {
        if (columns_[i].field == FeedField::Sku) return i + 1;
    }
    return 0;
}

std::variant<Product, RowError> FeedRowMapper::map(const std::vector<std::string>& fields, size_t line) const {
    Product product;
    if (auto error = mapInto(fields, line, product)) return std::move(*error);
    return product;
}

std::optional<RowError> FeedRowMapper::mapInto(const std::vector<std::string>& fields, size_t line, Product& product) const {
    if (fields.size() < columns_.size()) {
        return RowError{RowErrorKind::TooFewFields, line, fields.size(),
                        "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields.size())};
    }
    if (fields.size() > columns_.size()) {
        return RowError{RowErrorKind::TooManyFields, line, columns_.size() + 1,
                        "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields.size())};
    }
    // Back to a fresh Product's values, keeping the buffers.
    for (std::string* text : {&product.sku, &product.mainSku, &product.model, &product.variant, &product.name, &product.deeplink,
                              &product.image, &product.thumbnail, &product.brand, &product.color, &product.description}) {
        text->clear();
    }
    product.categoryPaths.clear();
    product.stock = 0;
    product.retailPrice.reset();
    product.discountPrice.reset();
    product.lowestPrice30d.reset();
    product.deleted = false;
    product.lastSeenAt = 0;
    product.stale = false;

    for (size_t i = 0; i < fields.size(); ++i) {
        const std::string& raw = fields[i];
        const Column& column = columns_[i];
        if (size_t bad = findInvalidUtf8(raw); bad != std::string::npos) {
            return RowError{RowErrorKind::InvalidUtf8, line, i + 1,
                            column.name + ": invalid UTF-8 at byte " + std::to_string(bad + 1)};
        }
        if (!column.field) continue;  // a property: filled below, in name order
        std::string_view value = trim(raw);  // assigned straight into the product: no copy in between
        FeedField field = *column.field;
        if (field == FeedField::Stock || isPriceField(field)) {
            if (value.empty()) continue;  // stock 0; an empty price means "no such price"
            auto number = parseInt64(value);
            if (!number || *number < 0) {
                return RowError{RowErrorKind::InvalidInteger, line, i + 1,
                                column.name + ": '" + std::string(value) + "' is not a non-negative integer" +
                                    (field == FeedField::Stock ? "" : " number of cents")};
            }
            switch (field) {
                case FeedField::Stock: product.stock = *number; break;
                case FeedField::RetailPrice: product.retailPrice = *number; break;
                case FeedField::DiscountPrice: product.discountPrice = *number; break;
                default: product.lowestPrice30d = *number; break;
            }
            continue;
        }
        switch (field) {
            case FeedField::Sku: product.sku = value; break;
            case FeedField::MainSku: product.mainSku = value; break;
            case FeedField::Model: product.model = value; break;
            case FeedField::Variant: product.variant = value; break;
            case FeedField::Name: product.name = value; break;
            case FeedField::Deeplink: product.deeplink = value; break;
            case FeedField::Image: product.image = value; break;
            case FeedField::Thumbnail: product.thumbnail = value; break;
            case FeedField::Brand: product.brand = value; break;
            case FeedField::Color: product.color = value; break;
            case FeedField::Description: product.description = raw; break;  // may hold HTML; kept verbatim
            case FeedField::CategoryPaths: splitListInto(value, ',', product.categoryPaths); break;
            default: break;
        }
    }
    if (product.sku.empty()) {
        size_t column = identifierColumn();
        return RowError{RowErrorKind::MissingIdentifier, line, column, columns_[column - 1].name + ": identifier is empty"};
    }
    if (product.mainSku.empty()) product.mainSku = product.sku;

    // Properties: walk the map and the columns in name order together, so that a product
    // reused from an earlier row of this feed keeps its nodes and only takes new values.
    auto& properties = product.properties;
    auto node = properties.begin();
    for (size_t i : propertyColumnsByName_) {
        const std::string& name = columns_[i].name;
        while (node != properties.end() && node->first < name) node = properties.erase(node);
        const std::string& raw = fields[i];
        bool present = node != properties.end() && node->first == name;
        if (raw.empty()) {
            if (present) node = properties.erase(node);
        } else if (present) {
            node->second = raw;
            ++node;
        } else {
            properties.emplace_hint(node, name, raw);
        }
    }
    properties.erase(node, properties.end());
    return std::nullopt;
}

}  // namespace svc
