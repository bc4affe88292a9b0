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
        header_ = record.fields;
        return;
    }
    Product product;
    if (!spare_.empty()) {
        product = std::move(spare_.back());
        spare_.pop_back();
    }
    if (auto error = mapper_->mapInto(record.fields, record.line, product)) {
        spare_.push_back(std::move(product));
        out_->push_back({record.line, std::move(*error)});
        return;
    }
    if (!listed_.insert(product.sku).second) {
        out_->push_back({record.line, RowError{RowErrorKind::DuplicateIdentifier, record.line, 0,
                                               options_.identifier + ": '" + product.sku +
                                                   "' appeared on an earlier line; this row is ignored"}});
        spare_.push_back(std::move(product));
        return;
    }
    out_->push_back({record.line, std::move(product)});
}

void FeedParser::recycle(std::vector<MappedRow>& rows) {
    for (auto& row : rows) {
        if (auto* product = std::get_if<Product>(&row.content)) spare_.push_back(std::move(*product));
    }
    rows.clear();
}

void FeedParser::onMalformedRecord(const CsvIssue& issue) {
    if (failure_) return;
    if (!headerSeen_) {
        headerSeen_ = true;
        failure_ = Error::invalidArgument("line " + std::to_string(issue.line) + ": header is not valid CSV: " + issue.message);
        return;
    }
    RowErrorKind kind = RowErrorKind::MalformedQuote;
    std::string message = issue.message;
    switch (issue.kind) {
        case CsvIssueKind::UnterminatedQuote: kind = RowErrorKind::UnterminatedQuote; break;
        case CsvIssueKind::CharacterAfterClosingQuote: kind = RowErrorKind::MalformedQuote; break;
        case CsvIssueKind::FieldTooLong:
            kind = RowErrorKind::FieldTooLong;
            // Named like the mapper's errors: by the header's column name.
            if (issue.column >= 1 && issue.column <= header_.size()) message = header_[issue.column - 1] + ": " + message;
            break;
        case CsvIssueKind::RecordTooLong: kind = RowErrorKind::RowTooLong; break;
    }
    out_->push_back({issue.line, RowError{kind, issue.line, issue.column, std::move(message)}});
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
