#include "feed/FeedColumns.hpp"

#include <array>
#include <utility>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

struct ColumnAlias {
    std::string_view name;
    FeedField field;
    bool contentPool = false;  // the spec's content-pool name of a base field
};

// Spec names first; English aliases accepted because shops export from many systems.
constexpr std::array kAliases{
    ColumnAlias{"sku", FeedField::Sku},
    ColumnAlias{"main-sku", FeedField::MainSku},
    ColumnAlias{"model", FeedField::Model},
    ColumnAlias{"stock", FeedField::Stock},
    ColumnAlias{"variant", FeedField::Variant},
    ColumnAlias{"name", FeedField::Name},
    ColumnAlias{"retail-price", FeedField::RetailPrice},
    ColumnAlias{"discount-price", FeedField::DiscountPrice},
    ColumnAlias{"deeplink", FeedField::Deeplink},
    ColumnAlias{"image", FeedField::Image},
    ColumnAlias{"thumbnail", FeedField::Thumbnail},
    ColumnAlias{"category-path", FeedField::CategoryPaths},
    ColumnAlias{"kategorie1", FeedField::CategoryPaths, true},
    ColumnAlias{"marke", FeedField::Brand, true},
    ColumnAlias{"brand", FeedField::Brand},
    ColumnAlias{"farbe", FeedField::Color, true},
    ColumnAlias{"color", FeedField::Color},
    ColumnAlias{"beschreibung", FeedField::Description, true},
    ColumnAlias{"description", FeedField::Description},
    ColumnAlias{"lowest-price-30d", FeedField::LowestPrice30d},
};

}  // namespace

std::optional<FeedField> feedFieldForColumn(std::string_view columnName) {
    std::string lower = toLower(trim(columnName));
    for (const auto& alias : kAliases) {
        if (alias.name == lower) return alias.field;
    }
    return std::nullopt;
}

bool isContentPoolAlias(std::string_view columnName) {
    std::string lower = toLower(trim(columnName));
    for (const auto& alias : kAliases) {
        if (alias.name == lower) return alias.contentPool;
    }
    return false;
}

std::string_view feedFieldName(FeedField field) {
    for (const auto& alias : kAliases) {
        if (alias.field == field) return alias.name;
    }
    return "unknown";
}

std::string_view feedFieldDescription(FeedField field) {
    switch (field) {
        case FeedField::CategoryPaths: return "category paths";
        case FeedField::Brand: return "brand";
        case FeedField::Color: return "colour";
        case FeedField::Description: return "description";
        default: return feedFieldName(field);
    }
}

bool isPriceField(FeedField field) {
    return field == FeedField::RetailPrice || field == FeedField::DiscountPrice || field == FeedField::LowestPrice30d;
}

}  // namespace svc
