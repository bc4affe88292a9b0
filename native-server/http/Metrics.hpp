#pragma once
// Request counters per route and status, and a latency histogram per route, exposed in
// Prometheus text format. Every label value comes from a fixed set (routeLabel), so no
// request can add series or break the page.
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace svc {

class Metrics {
public:
    void recordRequest(const std::string& route, int status, double seconds);
    std::string render() const;

    // Upper bounds of the latency histogram's buckets, in seconds (+Inf is implied).
    static constexpr std::array<double, 11> kLatencyBuckets = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                                0.25,  0.5,   1.0,  2.5,   10.0};

private:
    struct Latency {
        std::array<uint64_t, kLatencyBuckets.size()> buckets{};  // not cumulative; summed when rendered
        uint64_t count = 0;
        double secondsSum = 0;
    };
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, int>, uint64_t> requests_;
    std::map<std::string, Latency> latency_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// The method as a label: one of the methods svc answers, or "OTHER".
std::string methodLabel(const std::string& method);

// Collapses a path to its route template, so labels stay few ("/:apiId/content").
std::string routeLabel(const std::string& method, const std::string& path);

}  // namespace svc
