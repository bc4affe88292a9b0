#pragma once
// One parameter of a PostgreSQL statement, sent as text in its own protocol field: values never
// become part of the SQL, so no quoting or escaping exists anywhere in the PostgreSQL backend.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

class PgParam {
public:
    PgParam(std::string_view text) : text_(text) {}  // NOLINT: implicit, so call sites read as a list of values
    PgParam(const std::string& text) : text_(text) {}  // NOLINT
    PgParam(const char* text) : text_(text) {}  // NOLINT
    PgParam(int64_t value) : text_(std::to_string(value)) {}  // NOLINT
    PgParam(int value) : text_(std::to_string(value)) {}  // NOLINT
    PgParam(double value) {  // NOLINT: shortest text that reads back as the same double
        char buffer[32];
        auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
        text_.assign(buffer, written.ptr);
    }

    // SQL NULL when absent ("leave the column as it is" in COALESCE($n, column)).
    PgParam(const std::optional<std::string>& text) : text_(text.value_or("")), null_(!text) {}  // NOLINT
    PgParam(const std::optional<int64_t>& value) : text_(value ? std::to_string(*value) : ""), null_(!value) {}  // NOLINT

    // A text[] value ($1::text[]) in the array's own text form: every element quoted, with its
    // quotes and backslashes escaped, so any text (commas, braces, "NULL") stays one element.
    static PgParam textArray(const std::vector<std::string>& items) {
        std::string literal = "{";
        for (const auto& item : items) {
            if (literal.size() > 1) literal += ',';
            literal += '"';
            for (char c : item) {
                if (c == '"' || c == '\\') literal += '\\';
                literal += c;
            }
            literal += '"';
        }
        literal += '}';
        return PgParam(literal);
    }

    const std::string& text() const { return text_; }
    bool isNull() const { return null_; }

private:
    std::string text_;
    bool null_ = false;
};

}  // namespace svc
