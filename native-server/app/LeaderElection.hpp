#pragma once
// The cluster's leader (docs/adr/0092): of the nodes sharing one Storage, the one holding the
// lease "leader" (Storage::leases()) books attribution in the background and runs the jobs that
// must happen once for everyone (retention, expiry of sessions and drafts). It renews the lease
// every few seconds; a node that stops releases it, one that dies leaves it to expire, and
// another node takes over at its next round. On SQLite (one process) this process always wins.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "store/LeaseStore.hpp"

namespace svc {

struct LeaderJob {
    std::string name;
    int64_t everySeconds = 0;
    std::function<Status()> run;
};

class LeaderElection {
public:
    static constexpr const char* kLeaseName = "leader";
    // How long a dead leader's jobs wait for another node, at most (a node on the same host
    // that died is replaced at once: its process is gone).
    static constexpr int64_t kTtlSeconds = 15;

    LeaderElection(LeaseStore& leases, const Clock& clock, std::string owner, int64_t ttlSeconds = kTtlSeconds);
    ~LeaderElection();  // stop()
    LeaderElection(const LeaderElection&) = delete;
    LeaderElection& operator=(const LeaderElection&) = delete;

    // Before start(): run while this node leads, first at once when it takes over, then every `everySeconds`.
    void addJob(LeaderJob job);
    // Claims at once (so a lone node leads from its first request on), then every `round`.
    void start(std::chrono::milliseconds round = std::chrono::milliseconds(kTtlSeconds * 1000 / 5));
    // Ends the rounds and releases the lease: another node takes over at its next round.
    void stop();
    // True only while this node's last claim holds on the clock: never true on two nodes at once
    // (their clocks agreeing), even when a round is late.
    bool leading() const;
    // One round: claim or renew the lease, then the jobs that are due while leading.
    void runRound();

private:
    bool claim(int64_t now);

    LeaseStore& leases_;
    const Clock& clock_;
    const std::string owner_;
    const int64_t ttlSeconds_;
    std::vector<LeaderJob> jobs_;
    std::map<std::string, int64_t> lastRun_;  // by job, since this node took over
    std::mutex roundMutex_;
    std::atomic<int64_t> leadingUntil_{0};  // 0: not leading
    std::mutex stateMutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace svc
