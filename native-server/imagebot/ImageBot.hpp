#pragma once
// The image bot (spec section 9, docs/adr/0038): fetches every product's image and thumbnail
// URL once, politely, through the OutboundFetcher (SSRF guard, limits), and keeps per URL its
// facts (dominant colours, perceptual hash, size, or why it failed) and an svc thumbnail at
// <data-dir>/thumbs/tenant-<id>/<sha256 of the URL>.jpg.
//
// Work comes from scans: of every tenant at start and every `rescanInterval` (imports by other
// processes), and of one tenant after each applied import (catalogChanged, which only queues:
// imports and requests never wait for the bot). A scan queues the URLs the fact store does not
// know yet, so an unchanged URL is never fetched again.
//
// Several bots (nodes of a cluster) may scan the same catalogs (docs/adr/0088): before each
// request a worker claims one of the host's `perHostLimit` slots as a lease shared by every node
// ("image-host/<host>/<slot>"), so a host never sees more requests at once than one bot would
// make; a Retry-After pause holds every slot it can until the pause ends. Holding the slot, it
// checks the fact store again, so a URL another node fetched meanwhile is not fetched twice.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <map>
#include <optional>
#include <set>
#include <shared_mutex>
#include <unordered_map>
#include <string>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "store/ImageFactStore.hpp"
#include "store/LeaseStore.hpp"
#include "net/OutboundFetcher.hpp"
#include "net/PoliteFetchPolicy.hpp"
#include "store/BlobStore.hpp"
#include "store/CatalogStore.hpp"
#include "store/TenantStore.hpp"

namespace svc {

struct ImageBotOptions {
    std::string dataDir;
    // Where thumbnails live when nodes share them (`serve --blob-url`, docs/adr/0090): blobs
    // <tenantId>-<thumbKey>.jpg; null: <dataDir>/thumbs/tenant-<id>/<thumbKey>.jpg.
    BlobStore* thumbnails = nullptr;
    std::string infoUrl;                 // in the User-Agent: "svc-imagebot/1.0 (+<infoUrl>)"
    std::vector<std::string> allowList;  // the operator's SSRF guard exceptions (AddressPolicy)
    int workers = 4;
    PoliteFetchOptions politeness;
    FetchLimits limits{5'000, 30'000, int64_t{20} << 20, 5};  // connect, total ms, body bytes, redirects
    int64_t maxPixels = 40'000'000;  // decoded RGB: 120 MB at most per worker
    int thumbnailSide = 320;
    int thumbnailQuality = 80;
    int64_t failedRetrySeconds = 6 * 3600;  // a failed URL is tried again after this
    std::chrono::milliseconds rescanInterval{std::chrono::minutes(5)};
    // How long a fetch stays this bot's (ImageFactStore::claimFetch), renewed by each attempt:
    // longer than an attempt may take, short enough that a dead node's images are soon taken over.
    int64_t fetchClaimSeconds = 120;
    std::string leaseOwner;  // who holds the host slots: "" is this process (LeaseOwner); tests name two bots apart
};

class ImageBot {
public:
    // `leases`: where the bots of every node share the hosts' slots.
    static Result<std::unique_ptr<ImageBot>> open(ImageBotOptions options, CatalogStore& catalog, TenantStore& tenants, ImageFactStore& facts,
                                                  LeaseStore& leases, const Clock& clock);
    ~ImageBot();

    void start();  // workers, and a scan of every tenant
    void stop();   // waits for fetches under way (bounded by the fetch timeouts)
    void catalogChanged(int64_t tenantId);  // queues a scan of the tenant; returns at once
    // Until nothing is queued, scanning or in flight (tests, the bench); false on timeout.
    bool waitIdle(std::chrono::milliseconds timeout);

    ImageFactStore& facts() { return facts_; }
    std::string thumbnailPath(int64_t tenantId, const std::string& thumbKey) const;
    // The thumbnail's JPEG, or nothing when there is none (yet), from wherever thumbnails live.
    Result<std::optional<std::string>> readThumbnail(int64_t tenantId, const std::string& thumbKey) const;
    const std::string& userAgent() const { return userAgent_; }
    static std::string thumbKeyOf(const std::string& url);  // hex SHA-256
    // What content answers use of a fetched image: its pHash, and the key of svc's thumbnail to show
    // instead of the URL, only when the image is larger than a thumbnail (a feed thumbnail of that
    // size is kept as it is). From memory (loaded once per tenant, kept up to date by the workers),
    // so content requests never wait for the database. nullopt: not fetched (yet) or failed.
    struct Visual {
        uint64_t phash = 0;
        std::optional<std::string> replacementKey;
    };
    std::optional<Visual> visualFor(int64_t tenantId, const std::string& url);
    static bool validThumbKey(std::string_view key);

    struct Stats {
        int64_t fetches = 0;   // requests sent, retries included
        int64_t retries = 0;
        int64_t succeeded = 0;
        int64_t failed = 0;
    };
    Stats stats() const;
    // URLs waiting for a worker, and fetches under way (the operator's queue depth).
    struct Backlog {
        size_t queued = 0;
        int inFlight = 0;
    };
    Backlog backlog() const;

private:
    struct Job {
        int64_t tenantId = 0;
        std::string url;
        std::string host;
        int attempt = 0;  // attempts made so far
        int64_t notBeforeMs = 0;
    };
    struct Outcome {
        std::optional<ImageFacts> facts{};  // set: done (ok or failed)
        int64_t retryDelayMs = 0;
        bool pauseHost = false;  // the server asked for the wait (Retry-After): the whole host waits
        // Not fetched: another node settled the URL already (its facts in `settled`)...
        bool skipped = false;
        std::optional<ImageFacts> settled{};
        // ... or holds its claim: looked at again after retryDelayMs, to learn its facts (content
        // answers here use them) or to take over the claim once it expired. No attempt spent.
        bool heldElsewhere = false;
    };

    ImageBot(ImageBotOptions options, CatalogStore& catalog, TenantStore& tenants, ImageFactStore& facts, LeaseStore& leases, const Clock& clock,
             std::unique_ptr<OutboundFetcher> fetcher);
    // The name of a slot of `host` this bot now holds across nodes, or nullopt when other nodes hold them all.
    std::optional<std::string> claimHostSlot(const std::string& host, const std::string& owner);
    // Holds every slot of `host` it can get until `untilUnixSeconds` (a Retry-After pause for all nodes).
    void holdHostSlots(const std::string& host, const std::string& owner, int64_t untilUnixSeconds);
    // Fetched (or failed and not due) by now, by any node.
    bool settled(const Job& job);
    void scanLoop();
    void scanTenant(int64_t tenantId);
    void workLoop(int index);
    Outcome process(const Job& job, const std::string& bodyPath);
    ImageFacts failure(const Job& job, long httpStatus, std::string reason) const;
    Result<ImageFacts> analyse(const Job& job, const FetchResponse& response, const std::string& bytes);
    Status writeThumbnail(int64_t tenantId, const std::string& key, const std::string& jpeg) const;
    void remember(const ImageFacts& facts);
    static int64_t steadyMs();

    ImageBotOptions options_;
    CatalogStore& catalog_;
    TenantStore& tenants_;
    const Clock& clock_;
    ImageFactStore& facts_;
    LeaseStore& leases_;
    std::string leaseOwner_;
    std::unique_ptr<OutboundFetcher> fetcher_;
    std::string userAgent_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;     // workers: a job or a free slot
    std::condition_variable scanWake_;
    std::condition_variable idle_;
    // Queued jobs per host: picking one costs a walk over the hosts, not over every queued URL
    // (a large catalog on one busy host would otherwise make each pick O(queued)).
    struct HostQueue {
        std::deque<Job> fresh;       // not tried yet, in scan order
        std::vector<Job> retrying;   // waiting for their notBeforeMs (few)
    };
    std::map<std::string, HostQueue> queues_;
    size_t queued_ = 0;
    // The next job that may start now (taking a slot of its host), or nullopt and the earliest
    // time one may (INT64_MAX: none queued).
    std::optional<Job> takeReadyJob(int64_t nowMs, int64_t& nextReadyMs);
    std::set<std::pair<int64_t, std::string>> pending_;  // queued or in flight
    std::set<int64_t> scansDue_;
    bool scanAllDue_ = false;
    bool scanning_ = false;
    int inFlight_ = 0;
    bool stopping_ = false;
    bool started_ = false;
    PoliteFetchPolicy policy_;
    std::vector<std::thread> workers_;
    std::thread scanner_;
    std::atomic<int64_t> fetches_{0}, retries_{0}, succeeded_{0}, failed_{0};
    Visual visualOf(const ImageFacts& facts) const;
    std::shared_mutex visualsMutex_;
    std::map<int64_t, std::unordered_map<std::string, Visual>> visuals_;  // loaded tenants: url -> visual
};

}  // namespace svc
