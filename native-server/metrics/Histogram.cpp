#include "metrics/Histogram.hpp"

namespace svc {

void Histogram::observe(double value) {
    std::lock_guard lock(mutex_);
    size_t bucket = 0;
    while (bucket < upperBounds_.size() && value > upperBounds_[bucket]) ++bucket;
    if (bucket < upperBounds_.size()) ++counts_[bucket];
    ++count_;
    sum_ += value;
}

Histogram::Snapshot Histogram::snapshot() const {
    Snapshot snapshot;
    snapshot.upperBounds = upperBounds_;
    std::lock_guard lock(mutex_);
    uint64_t running = 0;
    for (uint64_t count : counts_) {
        running += count;
        snapshot.cumulative.push_back(running);
    }
    snapshot.count = count_;
    snapshot.sum = sum_;
    return snapshot;
}

}  // namespace svc
