#pragma once
// A Prometheus histogram: fixed upper bounds chosen by its owner, counts kept per bucket and
// summed into the cumulative form only when read, so observing costs one short lock.
#include <cstdint>
#include <mutex>
#include <vector>

namespace svc {

class Histogram {
public:
    explicit Histogram(std::vector<double> upperBounds) : upperBounds_(std::move(upperBounds)), counts_(upperBounds_.size(), 0) {}

    void observe(double value);

    struct Snapshot {
        std::vector<double> upperBounds;
        std::vector<uint64_t> cumulative;  // per upper bound; +Inf is `count`
        uint64_t count = 0;
        double sum = 0;
    };
    Snapshot snapshot() const;

private:
    const std::vector<double> upperBounds_;
    mutable std::mutex mutex_;
    std::vector<uint64_t> counts_;  // not cumulative
    uint64_t count_ = 0;
    double sum_ = 0;
};

}  // namespace svc
