#include "feed/RowError.hpp"

#include "core/NameTable.hpp"

namespace svc {
namespace {
constexpr NameTable<RowErrorKind, 12> kKinds{{{
    {"too_few_fields", RowErrorKind::TooFewFields},
    {"too_many_fields", RowErrorKind::TooManyFields},
    {"unterminated_quote", RowErrorKind::UnterminatedQuote},
    {"malformed_quote", RowErrorKind::MalformedQuote},
    {"invalid_utf8", RowErrorKind::InvalidUtf8},
    {"invalid_integer", RowErrorKind::InvalidInteger},
    {"missing_identifier", RowErrorKind::MissingIdentifier},
    {"duplicate_identifier", RowErrorKind::DuplicateIdentifier},
    {"invalid_product", RowErrorKind::InvalidProduct},
    {"field_too_long", RowErrorKind::FieldTooLong},
    {"row_too_long", RowErrorKind::RowTooLong},
    {"unknown_sku", RowErrorKind::UnknownSku},
}}};
}  // namespace

std::string_view rowErrorKindName(RowErrorKind kind) { return kKinds.name(kind); }

bool parseRowErrorKind(std::string_view name, RowErrorKind& out) {
    auto kind = kKinds.parse(name);
    if (kind) out = *kind;
    return kind.has_value();
}

}  // namespace svc
