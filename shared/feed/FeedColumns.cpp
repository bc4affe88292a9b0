#include "feed/FeedColumns.hpp"

#include <array>
#include <utility>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

struct ColumnAlias {
    std::string_view name;
    FeedField field;
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
    ColumnAlias{"kategorie1", FeedField::CategoryPaths},
    ColumnAlias{"marke", FeedField::Brand},
    ColumnAlias{"brand", FeedField::Brand},
    ColumnAlias{"farbe", FeedField::Color},
    ColumnAlias{"color", FeedField::Color},
    ColumnAlias{"beschreibung", FeedField::Description},
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

std::string_view feedFieldName(FeedField field) {
    for (const auto& alias : kAliases) {
        if (alias.field == field) return alias.name;
    }
    return "unknown";
}

bool isPriceField(FeedField field) {
    return field == FeedField::RetailPrice || field == FeedField::DiscountPrice || field == FeedField::LowestPrice30d;
}

}  // namespace svc
