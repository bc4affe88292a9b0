#pragma once
// Writes feed records the way the spec's CSV rules read them (every value quoted, quotes doubled),
// for feeds svc builds itself from other formats (the shop plugin's JSON products).
#include <string>
#include <vector>

namespace svc {

// Appends one record and its newline to `out`.
void appendCsvRecord(std::string& out, const std::vector<std::string>& values, char delimiter = ';');

}  // namespace svc
