#pragma once
// One pull of a registered shop plugin (spec endpoint 6, docs/adr/0035, docs/api/shop-plugin.md):
// GET the attributes and the variant dimensions, then the products page by page, every call
// through the OutboundFetcher (SSRF guard) with the headers svc-com-tid and svc-com-fid and a
// 5 s limit. The products are mapped onto feed records (PluginProductMapper) into a spooled CSV
// feed and imported through FeedImportService like any feed: the same history (source
// "plugin <products URL>"), truncation guard and content rebuilds. A pull that fails before the
// import is a failed history entry naming the endpoint and the reason (the plugin's own
// {error, message} included). Run by the PullScheduler for pull sources of kind "plugin".
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "feed/FeedImportService.hpp"
#include "feed/FeedPuller.hpp"
#include "net/OutboundFetcher.hpp"
#include "store/FeedImportStore.hpp"
#include "store/ShopRegistrationStore.hpp"
#include "store/TenantStore.hpp"

namespace svc {

struct PluginPullLimits {
    long callTimeoutMs = 5000;               // per request (the shop-side connector's limit)
    int64_t pageSize = 100;                  // products asked for per page (limit)
    int64_t maxPageBytes = int64_t{16} << 20;
    int64_t maxListBytes = int64_t{1} << 20;  // attributes, variantDimensions
    int64_t maxProducts = 2'000'000;         // a total beyond this is refused, not paged through
};

class ShopPluginPuller {
public:
    ShopPluginPuller(const OutboundFetcher& fetcher, FeedImportService& imports, FeedImportStore& history, TenantStore& tenants,
                     ShopRegistrationStore& registrations, const Clock& clock, std::string spoolDir, PluginPullLimits limits = {})
        : fetcher_(fetcher), imports_(imports), history_(history), tenants_(tenants), registrations_(registrations), clock_(clock),
          spoolDir_(std::move(spoolDir)), limits_(limits) {}

    // Errors only when the history itself cannot be written; a failed pull is a Failed outcome.
    // The registration's last contact and pull result are updated either way.
    Result<PullOutcome> pull(PullSource source);

    static std::string sourceLabel(const std::string& productsUrl) { return "plugin " + productsUrl; }

private:
    struct Call;
    Result<PullOutcome> run(PullSource source, const Tenant& tenant, const StoredShopRegistration& registration, Call& call);
    Result<PullOutcome> recordFailure(PullSource source, const std::string& label, bool delta, const std::string& reason);

    const OutboundFetcher& fetcher_;
    FeedImportService& imports_;
    FeedImportStore& history_;
    TenantStore& tenants_;
    ShopRegistrationStore& registrations_;
    const Clock& clock_;
    std::string spoolDir_;
    PluginPullLimits limits_;
};

}  // namespace svc
