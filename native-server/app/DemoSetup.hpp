#pragma once
// `svc-server demo setup`: the demo tenant, its generated catalog and the import,
// in one idempotent step, with a content pool and a few custom and photo sets. Only the API ID is kept in the data dir; the tenant's
// secret is never written anywhere (the demo needs none).
#include <string>

#include "core/Result.hpp"
#include "feed/FeedImportService.hpp"
#include "store/Storage.hpp"

namespace svc {

struct DemoSetupResult {
    std::string apiId;
    std::string firstSku;
    FeedImportReport report;
};

// `contentPoolFile`: the operator's templates to install when the content pool is empty
// (an operator's own pool is never replaced).
Result<DemoSetupResult> setupDemo(Storage& storage, FeedImportService& imports, const std::string& dataDir,
                                  const std::string& contentPoolFile);

}  // namespace svc
