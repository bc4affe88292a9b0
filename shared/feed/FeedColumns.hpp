#pragma once
// The feed columns svc understands, and which header names map to them. The spec
// names most base columns; category paths, brand, thumbnail and the 30-day lowest
// price have no names there (see docs/adr/0004-feed-column-names.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

enum class FeedField {
    Sku, MainSku, Model, Stock, Variant, Name, RetailPrice, DiscountPrice, Deeplink, Image,
    Thumbnail, CategoryPaths, Brand, Color, Description, LowestPrice30d,
};

// Header name (case-insensitive) to field; nullopt for a column kept as a property.
std::optional<FeedField> feedFieldForColumn(std::string_view columnName);
// The spec's content-pool name of a base field (kategorie1, marke, farbe, beschreibung).
// Beside the base-data name of the same field (category-path, brand, color, description) it is
// kept as a property, which the content pool reads (docs/integration.md, ADR 0070).
bool isContentPoolAlias(std::string_view columnName);
// Canonical column name of a field (what the store and the docs call it).
std::string_view feedFieldName(FeedField field);
// What a field is, in words for messages ("category paths", "brand").
std::string_view feedFieldDescription(FeedField field);
bool isPriceField(FeedField field);

}  // namespace svc
