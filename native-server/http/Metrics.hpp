#pragma once
// Request counters and latency sums per route, exposed in Prometheus text format.
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace svc {

class Metrics {
public:
    void recordRequest(const std::string& route, int status, double seconds);
    std::string render() const;

private:
    struct Series {
        uint64_t count = 0;
        double secondsSum = 0;
    };
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, int>, Series> requests_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Collapses a path to its route template, so labels stay few ("/:apiId/content").
std::string routeLabel(const std::string& method, const std::string& path);

}  // namespace svc
