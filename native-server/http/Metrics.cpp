#include "http/Metrics.hpp"

#include <sstream>

namespace svc {

void Metrics::recordRequest(const std::string& route, int status, double seconds) {
    std::lock_guard lock(mutex_);
    auto& series = requests_[{route, status}];
    ++series.count;
    series.secondsSum += seconds;
}

std::string Metrics::render() const {
    std::ostringstream out;
    out << "# HELP svc_http_requests_total HTTP requests answered, by route and status.\n";
    out << "# TYPE svc_http_requests_total counter\n";
    std::lock_guard lock(mutex_);
    for (const auto& [key, series] : requests_) {
        out << "svc_http_requests_total{route=\"" << key.first << "\",status=\"" << key.second << "\"} " << series.count << "\n";
    }
    out << "# HELP svc_http_request_seconds_sum Time spent answering, by route and status.\n";
    out << "# TYPE svc_http_request_seconds_sum counter\n";
    for (const auto& [key, series] : requests_) {
        out << "svc_http_request_seconds_sum{route=\"" << key.first << "\",status=\"" << key.second << "\"} "
            << series.secondsSum << "\n";
    }
    double uptime = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    out << "# HELP svc_uptime_seconds Seconds since the server started.\n# TYPE svc_uptime_seconds gauge\n";
    out << "svc_uptime_seconds " << uptime << "\n";
    return out.str();
}

std::string routeLabel(const std::string& method, const std::string& path) {
    std::string route;
    if (path == "/healthz" || path == "/metrics" || path == "/graphql") route = path;
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
    return method + " " + route;
}

}  // namespace svc
