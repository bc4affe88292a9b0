#pragma once
// Runs the pulls that are due, one after another on one thread: a tenant's pulls never overlap
// (nor do different tenants' downloads compete for the link). Sources are read from the
// database on every tick, so sources added by `svc-server feed source add` are picked up
// by a running server. See docs/adr/0026.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/Clock.hpp"
#include "feed/FeedPuller.hpp"
#include "store/PullSourceStore.hpp"

namespace svc {

class ServiceMetrics;

class PullScheduler {
public:
    PullScheduler(PullSourceStore& sources, FeedPuller& puller, const Clock& clock, int64_t leaseSeconds)
        : sources_(sources), puller_(puller), clock_(clock), leaseSeconds_(leaseSeconds) {}
    ~PullScheduler() { stop(); }

    // Pulls every source due now; returns how many ran. Errors of single pulls are in the history.
    size_t runDue();
    // When a source runs next after `outcome`: its interval, or sooner (at most an hour) after a failure.
    static int64_t nextRunAfter(const PullSource& source, PullResult outcome, int64_t now);

    void start(std::chrono::milliseconds tick);
    void stop();
    // Runs the due pulls now instead of at the next tick (a shop plugin just registered).
    void wake();
    // Each pull's outcome is counted here; set before start().
    void setMetrics(ServiceMetrics* metrics) { metrics_ = metrics; }

private:
    PullSourceStore& sources_;
    FeedPuller& puller_;
    const Clock& clock_;
    int64_t leaseSeconds_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool woken_ = false;
    ServiceMetrics* metrics_ = nullptr;
};

}  // namespace svc
