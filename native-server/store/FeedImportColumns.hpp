#pragma once
// How an import record's lists are kept in a text column, the same on every backend: row errors
// and warnings as JSON arrays written by svc. Damage reads as an empty list.
#include <string>
#include <vector>

#include "feed/FeedImportRecord.hpp"

namespace svc {

class FeedImportColumns {
public:
    static std::string rowErrorsJson(const std::vector<RowError>& errors);
    static std::vector<RowError> rowErrorsFrom(const std::string& json);
    static std::string warningsJson(const std::vector<std::string>& warnings);
    static std::vector<std::string> warningsFrom(const std::string& json);
};

}  // namespace svc
