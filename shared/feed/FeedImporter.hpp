#pragma once
// Applies one CSV feed to the catalog: reads it as a stream, maps rows, rejects
// bad rows with typed reasons and applies the rest in one atomic import.
// Pure logic: the caller supplies the bytes and the CatalogImport.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/Result.hpp"
#include "feed/CsvReader.hpp"
#include "feed/FeedRowMapper.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

struct FeedImportOptions {
    std::string identifier = "sku";
    char delimiter = ';';
    bool delta = false;  // false: a full feed, products missing from it are marked deleted
};

struct FeedImportReport {
    int64_t rowsRead = 0;
    int64_t rejected = 0;
    ImportCounts counts;       // markedDeleted: what a full feed marks (or would mark) deleted
    int64_t liveBefore = 0;    // live products of the tenant before the import (for the truncation guard)
    std::vector<RowError> errors;  // the first kMaxReportedErrors
    static constexpr size_t kMaxReportedErrors = 1000;
};

class FeedImporter : private CsvSink {
public:
    FeedImporter(CatalogImport& import, FeedImportOptions options);

    // Feeds the next bytes. Fails (and the import must be abandoned) when the
    // header is unusable or the store fails.
    Status feed(std::string_view chunk);
    // Ends the file and reports what committing would change, without committing:
    // the caller applies it (CatalogImport::commit), holds it, or drops it (dry run).
    Result<FeedImportReport> finishReading();

private:
    void onRecord(const CsvRecord& record) override;
    void onMalformedRecord(const CsvIssue& issue) override;
    void reject(RowError error);

    CatalogImport& import_;
    FeedImportOptions options_;
    CsvReader reader_;
    std::unique_ptr<FeedRowMapper> mapper_;
    FeedImportReport report_;
    std::optional<Error> failure_;
    bool headerSeen_ = false;
};

// The guard against truncated full feeds: applying would delete more than `maxDeleteShare`
// of the live catalog, so the import is held for an operator.
bool exceedsDeleteShare(const FeedImportReport& report, bool delta, double maxDeleteShare);

}  // namespace svc
