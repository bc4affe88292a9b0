#pragma once
// Imports a feed file from disk through the core's FeedImporter, reading it in
// fixed-size chunks so memory stays flat whatever the file size.
#include <string>

#include "feed/FeedImporter.hpp"
#include "store/CatalogStore.hpp"

namespace svc {

Result<FeedImportReport> importFeedFile(CatalogStore& catalog, int64_t tenantId, const std::string& path,
                                        const FeedImportOptions& options);

}  // namespace svc
