// Feeds arbitrary bytes through the CSV reader and row mapper, split into chunks at
// a position the input chooses, and checks that chunking never changes the result and
// that mapping into a reused product equals mapping into a fresh one. The reader runs a
// second time with small field and row limits (docs/adr/0054): it must read exactly the
// records that fit, report each one that does not at its line, and split the same way.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "feed/CsvReader.hpp"
#include "feed/FeedRowMapper.hpp"

namespace {

struct Collect : svc::CsvSink {
    std::vector<svc::CsvRecord> records;
    std::vector<svc::CsvIssue> issues;
    void onRecord(const svc::CsvRecord& record) override { records.push_back(record); }
    void onMalformedRecord(const svc::CsvIssue& issue) override { issues.push_back(issue); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    char delimiter = static_cast<char>(data[0]) == ',' ? ',' : ';';
    size_t split = data[1] % (size - 1);
    std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);

    Collect whole;
    svc::CsvReader wholeReader(delimiter);
    wholeReader.feed(input, whole);
    wholeReader.finish(whole);

    Collect chunked;
    svc::CsvReader chunkedReader(delimiter);
    chunkedReader.feed(input.substr(0, split), chunked);
    chunkedReader.feed(input.substr(split), chunked);
    chunkedReader.finish(chunked);

    if (whole.records.size() != chunked.records.size() || whole.issues.size() != chunked.issues.size()) std::abort();
    for (size_t i = 0; i < whole.records.size(); ++i) {
        if (whole.records[i].fields != chunked.records[i].fields || whole.records[i].line != chunked.records[i].line) std::abort();
    }

    // The same input under limits small enough for the fuzzer to cross often.
    svc::CsvLimits limits{1 + static_cast<size_t>(data[1] % 16), 4 + static_cast<size_t>(data[1] % 48)};
    Collect limited;
    svc::CsvReader limitedReader(delimiter, limits);
    limitedReader.feed(input.substr(0, split), limited);
    limitedReader.feed(input.substr(split), limited);
    limitedReader.finish(limited);
    auto fits = [&limits](const svc::CsvRecord& record) {
        size_t bytes = record.fields.empty() ? 0 : record.fields.size() - 1;  // the delimiters
        for (const auto& field : record.fields) {
            if (field.size() > limits.maxFieldBytes) return false;
            bytes += field.size();
        }
        return bytes <= limits.maxRecordBytes;
    };
    size_t next = 0;
    for (const auto& record : whole.records) {
        if (fits(record)) {
            if (next >= limited.records.size() || limited.records[next].fields != record.fields || limited.records[next].line != record.line) std::abort();
            ++next;
        } else {
            bool reported = false;
            for (const auto& issue : limited.issues) {
                reported |= issue.line == record.line &&
                            (issue.kind == svc::CsvIssueKind::FieldTooLong || issue.kind == svc::CsvIssueKind::RecordTooLong);
            }
            if (!reported) std::abort();
        }
    }
    if (next != limited.records.size()) std::abort();
    Collect limitedBytewise;
    svc::CsvReader bytewiseReader(delimiter, limits);
    for (size_t i = 0; i < input.size(); ++i) bytewiseReader.feed(input.substr(i, 1), limitedBytewise);
    bytewiseReader.finish(limitedBytewise);
    if (limitedBytewise.records.size() != limited.records.size() || limitedBytewise.issues.size() != limited.issues.size()) std::abort();
    for (size_t i = 0; i < limited.issues.size(); ++i) {
        const auto& a = limited.issues[i];
        const auto& b = limitedBytewise.issues[i];
        if (a.kind != b.kind || a.line != b.line || a.column != b.column || a.message != b.message) std::abort();
    }
    if (!whole.records.empty()) {
        auto mapper = svc::FeedRowMapper::fromHeader(whole.records.front().fields, "sku");
        if (mapper) {
            // mapInto on a product reused from the previous rows must give exactly what map gives.
            svc::Product reused;
            for (size_t i = 1; i < whole.records.size(); ++i) {
                auto fresh = mapper->map(whole.records[i].fields, whole.records[i].line);
                auto error = mapper->mapInto(whole.records[i].fields, whole.records[i].line, reused);
                if (error.has_value() != std::holds_alternative<svc::RowError>(fresh)) std::abort();
                if (!error && !(reused == std::get<svc::Product>(fresh))) std::abort();
            }
        }
    }
    return 0;
}
