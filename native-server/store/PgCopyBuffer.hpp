#pragma once
// Rows for COPY ... FROM STDIN in PostgreSQL's text format (docs/adr/0087): fields separated by
// tabs, rows ended by newlines, NULL as \N. Every value is escaped here, so a tab, newline,
// carriage return or backslash inside a value stays part of it; other bytes (UTF-8 included)
// pass as they are. Filled row by row and handed to PgConnection::putCopyData in chunks.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc {

class PgCopyBuffer {
public:
    PgCopyBuffer& text(std::string_view value);
    PgCopyBuffer& integer(int64_t value);
    PgCopyBuffer& integer(const std::optional<int64_t>& value);
    PgCopyBuffer& null();
    // Ends the current row.
    void endRow();

    std::string_view rows() const { return data_; }
    size_t size() const { return data_.size(); }
    void clear() { data_.clear(); }

private:
    void separate();

    std::string data_;
    bool rowStarted_ = false;
};

}  // namespace svc
