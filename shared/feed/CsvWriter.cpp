#include "feed/CsvWriter.hpp"

namespace svc {

void appendCsvRecord(std::string& out, const std::vector<std::string>& values, char delimiter) {
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) out += delimiter;
        out += '"';
        for (char c : values[i]) {
            if (c == '"') out += '"';
            out += c;
        }
        out += '"';
    }
    out += '\n';
}

}  // namespace svc
