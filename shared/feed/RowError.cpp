#include "feed/RowError.hpp"

namespace svc {

std::string_view rowErrorKindName(RowErrorKind kind) {
    switch (kind) {
        case RowErrorKind::TooFewFields: return "too_few_fields";
        case RowErrorKind::TooManyFields: return "too_many_fields";
        case RowErrorKind::UnterminatedQuote: return "unterminated_quote";
        case RowErrorKind::MalformedQuote: return "malformed_quote";
        case RowErrorKind::InvalidUtf8: return "invalid_utf8";
        case RowErrorKind::InvalidInteger: return "invalid_integer";
        case RowErrorKind::MissingIdentifier: return "missing_identifier";
        case RowErrorKind::DuplicateIdentifier: return "duplicate_identifier";
    }
    return "unknown";
}

bool parseRowErrorKind(std::string_view name, RowErrorKind& out) {
    for (int i = 0; i <= static_cast<int>(RowErrorKind::DuplicateIdentifier); ++i) {
        auto kind = static_cast<RowErrorKind>(i);
        if (rowErrorKindName(kind) == name) {
            out = kind;
            return true;
        }
    }
    return false;
}

}  // namespace svc
