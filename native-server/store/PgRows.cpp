#include "store/PgRows.hpp"

#include <algorithm>
#include <stdexcept>

namespace svc {

void PgRows::add(std::vector<PgParam> row) {
    if (row.size() != types_.size()) throw std::logic_error("PgRows: a row of " + std::to_string(row.size()) + " values for " +
                                                            std::to_string(types_.size()) + " columns");
    for (auto& value : row) values_.push_back(std::move(value));
}

Result<std::vector<PgResult>> PgRows::run(PgConnection& connection, std::string_view purpose, std::string_view head, std::string_view tail) const {
    constexpr size_t kMaxParams = 65535;
    const size_t columns = types_.size();
    const size_t rowsPerChunk = std::max<size_t>(1, kMaxParams / columns);
    std::vector<PgResult> results;
    for (size_t first = 0; first < size(); first += rowsPerChunk) {
        size_t rows = std::min(rowsPerChunk, size() - first);
        std::string sql(head);
        sql += " VALUES ";
        std::vector<PgParam> params(values_.begin() + static_cast<std::ptrdiff_t>(first * columns),
                                    values_.begin() + static_cast<std::ptrdiff_t>((first + rows) * columns));
        size_t number = 1;
        for (size_t row = 0; row < rows; ++row) {
            sql += row == 0 ? "(" : ", (";
            for (size_t column = 0; column < columns; ++column) {
                if (column > 0) sql += ", ";
                sql += "$" + std::to_string(number++);
                if (!types_[column].empty()) sql += "::" + types_[column];
            }
            sql += ")";
        }
        sql += " ";
        sql += tail;
        auto result = connection.execute(purpose, sql, params);
        if (!result) return result.error();
        results.push_back(std::move(*result));
    }
    return results;
}

}  // namespace svc
