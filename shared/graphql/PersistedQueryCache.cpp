#include "graphql/PersistedQueryCache.hpp"

namespace svc::graphql {

std::optional<std::string> PersistedQueryCache::find(int64_t tenant, const std::string& hash) {
    std::lock_guard lock(mutex_);
    auto partition = partitions_.find(tenant);
    if (partition == partitions_.end()) return std::nullopt;
    auto entry = partition->second.entries.find(hash);
    if (entry == partition->second.entries.end()) return std::nullopt;
    Order& order = partition->second.order;
    order.splice(order.begin(), order, entry->second.position);
    return entry->second.document;
}

void PersistedQueryCache::remember(int64_t tenant, const std::string& hash, const std::string& document) {
    size_t size = hash.size() + document.size();
    if (size > limits_.bytesPerTenant || limits_.documentsPerTenant == 0) return;
    std::lock_guard lock(mutex_);
    Partition& partition = partitions_[tenant];
    if (auto known = partition.entries.find(hash); known != partition.entries.end()) {
        partition.order.splice(partition.order.begin(), partition.order, known->second.position);
        return;  // the same hash is the same text: the caller checked it
    }
    while (!partition.order.empty() &&
           (partition.entries.size() >= limits_.documentsPerTenant || partition.bytes + size > limits_.bytesPerTenant)) {
        auto oldest = partition.entries.find(partition.order.back());
        partition.bytes -= oldest->first.size() + oldest->second.document.size();
        partition.entries.erase(oldest);
        partition.order.pop_back();
    }
    partition.order.push_front(hash);
    partition.entries.emplace(hash, Entry{document, partition.order.begin()});
    partition.bytes += size;
}

size_t PersistedQueryCache::documents(int64_t tenant) const {
    std::lock_guard lock(mutex_);
    auto partition = partitions_.find(tenant);
    return partition == partitions_.end() ? 0 : partition->second.entries.size();
}

size_t PersistedQueryCache::bytes(int64_t tenant) const {
    std::lock_guard lock(mutex_);
    auto partition = partitions_.find(tenant);
    return partition == partitions_.end() ? 0 : partition->second.bytes;
}

}  // namespace svc::graphql
