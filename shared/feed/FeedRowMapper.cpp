#include "feed/FeedRowMapper.hpp"

#include "text/StringUtil.hpp"
#include "text/Utf8.hpp"

namespace svc {

Result<FeedRowMapper> FeedRowMapper::fromHeader(const std::vector<std::string>& header, const std::string& identifier) {
    FeedRowMapper mapper;
    std::string identifierLower = toLower(trim(identifier));
    if (identifierLower.empty()) return Error::invalidArgument("identifier: must name a column");
    bool identifierFound = false;
    std::set<std::string> seenNames;
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
        } else if (auto field = feedFieldForColumn(name); field && *field != FeedField::Sku) {
            if (mapper.presentFields_.count(*field)) {
                return Error::invalidArgument("header column " + std::to_string(i + 1) + ": '" + name +
                                              "' maps to " + std::string(feedFieldName(*field)) +
                                              ", which an earlier column already provides");
            }
            column.field = field;
        }
        if (column.field) mapper.presentFields_.insert(*column.field);
        else mapper.propertyColumns_.push_back(i);
        mapper.columns_.push_back(std::move(column));
    }
    if (!identifierFound) {
        return Error::invalidArgument("header: identifier column '" + identifierLower + "' is missing");
    }
    return mapper;
}

std::variant<Product, RowError> FeedRowMapper::map(const std::vector<std::string>& fields, size_t line) const {
    if (fields.size() < columns_.size()) {
        return RowError{RowErrorKind::TooFewFields, line, fields.size(),
                        "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields.size())};
    }
    if (fields.size() > columns_.size()) {
        return RowError{RowErrorKind::TooManyFields, line, columns_.size() + 1,
                        "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields.size())};
    }
    Product product;
    for (size_t i = 0; i < fields.size(); ++i) {
        const std::string& raw = fields[i];
        const Column& column = columns_[i];
        if (size_t bad = findInvalidUtf8(raw); bad != std::string::npos) {
            return RowError{RowErrorKind::InvalidUtf8, line, i + 1,
                            column.name + ": invalid UTF-8 at byte " + std::to_string(bad + 1)};
        }
        if (!column.field) {
            if (!raw.empty()) product.properties[column.name] = raw;
            continue;
        }
        std::string value(trim(raw));
        FeedField field = *column.field;
        if (field == FeedField::Stock || isPriceField(field)) {
            if (value.empty()) {
                if (field == FeedField::Stock) product.stock = 0;
                continue;  // an empty price means "no such price"
            }
            auto number = parseInt64(value);
            if (!number || *number < 0) {
                return RowError{RowErrorKind::InvalidInteger, line, i + 1,
                                column.name + ": '" + value + "' is not a non-negative integer" +
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
            case FeedField::CategoryPaths: product.categoryPaths = splitList(value, ','); break;
            default: break;
        }
    }
    if (product.sku.empty()) {
        size_t column = 0;
        for (size_t i = 0; i < columns_.size(); ++i) {
            if (columns_[i].field == FeedField::Sku) column = i + 1;
        }
        return RowError{RowErrorKind::MissingIdentifier, line, column, columns_[column - 1].name + ": identifier is empty"};
    }
    if (product.mainSku.empty() && !presentFields_.count(FeedField::MainSku)) product.mainSku = product.sku;
    if (product.mainSku.empty()) product.mainSku = product.sku;
    return product;
}

}  // namespace svc
