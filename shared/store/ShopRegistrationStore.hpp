#pragma once
// Shop plugin registrations (spec endpoint 6, docs/adr/0035). A registration and the pull
// source that schedules its pulls are written atomically: there is never one without the
// other. What operators see of a connection is kept here too: the last registration (the
// shop's last contact), the last time the plugin answered svc, and the last pull's result.
//
// Contract (tests/store/ShopRegistrationStoreContractTest.cpp):
// - one registration per tenant: save replaces it, keeping createdAt; find of a tenant without
//   one is nullopt, and never returns another tenant's.
// - save adds a plugin pull source for the feed (due now); AlreadyExists naming the feed when
//   that feed is pulled from a file already, and then nothing is stored.
// - list is newest registration first (updatedAt, then tenant id).
// - the record's strings (URLs, versions, tokens) are stored byte for byte.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "shop/ShopRegistration.hpp"

namespace svc {

struct StoredShopRegistration {
    int64_t tenantId = 0;
    std::string feedId;
    ShopRegistration record;
    int64_t createdAt = 0;
    int64_t updatedAt = 0;       // the last registration: when the shop last contacted svc
    int64_t lastContactAt = 0;   // when the plugin last answered one of svc's requests (0: never)
    int64_t lastPullAt = 0;      // when the last pull ended (0: none yet)
    std::string lastPullResult;  // "applied", "held", "failed: <reason>"
    int64_t lastFullPullAt = 0;  // the last full pull that reached the catalog (0: a full pull is due)
};

// The pulls a registration schedules: an hourly source; a pull is full when the last full one is
// older than a day (or none reached the catalog since the registration), else a stock and price delta.
constexpr int64_t kPluginPullInterval = 3600;
constexpr int64_t kPluginFullPullInterval = 24 * 3600;
// A re-registration asks for a prompt pull, but not more often than this: registering must not
// become a way to make svc hammer a shop (docs/adr/0035).
constexpr int64_t kPluginPromptPullSpacing = 300;

class ShopRegistrationStore {
public:
    virtual ~ShopRegistrationStore() = default;

    // Stores a registration of the tenant's feed (`feed`: its name, `feedId`: its UUID) and adds
    // or updates its plugin pull source, due now (or once the prompt-pull spacing has passed).
    // AlreadyExists, naming the feed, when that feed is pulled from a file already.
    virtual Result<StoredShopRegistration> save(int64_t tenantId, const std::string& feed, const std::string& feedId,
                                                const ShopRegistration& record, int64_t now) = 0;
    virtual Result<std::optional<StoredShopRegistration>> find(int64_t tenantId) = 0;
    // Every registration, newest first (the operators' console).
    virtual Result<std::vector<StoredShopRegistration>> list() = 0;
    // After a pull: its result; `contactAt` when the plugin answered at all (0 keeps the last);
    // `full` when a full pull reached the catalog.
    virtual Status recordPull(int64_t tenantId, int64_t finishedAt, const std::string& result, int64_t contactAt, bool full) = 0;
};

}  // namespace svc
