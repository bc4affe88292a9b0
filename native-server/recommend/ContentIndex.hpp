#pragma once
// Keeps every tenant's ContentSnapshot current. The first query of a tenant builds its
// snapshot; afterwards each change (an import in this process, or a content generation
// bumped by any process: CLI imports, set authoring) triggers an incremental rebuild in
// the background while queries keep answering from the previous snapshot, which is
// swapped for the new one only when complete (no gap, no half state).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "recommend/ContentSnapshotBuilder.hpp"
#include "recommend/RecommendationService.hpp"
#include "sets/CategorySlotMapping.hpp"
#include "store/CatalogStore.hpp"
#include "store/CategoryMappingStore.hpp"
#include "store/ContentStore.hpp"
#include "store/EventStore.hpp"

namespace svc {

class ServiceMetrics;

// SKU -> the lowest selling price (cents) of the 30 days before its current price began, for
// the SKUs asked about that have one: the catalog's price history (ADR 0030).
using LowestPriceLookup = std::function<Result<std::map<std::string, int64_t>>(int64_t tenantId, const std::vector<std::string>& skus)>;

struct ContentIndexOptions {
    unsigned threads = 2;           // for list computation; this machine has two cores
    int pollMilliseconds = 2000;    // how often content generations are checked
    int fullRebuildEvery = 50;      // incremental builds before a full one retrains the feature space
    int refreshSeconds = 3600;      // a tenant's content is rebuilt at least this often (stale flags, time)
    // New purchases are learned from at most this late (plus one build): the poller checks every
    // pollMilliseconds for tenants built longer ago than this with orders the build lacks (ADR 0074).
    int purchaseRefreshSeconds = 60;
};

class ContentIndex : public ContentSource {
public:
    ContentIndex(CatalogStore& catalog, ContentStore& content, EventStore* events, const Clock& clock, ContentIndexOptions options = {});
    ~ContentIndex() override;
    ContentIndex(const ContentIndex&) = delete;
    ContentIndex& operator=(const ContentIndex&) = delete;

    void start();  // the background rebuild thread
    void stop();

    Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t tenantId) override;
    // Schedules a rebuild of the tenant's content (after an import committed).
    void contentChanged(int64_t tenantId);
    // The same after an import of this process committed, with what it changed: the rebuild
    // reads just those articles by key, unless an import it was not told of (another
    // process's) came in between; then it scans the catalog's change stamps.
    void catalogChanged(int64_t tenantId, CatalogChange change);
    // Checks the content generations now instead of at the next poll: another node said it
    // changed something (PostgreSQL NOTIFY, ADR 0091). What this node built already is not rebuilt.
    void pollNow();
    // How the tenant's last build read the catalog (for tests and the bench).
    enum class CatalogRead { None, Everything, ChangedByScan, ChangedByKey };
    CatalogRead lastCatalogRead(int64_t tenantId);
    // Rebuilds now, in the calling thread; `full` retrains from scratch.
    Status rebuild(int64_t tenantId, bool full = false);
    // Waits until no rebuild is scheduled or running.
    void waitIdle();
    // Picks up every change recorded so far (in any process) and waits until the
    // snapshots include it: what a test does before it queries.
    void catchUp();

    // How current the served content is, over the tenants whose content is loaded: the
    // operator's view of "a change was made and the widgets do not show it yet".
    struct Freshness {
        size_t tenantsLoaded = 0;
        size_t tenantsBehind = 0;       // a change arrived that their served snapshot lacks
        double maxBehindSeconds = 0;    // the longest such wait, since the change's arrival
        double maxAgeSeconds = 0;       // the oldest served snapshot, since it was built
    };
    Freshness freshness() const;
    // Up to where a tenant's served content has learned from its purchases (ADR 0074).
    struct Learned {
        int64_t tenantId = 0;
        size_t orders = 0;               // orders the served snapshot learned from
        int64_t lastOrderReceivedAt = 0;  // Unix seconds of the newest of them (0: none)
        int64_t lastSequence = 0;        // the purchase cursor the served snapshot includes
    };
    // Every tenant whose content is loaded, by tenant id, and those whose figures were stored by an
    // earlier run (content not built since the start): a restart does not forget what was learned.
    std::vector<Learned> learned() const;
    // Learns every purchase stored so far, now, in the calling thread (waiting for a build under
    // way), and says up to where: what an evaluation or an operator waits on.
    Result<Learned> learnNow(int64_t tenantId);
    // Rebuild durations and failures are reported here; set before start().
    void setMetrics(ServiceMetrics* metrics) { metrics_ = metrics; }
    // Where builds read the recorded lowest 30-day prices of the reduced variants they read, so
    // answers carry them without a query (ADR 0080); set before the first build. Without it,
    // snapshots have none.
    void setLowestPrices(LowestPriceLookup lookup) { lowestPrices_ = std::move(lookup); }
    // Each tenant's categories mapped onto the content pool's slots (ADR 0075), applied to the
    // templates of every build; without it the templates stand as stored. Set before start().
    void setCategoryMappings(CategoryMappingStore* mappings) { mappings_ = mappings; }
    // The tenant's content as it would be with `mapping` instead of the stored one, built from the
    // served snapshot and never served: the console's preview of a mapping before it is saved.
    Result<std::shared_ptr<const ContentSnapshot>> draftWithMapping(int64_t tenantId, const CategorySlotMapping& mapping);

private:
    struct TenantContent {
        std::mutex buildMutex;  // one build per tenant at a time
        std::shared_ptr<const ContentSnapshot> current;
        int incrementalBuilds = 0;
        int64_t catalogSequence = 0;  // the catalog's change sequence the current snapshot includes
        // Changes of this process's imports after catalogSequence (see catalogChanged).
        KnownChanges knownChanges;
        size_t knownSkus = 0;  // in knownChanges, to bound them while builds fail
        CatalogRead lastRead = CatalogRead::None;
        std::chrono::steady_clock::time_point builtAt;
        // When the first change the current snapshot lacks arrived (nullopt: up to date).
        std::optional<std::chrono::steady_clock::time_point> changedSince;
        // Purchases read so far (SKUs per order) and the cursor to read on from.
        std::vector<std::vector<std::string>> orders;
        std::atomic<int64_t> lastPurchaseSequence{0};  // written by builds, read by the poller
        int64_t lastOrderReceivedAt = 0;               // of the newest order read
        Learned learned;                               // what `current` includes (under mutex_)
    };
    TenantContent& tenant(int64_t tenantId);
    std::shared_ptr<const ContentSnapshot> current(TenantContent& content);
    Status build(int64_t tenantId, TenantContent& content, bool full, bool rereadAll);
    Status buildSnapshot(int64_t tenantId, TenantContent& content, bool full, bool rereadAll);
    Status readCuratedSets(int64_t tenantId, ContentInputs& inputs);
    void markBehind(int64_t tenantId);  // with mutex_ held
    void run();
    // Tenants whose generation moved since last seen (0: the templates, so every tenant).
    std::set<int64_t> changedTenants(const std::map<int64_t, int64_t>& generations);
    void addAffected(int64_t tenantId, std::set<int64_t>& work) const;
    ParallelFor parallelFor() const;

    CatalogStore& catalog_;
    ContentStore& contentStore_;
    EventStore* events_;
    const Clock& clock_;
    ContentIndexOptions options_;

    ServiceMetrics* metrics_ = nullptr;
    LowestPriceLookup lowestPrices_;
    CategoryMappingStore* mappings_ = nullptr;
    mutable std::mutex mutex_;  // guards the members below and every TenantContent::current
    std::map<int64_t, std::unique_ptr<TenantContent>> tenants_;
    std::set<int64_t> pending_;
    std::map<int64_t, int64_t> generations_;
    // "Learned up to" as last stored (ADR 0074): reported for tenants not loaded since the start.
    std::map<int64_t, ContentStore::LearnedUpTo> storedLearned_;
    bool stopping_ = false;
    bool pollRequested_ = false;
    bool busy_ = false;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::thread thread_;
};

}  // namespace svc
