#pragma once
// Stage one of a feed import: bytes to mapped rows (a Product or a typed RowError
// each). It touches no store, so it can run on its own thread while stage two
// (FeedImporter::apply) writes the previous rows.
#include <memory>
#include <string_view>
#include <variant>
#include <vector>

#include "core/Result.hpp"
#include "feed/CsvReader.hpp"
#include "feed/FeedImportOptions.hpp"
#include "feed/FeedRowMapper.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

struct MappedRow {
    size_t line = 0;
    std::variant<Product, RowError> content;
};

class FeedParser : private CsvSink {
public:
    explicit FeedParser(FeedImportOptions options);

    // Appends the complete rows of `chunk` to `out`. Fails for good when the header is unusable.
    Status parse(std::string_view chunk, std::vector<MappedRow>& out);
    // End of the file: the last row (a file need not end with a newline). Fails without a header.
    Status finish(std::vector<MappedRow>& out);
    // The header's mapping; null until the header was read. Immutable afterwards.
    const FeedRowMapper* mapper() const { return mapper_.get(); }
    // Takes back rows stage two is done with: their products are reused for later rows
    // (their buffers, that is: no free now and no malloc then). Leaves `rows` empty.
    void recycle(std::vector<MappedRow>& rows);

    // Every identifier the feed listed (valid rows only). Complete after finish().
    const SkuSet& listedSkus() const { return listed_; }

private:
    void onRecord(const CsvRecord& record) override;
    void onMalformedRecord(const CsvIssue& issue) override;

    FeedImportOptions options_;
    CsvReader reader_;
    std::unique_ptr<FeedRowMapper> mapper_;
    std::vector<std::string> header_;  // column names, for row errors the mapper does not make
    std::vector<MappedRow>* out_ = nullptr;
    SkuSet listed_;
    std::vector<Product> spare_;
    std::optional<Error> failure_;
    bool headerSeen_ = false;
};

}  // namespace svc
