#pragma once
// The rows (or the count of changed rows) one PostgreSQL statement returned, owned: the libpq
// result is freed with this object. Values arrive as text; columns are addressed by position.
#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <string>

namespace svc {

class PgResult {
public:
    explicit PgResult(PGresult* result) : result_(result, &PQclear) {}

    int rows() const { return PQntuples(result_.get()); }
    bool isNull(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
    // Byte for byte, also past a byte PostgreSQL would print specially.
    std::string text(int row, int column) const {
        return std::string(PQgetvalue(result_.get(), row, column), static_cast<size_t>(PQgetlength(result_.get(), row, column)));
    }
    int64_t integer(int row, int column) const;
    double real(int row, int column) const;
    // Rows an INSERT, UPDATE or DELETE changed (an INSERT ... ON CONFLICT DO NOTHING that did nothing: 0).
    int64_t changedRows() const;
    const PGresult* handle() const { return result_.get(); }

private:
    std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

}  // namespace svc
