// Feeds arbitrary bytes through the CSV reader and row mapper, split into chunks at
// a position the input chooses, and checks that chunking never changes the result and
// that mapping into a reused product equals mapping into a fresh one.
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
