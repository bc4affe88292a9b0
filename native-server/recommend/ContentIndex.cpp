#include "recommend/ContentIndex.hpp"
#include "log/Log.hpp"

#include "metrics/ServiceMetrics.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>

namespace svc {

ContentIndex::ContentIndex(CatalogStore& catalog, ContentStore& content, EventStore* events, const Clock& clock, ContentIndexOptions options)
    : catalog_(catalog), contentStore_(content), events_(events), clock_(clock), options_(options) {}

ContentIndex::~ContentIndex() { stop(); }

void ContentIndex::start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable()) return;
    stopping_ = false;
    if (auto generations = contentStore_.generations()) generations_ = *generations;
    if (auto learned = contentStore_.learned()) storedLearned_ = *learned;
    thread_ = std::thread([this] { run(); });
}

void ContentIndex::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

ContentIndex::TenantContent& ContentIndex::tenant(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    auto& slot = tenants_[tenantId];
    if (!slot) slot = std::make_unique<TenantContent>();
    return *slot;
}

std::shared_ptr<const ContentSnapshot> ContentIndex::current(TenantContent& content) {
    std::lock_guard lock(mutex_);
    return content.current;
}

Result<std::shared_ptr<const ContentSnapshot>> ContentIndex::snapshot(int64_t tenantId) {
    TenantContent& content = tenant(tenantId);
    if (auto snapshot = current(content)) return snapshot;
    // First use: build in this thread (others asking meanwhile wait for the same build).
    std::lock_guard build(content.buildMutex);
    if (auto snapshot = current(content)) return snapshot;
    if (auto status = this->build(tenantId, content, true, true); !status) return status.error();
    return current(content);
}

void ContentIndex::contentChanged(int64_t tenantId) {
    {
        std::lock_guard lock(mutex_);
        pending_.insert(tenantId);
        markBehind(tenantId);
    }
    wake_.notify_all();
}

void ContentIndex::pollNow() {
    {
        std::lock_guard lock(mutex_);
        pollRequested_ = true;
    }
    wake_.notify_all();
}

void ContentIndex::catalogChanged(int64_t tenantId, CatalogChange change) {
    // Kept for a tenant whose content exists (a first build reads everything anyway) and
    // only while bounded: a change not kept only means that the next build scans.
    constexpr size_t kMaxKnownSkus = size_t{1} << 16;
    {
        std::lock_guard lock(mutex_);
        auto found = tenants_.find(tenantId);
        if (found != tenants_.end() && found->second->current && change.complete) {
            TenantContent& content = *found->second;
            if (change.sequence > content.catalogSequence && content.knownSkus + change.skus.size() <= kMaxKnownSkus) {
                content.knownSkus += change.skus.size();
                content.knownChanges[change.sequence] = std::make_shared<const CatalogChange>(std::move(change));
            }
        }
        pending_.insert(tenantId);
        markBehind(tenantId);
    }
    wake_.notify_all();
}

ContentIndex::CatalogRead ContentIndex::lastCatalogRead(int64_t tenantId) {
    TenantContent& content = tenant(tenantId);
    std::lock_guard lock(mutex_);
    return content.lastRead;
}

Status ContentIndex::rebuild(int64_t tenantId, bool full) {
    TenantContent& content = tenant(tenantId);
    std::lock_guard build(content.buildMutex);
    return this->build(tenantId, content, full || !current(content), full);
}

ParallelFor ContentIndex::parallelFor() const {
    unsigned threads = std::max(1u, options_.threads);
    return [threads](size_t count, const std::function<void(size_t)>& work) {
        if (threads == 1 || count < 64) {
            for (size_t i = 0; i < count; ++i) work(i);
            return;
        }
        // Work is taken in small chunks from a shared counter: rows differ a lot in cost. A
        // few hundred rows (an incremental build's) get smaller chunks, or one thread may be
        // left with the last expensive chunk while the other idles.
        std::atomic<size_t> next{0};
        size_t chunk = std::clamp<size_t>(count / (threads * 8), 1, 16);
        auto worker = [&] {
            while (true) {
                size_t begin = next.fetch_add(chunk);
                if (begin >= count) return;
                for (size_t i = begin; i < std::min(count, begin + chunk); ++i) work(i);
            }
        };
        std::vector<std::thread> helpers;
        for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(worker);
        worker();
        for (auto& helper : helpers) helper.join();
    };
}

Status ContentIndex::build(int64_t tenantId, TenantContent& content, bool full, bool rereadAll) {
    auto started = std::chrono::steady_clock::now();
    bool fromScratch = full || !current(content) || content.incrementalBuilds >= options_.fullRebuildEvery;
    Status status = buildSnapshot(tenantId, content, full, rereadAll);
    if (metrics_) {
        metrics_->contentRebuilt(fromScratch, static_cast<bool>(status),
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    if (status) {
        std::lock_guard lock(mutex_);
        // Changes that arrived before this build began are in it (it read the stores after).
        if (content.changedSince && *content.changedSince <= started) content.changedSince.reset();
    }
    return status;
}

void ContentIndex::markBehind(int64_t tenantId) {
    auto found = tenants_.find(tenantId);
    if (found == tenants_.end() || !found->second->current || found->second->changedSince) return;
    found->second->changedSince = std::chrono::steady_clock::now();
}

ContentIndex::Freshness ContentIndex::freshness() const {
    Freshness freshness;
    auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    for (const auto& [tenantId, content] : tenants_) {
        if (!content->current) continue;
        ++freshness.tenantsLoaded;
        freshness.maxAgeSeconds = std::max(freshness.maxAgeSeconds, std::chrono::duration<double>(now - content->builtAt).count());
        if (content->changedSince) {
            ++freshness.tenantsBehind;
            freshness.maxBehindSeconds =
                std::max(freshness.maxBehindSeconds, std::chrono::duration<double>(now - *content->changedSince).count());
        }
    }
    return freshness;
}

// The tenant's custom and photo sets, as every build (served or draft) reads them.
Status ContentIndex::readCuratedSets(int64_t tenantId, ContentInputs& inputs) {
    auto customSets = contentStore_.customSets(tenantId);
    if (!customSets) return customSets.error();
    inputs.customSets = std::move(*customSets);
    auto photoSets = contentStore_.photoSets(tenantId);
    if (!photoSets) return photoSets.error();
    inputs.photoSets = std::make_shared<const std::vector<PhotoSet>>(std::move(*photoSets));
    return {};
}

Status ContentIndex::buildSnapshot(int64_t tenantId, TenantContent& content, bool full, bool rereadAll) {
    auto started = std::chrono::steady_clock::now();
    std::shared_ptr<const ContentSnapshot> previous = full ? nullptr : current(content);
    if (previous && content.incrementalBuilds >= options_.fullRebuildEvery) previous = nullptr;
    // A catalog that went back (its file replaced) cannot be read as changes since.
    if (previous && content.catalogSequence < 0) rereadAll = true;

    ContentInputs inputs;
    auto templates = contentStore_.templates();
    if (!templates) return templates.error();
    if (mappings_) {
        auto entries = mappings_->categoryMapping(tenantId);
        if (!entries) return entries.error();
        inputs.templates = std::make_shared<const std::vector<SetTemplate>>(CategorySlotMapping(std::move(*entries)).applyTo(*templates));
    } else {
        inputs.templates = std::make_shared<const std::vector<SetTemplate>>(std::move(*templates));
    }
    if (auto sets = readCuratedSets(tenantId, inputs); !sets) return sets.error();
    if (events_) {
        while (true) {
            auto purchases = events_->purchasesSince(tenantId, content.lastPurchaseSequence, 10000);
            if (!purchases) return purchases.error();
            for (const auto& order : *purchases) {
                std::vector<std::string> skus;
                for (const auto& line : order.lines) skus.push_back(line.sku);
                content.orders.push_back(std::move(skus));
                content.lastPurchaseSequence = order.sequence;
                content.lastOrderReceivedAt = std::max(content.lastOrderReceivedAt, order.receivedAt);
            }
            if (purchases->size() < 10000) break;
        }
    }
    inputs.orders = content.orders;
    inputs.clock = &clock_;

    // Incremental builds read only the articles imports changed since the last build; full
    // ones and the periodic refresh (time moves availability on) read everything.
    bool changedOnly = previous && !rereadAll;
    KnownChanges known;
    if (changedOnly) {
        std::lock_guard lock(mutex_);
        known = content.knownChanges;  // pointers: the SKU lists are not copied
    }
    ContentSnapshotBuilder builder(previous, parallelFor(), changedOnly);
    // Every variant read is a variant whose price history may have changed (the import that
    // changes a price stamps its row): its recorded lowest price is read with it, in batches.
    std::vector<Product> batch;
    std::vector<std::string> reduced;
    Status pricesRead;
    auto addBatch = [&] {
        if (!reduced.empty() && pricesRead) {
            if (auto lowest = lowestPrices_(tenantId, reduced); !lowest) {
                pricesRead = lowest.error();
            } else {
                for (auto& product : batch) {
                    if (auto found = lowest->find(product.sku); found != lowest->end()) product.recordedLowestPrice30d = found->second;
                }
            }
        }
        for (auto& product : batch) builder.add(std::move(product));
        batch.clear();
        reduced.clear();
    };
    auto read = catalog_.forEachChangedProduct(tenantId, changedOnly ? content.catalogSequence : -1, known, [&](Product&& product) {
        if (!lowestPrices_) return builder.add(std::move(product));
        auto selling = product.sellingPrice();
        if (!product.deleted && !product.lowestPrice30d && selling && product.retailPrice && *product.retailPrice > *selling) {
            reduced.push_back(product.sku);
        }
        batch.push_back(std::move(product));
        if (batch.size() >= 1024) addBatch();
    });
    if (read) addBatch();
    if (!read) return read.error();
    if (!pricesRead) {
        Error error = pricesRead.error();
        error.message = "lowest 30-day prices: " + error.message;
        return error;
    }
    auto snapshot = builder.build(inputs);
    snapshot->setBuildSeconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    ContentStore::LearnedUpTo learnedNow{static_cast<int64_t>(inputs.orders.size()), content.lastOrderReceivedAt};
    bool learnedMoved = false;
    {
        std::lock_guard lock(mutex_);
        content.current = std::move(snapshot);
        content.learned = {tenantId, inputs.orders.size(), content.lastOrderReceivedAt, content.lastPurchaseSequence};
        auto& stored = storedLearned_[tenantId];
        learnedMoved = stored.orders != learnedNow.orders || stored.lastOrderReceivedAt != learnedNow.lastOrderReceivedAt;
        stored = learnedNow;
        content.catalogSequence = read->sequence;
        content.incrementalBuilds = previous ? content.incrementalBuilds + 1 : 0;
        content.builtAt = std::chrono::steady_clock::now();
        content.lastRead = !changedOnly ? CatalogRead::Everything : read->byKey ? CatalogRead::ChangedByKey : CatalogRead::ChangedByScan;
        // What the snapshot now includes is no longer needed.
        auto& changes = content.knownChanges;
        for (auto it = changes.begin(); it != changes.end() && it->first <= read->sequence; it = changes.erase(it)) {
            content.knownSkus -= it->second->skus.size();
        }
    }
    // Only when it moved: most builds (imports, authoring) learn nothing new. A failed write costs
    // only the figure after a restart, never the content.
    if (learnedMoved) {
        if (auto stored = contentStore_.recordLearned(tenantId, learnedNow); !stored) Log::warn("content learned up to: " + stored.error().message);
    }
    return {};
}

Result<std::shared_ptr<const ContentSnapshot>> ContentIndex::draftWithMapping(int64_t tenantId, const CategorySlotMapping& mapping) {
    auto served = snapshot(tenantId);
    if (!served) return served.error();
    TenantContent& content = tenant(tenantId);
    // The served snapshot's orders are read under the build lock (builds append to them); no
    // product is re-read, so the draft differs from the served content only in its templates.
    std::lock_guard build(content.buildMutex);
    std::shared_ptr<const ContentSnapshot> previous = current(content);
    auto templates = contentStore_.templates();
    if (!templates) return templates.error();
    ContentInputs inputs;
    inputs.templates = std::make_shared<const std::vector<SetTemplate>>(mapping.applyTo(*templates));
    if (auto sets = readCuratedSets(tenantId, inputs); !sets) return sets.error();
    inputs.orders = content.orders;
    inputs.clock = &clock_;
    ContentSnapshotBuilder builder(previous, parallelFor(), true);
    return std::shared_ptr<const ContentSnapshot>(builder.build(inputs));
}

std::vector<ContentIndex::Learned> ContentIndex::learned() const {
    std::vector<Learned> all;
    std::lock_guard lock(mutex_);
    for (const auto& [tenantId, content] : tenants_) {
        if (content->current) all.push_back(content->learned);
    }
    for (const auto& [tenantId, stored] : storedLearned_) {
        auto loaded = tenants_.find(tenantId);
        if (loaded != tenants_.end() && loaded->second->current) continue;
        all.push_back({tenantId, static_cast<size_t>(stored.orders), stored.lastOrderReceivedAt, 0});
    }
    std::sort(all.begin(), all.end(), [](const Learned& x, const Learned& y) { return x.tenantId < y.tenantId; });
    return all;
}

Result<ContentIndex::Learned> ContentIndex::learnNow(int64_t tenantId) {
    TenantContent& content = tenant(tenantId);
    std::lock_guard build(content.buildMutex);
    bool first = !current(content);
    if (auto status = this->build(tenantId, content, first, false); !status) return status.error();
    std::lock_guard lock(mutex_);
    return content.learned;
}

void ContentIndex::addAffected(int64_t tenantId, std::set<int64_t>& work) const {
    // Called with mutex_ held. Tenant 0 stands for the templates, which every tenant's sets use.
    if (tenantId != 0) {
        work.insert(tenantId);
        return;
    }
    for (const auto& [id, content] : tenants_) work.insert(id);
}

std::set<int64_t> ContentIndex::changedTenants(const std::map<int64_t, int64_t>& generations) {
    // Called with mutex_ held.
    std::set<int64_t> changed;
    for (const auto& [tenantId, generation] : generations) {
        if (generations_[tenantId] != generation) addAffected(tenantId, changed);
    }
    generations_ = generations;
    return changed;
}

void ContentIndex::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, std::chrono::milliseconds(options_.pollMilliseconds),
                       [this] { return stopping_ || pollRequested_ || !pending_.empty(); });
        if (stopping_) break;
        pollRequested_ = false;
        busy_ = true;
        lock.unlock();
        // Changes made by any process (CLI imports, authoring) show as new generations.
        auto generations = contentStore_.generations();
        lock.lock();
        std::set<int64_t> work;
        if (generations) work = changedTenants(*generations);
        for (int64_t tenantId : pending_) addAffected(tenantId, work);
        pending_.clear();
        for (int64_t tenantId : work) markBehind(tenantId);
        auto now = std::chrono::steady_clock::now();
        std::vector<std::pair<int64_t, int64_t>> learnable;  // tenant, last purchase read
        std::set<int64_t> refresh;
        for (const auto& [tenantId, content] : tenants_) {
            if (!content->current) continue;
            if (now - content->builtAt > std::chrono::seconds(options_.refreshSeconds)) refresh.insert(tenantId);
            else if (now - content->builtAt > std::chrono::seconds(options_.purchaseRefreshSeconds))
                learnable.emplace_back(tenantId, content->lastPurchaseSequence);
        }
        lock.unlock();
        // Purchases arrive all the time; they are learned from in batches, not per order.
        for (const auto& [tenantId, sequence] : learnable) {
            auto newer = events_ ? events_->purchasesSince(tenantId, sequence, 1) : Result<std::vector<PurchaseOrder>>(std::vector<PurchaseOrder>{});
            if (newer && !newer->empty()) work.insert(tenantId);
        }
        for (int64_t tenantId : refresh) work.insert(tenantId);
        for (int64_t tenantId : work) {
            TenantContent& content = tenant(tenantId);
            if (!current(content)) continue;  // never asked for: built on first use
            std::lock_guard build(content.buildMutex);
            // A failed rebuild keeps the previous snapshot; the next change tries again.
            if (auto status = this->build(tenantId, content, false, refresh.count(tenantId) > 0); !status) {
                Log::error("content not rebuilt: " + status.error().message, std::to_string(tenantId));
            }
        }
        lock.lock();
        busy_ = false;
        if (pending_.empty()) idle_.notify_all();
    }
    busy_ = false;
    idle_.notify_all();
}

void ContentIndex::catchUp() {
    auto generations = contentStore_.generations();
    {
        std::lock_guard lock(mutex_);
        if (generations) {
            for (int64_t tenantId : changedTenants(*generations)) {
                pending_.insert(tenantId);
                markBehind(tenantId);
            }
        }
    }
    wake_.notify_all();
    waitIdle();
}

void ContentIndex::waitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return stopping_ || !thread_.joinable() || (pending_.empty() && !busy_); });
}

}  // namespace svc
