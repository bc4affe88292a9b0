#include "store/ImportLeases.hpp"

#include <chrono>
#include <vector>

#include "store/LeaseOwner.hpp"

namespace svc {

ImportLeases::ImportLeases(LeaseStore& leases, const Clock& clock) : leases_(leases), clock_(clock) {}

ImportLeases::~ImportLeases() {
    std::set<int64_t> held;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        held.swap(held_);
    }
    wake_.notify_all();
    if (renewer_.joinable()) renewer_.join();
    for (int64_t importId : held) (void)leases_.release(nameOf(importId), LeaseOwner::ofThisProcess());
}

ImportLeases::Row ImportLeases::rowForNewImport() const {
    return Row{kNamePrefix, LeaseOwner::ofThisProcess(), clock_.nowSeconds() + kTtlSeconds};
}

void ImportLeases::adopt(int64_t importId) {
    std::lock_guard lock(mutex_);
    held_.insert(importId);
    if (!renewer_.joinable() && !stopping_) renewer_ = std::thread([this] { renewLoop(); });
}

void ImportLeases::hold(int64_t importId) {
    {
        std::lock_guard lock(mutex_);
        if (held_.count(importId)) return;  // adopted, or held already: the renewer keeps it
    }
    auto claimed = leases_.claim(nameOf(importId), LeaseOwner::ofThisProcess(), clock_.nowSeconds(), kTtlSeconds);
    if (!claimed || !*claimed) return;
    std::lock_guard lock(mutex_);
    held_.insert(importId);
    if (!renewer_.joinable() && !stopping_) renewer_ = std::thread([this] { renewLoop(); });
}

void ImportLeases::release(int64_t importId) {
    {
        std::lock_guard lock(mutex_);
        if (!held_.erase(importId)) return;
    }
    (void)leases_.release(nameOf(importId), LeaseOwner::ofThisProcess());
}

bool ImportLeases::held(int64_t importId) {
    {
        std::lock_guard lock(mutex_);
        if (held_.count(importId)) return true;
    }
    auto holder = leases_.holder(nameOf(importId), clock_.nowSeconds());
    if (!holder) return true;  // unknown: leave the import alone rather than run it twice
    return *holder && !LeaseOwner::gone((*holder)->owner);
}

// Renewed three times per TTL: a lease lapses only when its process stops renewing it.
void ImportLeases::renewLoop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, std::chrono::seconds(kTtlSeconds / 3), [this] { return stopping_; });
        if (stopping_) break;
        std::vector<int64_t> ids(held_.begin(), held_.end());
        lock.unlock();
        for (int64_t importId : ids) (void)leases_.renew(nameOf(importId), LeaseOwner::ofThisProcess(), clock_.nowSeconds(), kTtlSeconds);
        lock.lock();
    }
}

}  // namespace svc
