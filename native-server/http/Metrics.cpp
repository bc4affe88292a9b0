#include "http/Metrics.hpp"

#include <sstream>

#include "app/BuildInfo.hpp"

namespace svc {

namespace {

// The exposition format's label value escapes. Labels come from fixed sets already; this keeps
// the page parseable even if a future label were to carry a quote or a line break.
std::string escapeLabelValue(const std::string& value) {
    std::string escaped;
    for (char c : value) {
        if (c == '\\') escaped += "\\\\";
        else if (c == '"') escaped += "\\\"";
        else if (c == '\n') escaped += "\\n";
        else escaped += c;
    }
    return escaped;
}

}  // namespace

void Metrics::recordRequest(const std::string& route, int status, double seconds) {
    std::lock_guard lock(mutex_);
    ++requests_[{route, status}];
    auto& latency = latency_[route];
    size_t bucket = 0;
    while (bucket < kLatencyBuckets.size() && seconds > kLatencyBuckets[bucket]) ++bucket;
    if (bucket < kLatencyBuckets.size()) ++latency.buckets[bucket];
    ++latency.count;
    latency.secondsSum += seconds;
}

std::string Metrics::render() const {
    std::ostringstream out;
    std::lock_guard lock(mutex_);
    out << "# HELP svc_http_requests_total HTTP requests answered, by route and status.\n";
    out << "# TYPE svc_http_requests_total counter\n";
    for (const auto& [key, count] : requests_) {
        out << "svc_http_requests_total{route=\"" << escapeLabelValue(key.first) << "\",status=\"" << key.second << "\"} " << count
            << "\n";
    }
    out << "# HELP svc_http_request_duration_seconds Time from the request's routing to its answer, by route.\n";
    out << "# TYPE svc_http_request_duration_seconds histogram\n";
    for (const auto& [route, latency] : latency_) {
        std::string label = "route=\"" + escapeLabelValue(route) + "\"";
        uint64_t cumulative = 0;
        for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
            cumulative += latency.buckets[i];
            out << "svc_http_request_duration_seconds_bucket{" << label << ",le=\"" << kLatencyBuckets[i] << "\"} " << cumulative << "\n";
        }
        out << "svc_http_request_duration_seconds_bucket{" << label << ",le=\"+Inf\"} " << latency.count << "\n";
        out << "svc_http_request_duration_seconds_sum{" << label << "} " << latency.secondsSum << "\n";
        out << "svc_http_request_duration_seconds_count{" << label << "} " << latency.count << "\n";
    }
    const BuildInfo& build = buildInfo();
    out << "# HELP svc_build_info The running build: version, commit and the commit's date (always 1).\n";
    out << "# TYPE svc_build_info gauge\n";
    out << "svc_build_info{version=\"" << escapeLabelValue(build.version) << "\",commit=\"" << escapeLabelValue(build.commit)
        << "\",date=\"" << escapeLabelValue(build.date) << "\"} 1\n";
    double uptime = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    out << "# HELP svc_uptime_seconds Seconds since the server started.\n# TYPE svc_uptime_seconds gauge\n";
    out << "svc_uptime_seconds " << uptime << "\n";
    return out.str();
}

std::string methodLabel(const std::string& method) {
    // The request line's method is whatever a client sent: only the methods svc answers become
    // labels, anything else is "OTHER", so junk neither breaks the page nor adds series.
    static const char* const kKnown[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
    for (const char* known : kKnown) {
        if (method == known) return method;
    }
    return "OTHER";
}

std::string routeLabel(const std::string& method, const std::string& path) {
    std::string route;
    if (path == "/healthz" || path == "/readyz" || path == "/metrics" || path == "/graphql") route = path;
    else if (path.rfind("/demo/", 0) == 0 || path == "/demo") route = "/demo/*";
    else if (path.rfind("/sdk/", 0) == 0) route = "/sdk/*";
    else if (path == "/feeds/uploads" || path == "/feeds/imports" || path == "/feeds/validate") route = path;
    else if (path.rfind("/feeds/uploads/", 0) == 0) route = "/feeds/uploads/:id";
    else if (path.rfind("/feeds/imports/", 0) == 0) {
        size_t action = path.find('/', std::string("/feeds/imports/").size());
        route = "/feeds/imports/:id" + (action == std::string::npos ? std::string() : path.substr(action));
        if (route != "/feeds/imports/:id" && route != "/feeds/imports/:id/confirm" && route != "/feeds/imports/:id/discard") route = "other";
    }
    else if (path.size() > 10 && path.compare(path.size() - 10, 10, "/loader.js") == 0) route = "/:apiId/loader.js";
    else if (path.size() > 8 && path.compare(path.size() - 8, 8, "/content") == 0) route = "/:apiId/content";
    else route = "other";
    return methodLabel(method) + " " + route;
}

}  // namespace svc
