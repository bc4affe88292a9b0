#include "feed/FeedImporter.hpp"

namespace svc {

FeedImporter::FeedImporter(CatalogImport& import, FeedImportOptions options)
    : import_(import), options_(options), parser_(std::move(options)) {}

bool exceedsDeleteShare(const FeedImportReport& report, bool delta, double maxDeleteShare) {
    if (delta || report.liveBefore == 0) return false;
    return static_cast<double>(report.counts.markedDeleted) > maxDeleteShare * static_cast<double>(report.liveBefore);
}

void FeedImporter::reject(RowError error) {
    ++report_.rejected;
    if (report_.errors.size() < FeedImportReport::kMaxReportedErrors) report_.errors.push_back(std::move(error));
}

Status FeedImporter::apply(std::vector<MappedRow>& rows, const FeedRowMapper& mapper) {
    if (failure_) return *failure_;
    if (!report_.describesProducts) {
        report_.warnings = mapper.warnings();
        report_.describesProducts = mapper.shape().describesProducts();
    }
    for (auto& row : rows) {
        ++report_.rowsRead;
        if (auto* error = std::get_if<RowError>(&row.content)) {
            reject(std::move(*error));
            continue;
        }
        auto& product = std::get<Product>(row.content);
        auto outcome = import_.upsert(product, mapper.shape());
        if (!outcome) {
            failure_ = outcome.error();
            return *failure_;
        }
        if (*outcome == UpsertOutcome::UnknownSku && report_.errors.size() < FeedImportReport::kMaxReportedErrors) {
            report_.errors.push_back(RowError{RowErrorKind::UnknownSku, row.line, mapper.identifierColumn(),
                                              options_.identifier + ": '" + product.sku +
                                                  "' is in no feed with product descriptions (a name column); not created"});
        }
    }
    return Status::success();
}

Status FeedImporter::feed(std::string_view chunk) {
    if (failure_) return *failure_;
    if (auto status = parser_.parse(chunk, pending_); !status) {
        failure_ = status.error();
        return status;
    }
    if (pending_.empty()) return Status::success();
    auto status = apply(pending_, *parser_.mapper());
    parser_.recycle(pending_);
    return status;
}

Result<FeedImportReport> FeedImporter::finishReading() {
    if (failure_) return *failure_;
    if (auto status = parser_.finish(pending_); !status) return status.error();
    if (!pending_.empty()) {
        auto status = apply(pending_, *parser_.mapper());
        pending_.clear();
        if (!status) return status.error();
    }
    return summarize(parser_.listedSkus());
}

Result<FeedImportReport> FeedImporter::summarize(const SkuSet& listed) {
    if (failure_) return *failure_;
    if (!options_.delta && report_.rowsRead == report_.rejected) {
        // A full feed without one valid row would delete the whole catalog: refuse it.
        return Error::invalidArgument("the full feed has no valid row (" + std::to_string(report_.rejected) +
                                      " rejected); nothing was applied");
    }
    report_.counts = import_.pendingCounts();
    if (!options_.delta) {
        report_.liveBefore = import_.liveBefore();
        auto missing = import_.countMissing(listed);
        if (!missing) return missing.error();
        report_.counts.markedDeleted = *missing;
    }
    return report_;
}

}  // namespace svc
