#pragma once
// Rows for one multi-row statement (`INSERT ... VALUES ($1, $2), ($3, $4) ...`): a batch is written
// set-based, a few round trips whatever its size, not one per row. Sent in chunks that stay
// under the protocol's 65,535 parameters per statement.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "store/PgConnection.hpp"

namespace svc {

class PgRows {
public:
    // One type per column ("bigint", "text", ...): each value is cast to it, so a VALUES list
    // outside an INSERT (a join against the batch) has its types; "" leaves a column to the target.
    explicit PgRows(std::vector<std::string> types) : types_(std::move(types)) {}

    // One row: exactly as many values as there are columns, in their order.
    void add(std::vector<PgParam> row);
    bool empty() const { return values_.empty(); }
    size_t size() const { return values_.size() / types_.size(); }

    // Runs `head + " VALUES (...), (...)" + tail` once per chunk, in row order; each chunk's result.
    Result<std::vector<PgResult>> run(PgConnection& connection, std::string_view purpose, std::string_view head, std::string_view tail = "") const;

private:
    std::vector<std::string> types_;
    std::vector<PgParam> values_;
};

}  // namespace svc
