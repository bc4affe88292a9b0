#include "feed/FeedParser.hpp"

namespace svc {

FeedParser::FeedParser(FeedImportOptions options) : options_(std::move(options)), reader_(options_.delimiter) {}

void FeedParser::onRecord(const CsvRecord& record) {
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
    auto mapped = mapper_->map(record.fields, record.line);
    if (auto* product = std::get_if<Product>(&mapped); product && !listed_.insert(product->sku).second) {
        out_->push_back({record.line, RowError{RowErrorKind::DuplicateIdentifier, record.line, 0,
                                               options_.identifier + ": '" + product->sku +
                                                   "' appeared on an earlier line; this row is ignored"}});
        return;
    }
    out_->push_back({record.line, std::move(mapped)});
}

void FeedParser::onMalformedRecord(const CsvIssue& issue) {
    if (failure_) return;
    if (!headerSeen_) {
        headerSeen_ = true;
        failure_ = Error::invalidArgument("line " + std::to_string(issue.line) + ": header is not valid CSV: " + issue.message);
        return;
    }
    RowErrorKind kind = issue.kind == CsvIssueKind::UnterminatedQuote ? RowErrorKind::UnterminatedQuote : RowErrorKind::MalformedQuote;
    out_->push_back({issue.line, RowError{kind, issue.line, issue.column, issue.message}});
}

Status FeedParser::parse(std::string_view chunk, std::vector<MappedRow>& out) {
    if (failure_) return *failure_;
    out_ = &out;
    reader_.feed(chunk, *this);
    out_ = nullptr;
    if (failure_) return *failure_;
    return Status::success();
}

Status FeedParser::finish(std::vector<MappedRow>& out) {
    if (failure_) return *failure_;
    out_ = &out;
    reader_.finish(*this);
    out_ = nullptr;
    if (failure_) return *failure_;
    if (!headerSeen_) return Error::invalidArgument("line 1: the feed is empty (no header)");
    return Status::success();
}

}  // namespace svc
