#pragma once
// The connection gate's limits as options of `svc-server serve` (docs/adr/0057): each
// ConnectionLimits field has a flag; times are in seconds (fractions allowed).
#include <CLI/CLI.hpp>

#include "http/ConnectionLimits.hpp"

namespace svc {

class ConnectionLimitsCli {
public:
    void addTo(CLI::App& serve);
    ConnectionLimits limits() const;
    // Raises this process's open-file limit to its hard limit: every connection is a file
    // descriptor, and the default soft limit (often 1024) would cap svc far below what it can hold.
    static void raiseOpenFileLimit();

private:
    ConnectionLimits defaults_;
    double headTimeout_ = seconds(defaults_.headTimeout);
    size_t maxHeadBytes_ = defaults_.maxHeadBytes;
    double idleTimeout_ = seconds(defaults_.idleTimeout);
    double bodyTimeout_ = seconds(defaults_.bodyTimeout);
    size_t minBodyRate_ = defaults_.minBodyBytesPerSecond;
    size_t awaitedBodyBytes_ = defaults_.awaitedBodyBytes;
    double writeTimeout_ = seconds(defaults_.writeTimeout);
    int maxConnectionsPerAddress_ = defaults_.maxConnectionsPerAddress;
    int maxWorkersPerAddress_ = defaults_.maxWorkersPerAddress;
    int maxConnections_ = defaults_.maxConnections;
    double lingerTimeout_ = seconds(defaults_.lingerTimeout);
    double keepAliveHold_ = static_cast<double>(defaults_.keepAliveHold.count()) / 1e6;

    static double seconds(std::chrono::milliseconds duration) { return static_cast<double>(duration.count()) / 1000.0; }
};

}  // namespace svc
