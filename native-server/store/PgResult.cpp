#include "store/PgResult.hpp"

#include <cstdlib>

namespace svc {

int64_t PgResult::integer(int row, int column) const {
    if (isNull(row, column)) return 0;
    return std::strtoll(PQgetvalue(result_.get(), row, column), nullptr, 10);
}

double PgResult::real(int row, int column) const {
    if (isNull(row, column)) return 0;
    return std::strtod(PQgetvalue(result_.get(), row, column), nullptr);
}

int64_t PgResult::changedRows() const {
    const char* count = PQcmdTuples(result_.get());
    return count && *count ? std::strtoll(count, nullptr, 10) : 0;
}

}  // namespace svc
