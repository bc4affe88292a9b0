#include "feed/ImportJson.hpp"

#include "feed/PullSource.hpp"

namespace svc {

nlohmann::ordered_json rowErrorsJson(const std::vector<RowError>& errors) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& error : errors) {
        list.push_back({{"line", error.line}, {"column", error.column}, {"kind", rowErrorKindName(error.kind)}, {"message", error.message}});
    }
    return list;
}

nlohmann::ordered_json importRecordJson(const FeedImportRecord& record, bool withRowErrors) {
    nlohmann::ordered_json json{
        {"id", record.id},
        {"status", importStatusName(record.status)},
        {"feed", record.feed},
        // Redacted when shown, also entries written before URLs were stored redacted (issue 18).
        {"source", redactUrlsIn(record.source)},
        {"delta", record.delta},
        {"identifier", record.identifier},
        {"delimiter", std::string(1, record.delimiter)},
        {"createdAt", record.createdAt},
        {"startedAt", record.startedAt},
        {"finishedAt", record.finishedAt},
        {"rowsRead", record.rowsRead},
        {"inserted", record.counts.inserted},
        {"updated", record.counts.updated},
        {"unchanged", record.counts.unchanged},
        {"rejected", record.rejected},
        {"markedDeleted", record.counts.markedDeleted},
        // Rows of a feed without product descriptions for SKUs no feed described: not created (ADR 0070).
        {"unknownSkus", record.counts.unknown},
        {"describesProducts", record.describesProducts ? nlohmann::ordered_json(*record.describesProducts) : nlohmann::ordered_json(nullptr)},
        {"warnings", record.warnings},
        {"message", redactUrlsIn(record.message)},
    };
    if (withRowErrors) json["rowErrors"] = rowErrorsJson(record.rowErrors);
    return json;
}

nlohmann::ordered_json dryRunJson(const FeedImportReport& report, bool delta, bool wouldBeHeld) {
    return {{"dryRun", true},
            {"delta", delta},
            {"rowsRead", report.rowsRead},
            {"rejected", report.rejected},
            {"wouldInsert", report.counts.inserted},
            {"wouldUpdate", report.counts.updated},
            {"unchanged", report.counts.unchanged},
            {"wouldMarkDeleted", report.counts.markedDeleted},
            {"unknownSkus", report.counts.unknown},
            {"warnings", report.warnings},
            {"wouldBeHeld", wouldBeHeld},
            {"rowErrors", rowErrorsJson(report.errors)}};
}

}  // namespace svc
