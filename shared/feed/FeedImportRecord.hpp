#pragma once
// One entry of a tenant's import history: a push upload, a pull or a CLI import.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "feed/RowError.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

enum class ImportStatus { Queued, Running, Applied, Failed, Held, Discarded };
std::string_view importStatusName(ImportStatus status);
bool parseImportStatus(std::string_view text, ImportStatus& out);

// Feed names: 1-40 of a-z, 0-9, '-' and '_'. The error names `field`.
Status validateFeedName(const std::string& name, const std::string& field);

struct FeedImportRecord {
    int64_t id = 0;
    int64_t tenantId = 0;
    std::string feed = "default";  // a tenant's feeds, e.g. "default" (full) and "stock" (stock and price)
    std::string source;      // "push", "cli", later "pull <url>"
    bool delta = false;
    std::string identifier = "sku";
    char delimiter = ';';
    ImportStatus status = ImportStatus::Queued;
    std::string fileKey;     // the stored file (pushes, held imports); empty when none is kept
    int64_t createdAt = 0;
    int64_t startedAt = 0;
    int64_t finishedAt = 0;
    int64_t rowsRead = 0;
    int64_t rejected = 0;
    ImportCounts counts;
    std::string message;     // why it failed or is held
    int64_t catalogProducts = -1;  // live products right after it was applied; -1: not recorded
    std::vector<RowError> rowErrors;  // the first FeedImportReport::kMaxReportedErrors (unknown SKUs among them)
    std::vector<std::string> warnings;  // about the feed as a whole (its header), each once
    // Whether the feed has product descriptions (a name column): then it may create products and,
    // as a full feed, owns what it lists (docs/adr/0070). Unknown for imports not read or older ones.
    std::optional<bool> describesProducts;
};

}  // namespace svc
