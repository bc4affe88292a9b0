#include "feed/FeedImporter.hpp"

namespace svc {

FeedImporter::FeedImporter(CatalogImport& import, FeedImportOptions options)
    : import_(import), options_(std::move(options)), reader_(options_.delimiter) {
    report_.liveBefore = import_.liveBefore();
}

bool exceedsDeleteShare(const FeedImportReport& report, bool delta, double maxDeleteShare) {
    if (delta || report.liveBefore == 0) return false;
    return static_cast<double>(report.counts.markedDeleted) > maxDeleteShare * static_cast<double>(report.liveBefore);
}

void FeedImporter::reject(RowError error) {
    ++report_.rejected;
    if (report_.errors.size() < FeedImportReport::kMaxReportedErrors) report_.errors.push_back(std::move(error));
}

void FeedImporter::onRecord(const CsvRecord& record) {
    if (failure_) return;
    if (!headerSeen_) {
        headerSeen_ = true;
        auto mapper = FeedRowMapper::fromHeader(record.fields, options_.identifier);
        if (!mapper) {
            failure_ = Error::invalidArgument("line " + std::to_string(record.line) + ": " + mapper.error().message);
            return;
        }
        mapper_ = std::make_unique<FeedRowMapper>(std::move(*mapper));
        return;
    }
    ++report_.rowsRead;
    auto mapped = mapper_->map(record.fields, record.line);
    if (auto* error = std::get_if<RowError>(&mapped)) {
        reject(std::move(*error));
        return;
    }
    auto& product = std::get<Product>(mapped);
    auto status = import_.upsert(product, mapper_->presentFields(), mapper_->hasPropertyColumns());
    if (!status && status.error().code == ErrorCode::AlreadyExists) {
        // The store tracks written SKUs anyway (for full feeds); one set, not two.
        reject({RowErrorKind::DuplicateIdentifier, record.line, 0,
                options_.identifier + ": '" + product.sku + "' appeared on an earlier line; this row is ignored"});
        return;
    }
    if (!status) failure_ = status.error();
}

void FeedImporter::onMalformedRecord(const CsvIssue& issue) {
    if (failure_) return;
    if (!headerSeen_) {
        headerSeen_ = true;
        failure_ = Error::invalidArgument("line " + std::to_string(issue.line) + ": header is not valid CSV: " + issue.message);
        return;
    }
    ++report_.rowsRead;
    RowErrorKind kind = issue.kind == CsvIssueKind::UnterminatedQuote ? RowErrorKind::UnterminatedQuote : RowErrorKind::MalformedQuote;
    reject({kind, issue.line, issue.column, issue.message});
}

Status FeedImporter::feed(std::string_view chunk) {
    if (failure_) return *failure_;
    reader_.feed(chunk, *this);
    if (failure_) return *failure_;
    return Status::success();
}

Result<FeedImportReport> FeedImporter::finishReading() {
    if (!failure_) reader_.finish(*this);
    if (failure_) return *failure_;
    if (!headerSeen_) return Error::invalidArgument("line 1: the feed is empty (no header)");
    if (!options_.delta && report_.rowsRead == report_.rejected) {
        // A full feed without one valid row would delete the whole catalog: refuse it.
        return Error::invalidArgument("the full feed has no valid row (" + std::to_string(report_.rejected) +
                                      " rejected); nothing was applied");
    }
    report_.counts = import_.pendingCounts();
    if (!options_.delta) {
        auto missing = import_.countMissing();
        if (!missing) return missing.error();
        report_.counts.markedDeleted = *missing;
    }
    return report_;
}

}  // namespace svc
