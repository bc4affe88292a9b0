#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace svc {

// Why one feed row was rejected (or, UnknownSku, not applied). The row is skipped; the rest of the feed goes on.
enum class RowErrorKind {
    TooFewFields,
    TooManyFields,
    UnterminatedQuote,
    MalformedQuote,
    InvalidUtf8,
    InvalidInteger,
    MissingIdentifier,
    DuplicateIdentifier,
    InvalidProduct,  // a shop plugin's JSON product that cannot be mapped (the message names its JSON path)
    FieldTooLong,    // a field over CsvLimits::maxFieldBytes (skipped unread, docs/adr/0054)
    RowTooLong,      // a row over CsvLimits::maxRecordBytes
    UnknownSku,      // a feed that describes no products (no name column) listed a SKU no feed described: not created (ADR 0070)
};

std::string_view rowErrorKindName(RowErrorKind kind);
bool parseRowErrorKind(std::string_view name, RowErrorKind& out);

struct RowError {
    RowErrorKind kind;
    size_t line = 0;     // 1-based line in the file; for a plugin pull, the product's 1-based position
    size_t column = 0;   // 1-based field number; 0 when the whole row is meant
    std::string message; // names the column, e.g. "retail-price: '12,99' is not a non-negative integer number of cents"
};

}  // namespace svc
