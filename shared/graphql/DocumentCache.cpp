#include "graphql/DocumentCache.hpp"

namespace svc::graphql {

std::shared_ptr<const PreparedDocument> DocumentCache::find(const std::string& text) {
    std::lock_guard lock(mutex_);
    auto found = entries_.find(text);
    if (found == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second.position);
    return found->second.prepared;
}

void DocumentCache::insert(const std::string& text, std::shared_ptr<const PreparedDocument> prepared) {
    if (capacity_ == 0) return;
    std::lock_guard lock(mutex_);
    auto found = entries_.find(text);
    if (found != entries_.end()) {
        found->second.prepared = std::move(prepared);
        order_.splice(order_.begin(), order_, found->second.position);
        return;
    }
    if (entries_.size() >= capacity_) {
        entries_.erase(order_.back());
        order_.pop_back();
    }
    order_.push_front(text);
    entries_.emplace(text, Entry{std::move(prepared), order_.begin()});
}

size_t DocumentCache::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

}  // namespace svc::graphql
