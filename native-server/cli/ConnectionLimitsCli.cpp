#include "cli/ConnectionLimitsCli.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>

namespace svc {
namespace {

std::chrono::milliseconds milliseconds(double seconds) { return std::chrono::milliseconds(std::llround(seconds * 1000.0)); }

}  // namespace

void ConnectionLimitsCli::addTo(CLI::App& serve) {
    auto* group = "Connections (docs/adr/0057)";
    serve.add_option("--head-timeout", headTimeout_, "Seconds a client has for a whole request head (from its first byte)")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str()->group(group);
    serve.add_option("--max-head-bytes", maxHeadBytes_, "Largest request head (request line and headers); larger ones get 431")
        ->check(CLI::Range(size_t{1024}, size_t{1} << 20))->capture_default_str()->group(group);
    serve.add_option("--idle-timeout", idleTimeout_, "Seconds an idle keep-alive connection stays open (it holds no thread)")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str()->group(group);
    serve.add_option("--body-timeout", bodyTimeout_,
                     "Seconds a request body may wait for data in all, plus 1 s per --min-body-rate bytes it delivered")
        ->check(CLI::Range(0.1, 86400.0))->capture_default_str()->group(group);
    serve.add_option("--min-body-rate", minBodyRate_, "Bytes per second a long request body must average; 0: --body-timeout in all")
        ->check(CLI::Range(size_t{0}, size_t{1} << 40))->capture_default_str()->group(group);
    serve.add_option("--awaited-body-bytes", awaitedBodyBytes_,
                     "Bodies up to this size arrive whole before a worker thread takes the request; 0: none")
        ->check(CLI::Range(size_t{0}, size_t{1} << 24))->capture_default_str()->group(group);
    serve.add_option("--write-timeout", writeTimeout_, "Seconds one write of an answer may stall (the client reads nothing) before the connection ends")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str()->group(group);
    serve.add_option("--max-connections-per-address", maxConnectionsPerAddress_,
                     "Open connections per client address (IPv6: per /64); 0: no limit (behind a proxy, set 0)")
        ->check(CLI::Range(0, 1000000))->capture_default_str()->group(group);
    serve.add_option("--max-workers-per-address", maxWorkersPerAddress_,
                     "Worker threads one client address may hold at a time; 0: no limit (behind a proxy, set 0)")
        ->check(CLI::Range(0, 100000))->capture_default_str()->group(group);
    serve.add_option("--max-connections", maxConnections_, "Open connections in all; 0: half the open-file limit")
        ->check(CLI::Range(0, 10000000))->capture_default_str()->group(group);
    serve.add_option("--linger-timeout", lingerTimeout_,
                     "Seconds the unread rest of a request answered early is read and thrown away before the connection closes")
        ->check(CLI::Range(0.0, 60.0))->capture_default_str()->group(group);
    serve.add_option("--keep-alive-hold", keepAliveHold_,
                     "Seconds a worker waits for the next request of a kept-alive connection before handing it to the waiting room")
        ->check(CLI::Range(0.0, 1.0))->capture_default_str()->group(group);
}

ConnectionLimits ConnectionLimitsCli::limits() const {
    ConnectionLimits limits = defaults_;
    limits.headTimeout = milliseconds(headTimeout_);
    limits.maxHeadBytes = maxHeadBytes_;
    limits.idleTimeout = milliseconds(idleTimeout_);
    limits.bodyTimeout = milliseconds(bodyTimeout_);
    limits.minBodyBytesPerSecond = minBodyRate_;
    limits.awaitedBodyBytes = awaitedBodyBytes_;
    limits.writeTimeout = milliseconds(writeTimeout_);
    limits.maxConnectionsPerAddress = maxConnectionsPerAddress_;
    limits.maxWorkersPerAddress = maxWorkersPerAddress_;
    limits.maxConnections = maxConnections_;
    limits.lingerTimeout = milliseconds(lingerTimeout_);
    limits.keepAliveHold = std::chrono::microseconds(std::llround(keepAliveHold_ * 1e6));
    return limits;
}

void ConnectionLimitsCli::raiseOpenFileLimit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
    limit.rlim_cur = limit.rlim_max;
    (void)::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace svc
