#include "store/TenantCache.hpp"

#include <mutex>

namespace svc {

std::optional<Tenant> TenantCache::find(const std::string& apiId) const {
    std::shared_lock lock(mutex_);
    auto found = entries_.find(apiId);
    if (found == entries_.end() || found->second.expires <= std::chrono::steady_clock::now()) return std::nullopt;
    return found->second.tenant;
}

uint64_t TenantCache::generation() const {
    std::shared_lock lock(mutex_);
    return generation_;
}

void TenantCache::put(const Tenant& tenant, uint64_t readAtGeneration) {
    std::unique_lock lock(mutex_);
    if (readAtGeneration != generation_) return;
    // A full cache starts over rather than tracking ages: it holds tenants, of which a
    // server has few, so this only happens if the capacity is set far too low.
    if (entries_.size() >= capacity_) entries_.clear();
    entries_[tenant.apiId] = {tenant, std::chrono::steady_clock::now() + ttl_};
}

void TenantCache::clear() {
    std::unique_lock lock(mutex_);
    ++generation_;
    entries_.clear();
}

}  // namespace svc
