#pragma once
// Request counters per route and status, errors per route and status class, requests per
// tenant, and a latency histogram per route, in Prometheus text format. Every label value
// comes from a fixed set (routeLabel, the status classes) or names a tenant that exists
// (the caller checks), so no request can add series or break the page.
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "metrics/ExpositionWriter.hpp"
#include "metrics/Histogram.hpp"

namespace svc {

class Metrics {
public:
    // `tenantApiId`: the existing tenant the request was for, or empty.
    void recordRequest(const std::string& route, int status, double seconds, const std::string& tenantApiId = "");
    void render(ExpositionWriter& out) const;

    // Upper bounds of the latency histogram's buckets, in seconds (+Inf is implied).
    static constexpr std::array<double, 11> kLatencyBuckets = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                                0.25,  0.5,   1.0,  2.5,   10.0};

private:
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, int>, uint64_t> requests_;
    std::map<std::pair<std::string, std::string>, uint64_t> errors_;  // route, status class
    std::map<std::string, uint64_t> tenantRequests_;
    std::map<std::string, std::unique_ptr<Histogram>> latency_;
};

// The method as a label: one of the methods svc answers, or "OTHER".
std::string methodLabel(const std::string& method);

// Collapses a path to its route template, so labels stay few ("GET /:apiId/content").
std::string routeLabel(const std::string& method, const std::string& path);

// The API ID a request names, if it names one the way its route takes it (the path's first
// segment on /<apiId>/... routes, /shops/<apiId>/, the operator API's tenants/<apiId>, else
// the x-api-id header or the apiId parameter). Only a candidate: the caller counts it only
// for a tenant that exists.
std::string requestedApiId(const std::string& route, const std::string& path, const std::string& apiIdHeader,
                           const std::string& apiIdParameter);

}  // namespace svc
