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
    ImportCounts counts;
    std::vector<RowError> errors;  // the first kMaxReportedErrors
    static constexpr size_t kMaxReportedErrors = 1000;
};

class FeedImporter : private CsvSink {
public:
    FeedImporter(CatalogImport& import, FeedImportOptions options);

    // Feeds the next bytes. Fails (and the import must be abandoned) when the
    // header is unusable or the store fails.
    Status feed(std::string_view chunk);
    // Ends the file and commits. On failure nothing has been applied.
    Result<FeedImportReport> finish();

private:
    void onRecord(const CsvRecord& record) override;
    void onMalformedRecord(const CsvIssue& issue) override;
    void reject(RowError error);

    CatalogImport& import_;
    FeedImportOptions options_;
    CsvReader reader_;
    std::unique_ptr<FeedRowMapper> mapper_;
    std::unordered_set<std::string> seenIdentifiers_;
    FeedImportReport report_;
    std::optional<Error> failure_;
    bool headerSeen_ = false;
};

}  // namespace svc
