#include "feed/ImportWorker.hpp"
#include "log/Log.hpp"

#include <chrono>
#include <iostream>

namespace svc {
namespace {

// How often every node looks for running imports whose owner is gone: a dead process on this host
// is seen at once, one on another host when its lease has expired (ImportLeases::kTtlSeconds).
constexpr auto kRequeueInterval = std::chrono::seconds(5);

}  // namespace

ImportWorker::ImportWorker(FeedImportService& service, FeedImportStore& history, TenantStore& tenants, const Clock& clock)
    : service_(service), history_(history), tenants_(tenants), clock_(clock) {}

ImportWorker::~ImportWorker() { stop(); }

void ImportWorker::start() {
    requeueInterrupted();
    thread_ = std::thread([this] { loop(); });
}

void ImportWorker::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ImportWorker::notify() {
    {
        std::lock_guard lock(mutex_);
        pending_ = true;
    }
    wake_.notify_all();
}

void ImportWorker::requeueInterrupted() {
    auto requeued = history_.requeueInterrupted();
    if (!requeued) {
        Log::error("cannot requeue interrupted imports: " + requeued.error().message);
        return;
    }
    for (int64_t importId : *requeued) Log::info("import " + std::to_string(importId) + ": its process stopped during it; queued again");
}

bool ImportWorker::runOne() {
    auto next = history_.claimNextQueued(clock_.nowSeconds());
    if (!next) {
        Log::error("import queue: " + next.error().message);
        return false;
    }
    if (!*next) return false;
    auto tenant = tenants_.findById((*next)->tenantId);
    if (!tenant) {
        Log::error("import queue: " + tenant.error().message);
        return false;
    }
    if (!*tenant) {
        // Nobody can use this import any more: record why instead of leaving it "running".
        FeedImportRecord record = std::move(**next);
        record.status = ImportStatus::Failed;
        record.message = "the tenant no longer exists";
        record.finishedAt = clock_.nowSeconds();
        (void)history_.update(record);
        return true;
    }
    auto outcome = service_.runStored(**tenant, std::move(**next));
    if (!outcome) Log::error("import failed to record: " + outcome.error().message);
    return true;
}

void ImportWorker::loop() {
    auto lastRequeue = std::chrono::steady_clock::now();
    while (true) {
        {
            std::unique_lock lock(mutex_);
            // Also poll now and then: another process (the CLI) may queue work too.
            wake_.wait_for(lock, std::chrono::seconds(2), [this] { return stopping_ || pending_; });
            if (stopping_) return;
            pending_ = false;
        }
        // Not only at start: on a cluster the node that died mid-import may never start again. Safe
        // while imports run: a claim writes its lease in the same statement (docs/adr/0091).
        if (std::chrono::steady_clock::now() - lastRequeue >= kRequeueInterval) {
            lastRequeue = std::chrono::steady_clock::now();
            requeueInterrupted();
        }
        while (runOne()) {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
        }
    }
}

}  // namespace svc
