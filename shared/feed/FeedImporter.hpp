#pragma once
// Applies one CSV feed to the catalog: rows from a FeedParser (stage one) are
// written to one atomic CatalogImport (stage two), bad rows rejected with typed
// reasons. feed()/finishReading() run both stages on the calling thread; apply()
// and summarize() let a caller run stage one on another thread. Pure logic: the
// caller supplies the bytes and the CatalogImport.
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "feed/FeedParser.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

struct FeedImportReport {
    int64_t rowsRead = 0;
    int64_t rejected = 0;
    ImportCounts counts;       // markedDeleted: what a full feed marks (or would mark) deleted; unknown: SKUs not created
    int64_t liveBefore = 0;    // live products of the tenant before the import (for the truncation guard)
    std::vector<RowError> errors;  // the first kMaxReportedErrors (unknown SKUs among them, kind UnknownSku)
    std::vector<std::string> warnings;  // about the feed as a whole (its header), each once
    std::optional<bool> describesProducts;  // the header has a name column (docs/adr/0070); unset before it was read
    static constexpr size_t kMaxReportedErrors = 1000;
};

class FeedImporter {
public:
    FeedImporter(CatalogImport& import, FeedImportOptions options);

    // Both stages on this thread. Fails (and the import must be abandoned) when the
    // header is unusable or the store fails.
    Status feed(std::string_view chunk);
    // Ends the file and reports what committing would change, without committing:
    // the caller applies it (CatalogImport::commit), holds it, or drops it (dry run).
    Result<FeedImportReport> finishReading();

    // Stage two for rows parsed elsewhere; `mapper` is the parser's header mapping. The rows
    // are left in place (the caller frees them, e.g. on the parsing thread).
    Status apply(std::vector<MappedRow>& rows, const FeedRowMapper& mapper);
    // After the parser finished and every row was applied: the report, as finishReading.
    // `listed` is the parser's SKU set (FeedParser::listedSkus).
    Result<FeedImportReport> summarize(const SkuSet& listed);
    // The SKUs of the feed read by feed()/finishReading(), for CatalogImport::commit.
    const SkuSet& listedSkus() const { return parser_.listedSkus(); }

private:
    void reject(RowError error);

    CatalogImport& import_;
    FeedImportOptions options_;
    FeedParser parser_;
    std::vector<MappedRow> pending_;
    FeedImportReport report_;
    std::optional<Error> failure_;
};

// The guard against truncated full feeds: applying would delete more than `maxDeleteShare`
// of the live catalog, so the import is held for an operator.
bool exceedsDeleteShare(const FeedImportReport& report, bool delta, double maxDeleteShare);

}  // namespace svc
