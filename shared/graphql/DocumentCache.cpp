#include "graphql/DocumentCache.hpp"

namespace svc::graphql {

std::shared_ptr<const PreparedDocument> DocumentCache::find(const std::string& text) {
    std::lock_guard lock(mutex_);
    auto found = entries_.find(text);
    if (found == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second.position);
    return found->second.prepared;
}

void DocumentCache::erase(std::unordered_map<std::string, Entry>::iterator entry) {
    bytes_ -= entry->second.prepared->bytes;
    order_.erase(entry->second.position);
    entries_.erase(entry);
}

void DocumentCache::insert(const std::string& text, std::shared_ptr<const PreparedDocument> prepared) {
    if (capacity_ == 0 || prepared->bytes > maxBytes_) return;
    std::lock_guard lock(mutex_);
    if (auto found = entries_.find(text); found != entries_.end()) erase(found);
    while (!entries_.empty() && (entries_.size() >= capacity_ || bytes_ + prepared->bytes > maxBytes_)) {
        erase(entries_.find(order_.back()));
    }
    bytes_ += prepared->bytes;
    order_.push_front(text);
    entries_.emplace(text, Entry{std::move(prepared), order_.begin()});
}

size_t DocumentCache::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

size_t DocumentCache::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

}  // namespace svc::graphql
