#include "store/FeedImportColumns.hpp"

#include <nlohmann/json.hpp>

#include "text/BoundedJson.hpp"

namespace svc {

std::string FeedImportColumns::rowErrorsJson(const std::vector<RowError>& errors) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& error : errors) {
        list.push_back({{"line", error.line}, {"column", error.column}, {"kind", rowErrorKindName(error.kind)}, {"message", error.message}});
    }
    return list.dump();
}

std::vector<RowError> FeedImportColumns::rowErrorsFrom(const std::string& json) {
    // Written by svc (at most FeedImportReport::kMaxReportedErrors); damage shows as no row errors.
    std::vector<RowError> errors;
    auto parsed = BoundedJson::parse(json, "row errors");
    if (!parsed || !parsed->is_array()) return errors;
    for (const auto& entry : *parsed) {
        RowError error{RowErrorKind::TooFewFields, entry.value("line", size_t{0}), entry.value("column", size_t{0}), entry.value("message", std::string())};
        parseRowErrorKind(entry.value("kind", std::string()), error.kind);
        errors.push_back(std::move(error));
    }
    return errors;
}

std::string FeedImportColumns::warningsJson(const std::vector<std::string>& warnings) { return nlohmann::json(warnings).dump(); }

std::vector<std::string> FeedImportColumns::warningsFrom(const std::string& json) {
    // Written by svc; damage shows as no warnings.
    std::vector<std::string> warnings;
    auto parsed = BoundedJson::parse(json, "warnings");
    if (!parsed || !parsed->is_array()) return warnings;
    for (const auto& warning : *parsed) {
        if (warning.is_string()) warnings.push_back(warning.get<std::string>());
    }
    return warnings;
}

}  // namespace svc
