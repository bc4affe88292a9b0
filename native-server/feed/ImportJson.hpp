#pragma once
// The JSON form of import history entries and reports, shared by the CLI and HTTP.
#include <nlohmann/json.hpp>

#include "feed/FeedImportRecord.hpp"
#include "feed/FeedImporter.hpp"

namespace svc {

nlohmann::ordered_json rowErrorsJson(const std::vector<RowError>& errors);
nlohmann::ordered_json importRecordJson(const FeedImportRecord& record, bool withRowErrors);
// A dry run: what the import would change.
nlohmann::ordered_json dryRunJson(const FeedImportReport& report, bool delta, bool wouldBeHeld);

}  // namespace svc
