#include "app/LeaderElection.hpp"

#include "log/Log.hpp"
#include "store/LeaseOwner.hpp"

namespace svc {
namespace {

// A job that failed is tried again this much later, not a whole period later (retention's is a day).
constexpr int64_t kRetryAfterFailureSeconds = 60;

}  // namespace

LeaderElection::LeaderElection(LeaseStore& leases, const Clock& clock, std::string owner, int64_t ttlSeconds)
    : leases_(leases), clock_(clock), owner_(std::move(owner)), ttlSeconds_(ttlSeconds) {}

LeaderElection::~LeaderElection() { stop(); }

void LeaderElection::addJob(LeaderJob job) { jobs_.push_back(std::move(job)); }

void LeaderElection::start(std::chrono::milliseconds round) {
    {
        std::lock_guard lock(roundMutex_);
        (void)claim(clock_.nowSeconds());  // the jobs wait for the thread: nothing slow before the server listens
    }
    thread_ = std::thread([this, round] {
        std::unique_lock lock(stateMutex_);
        while (!stopping_) {
            lock.unlock();
            runRound();
            lock.lock();
            wake_.wait_for(lock, round, [this] { return stopping_; });
        }
    });
}

void LeaderElection::stop() {
    {
        std::lock_guard lock(stateMutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::lock_guard lock(roundMutex_);
    if (leadingUntil_.exchange(0) != 0) {
        if (auto status = leases_.release(kLeaseName, owner_); !status) Log::warn("leader: release: " + status.error().message);
    }
}

bool LeaderElection::leading() const {
    int64_t until = leadingUntil_.load();
    return until != 0 && clock_.nowSeconds() < until;
}

bool LeaderElection::claim(int64_t now) {
    auto claimed = leases_.claim(kLeaseName, owner_, now, ttlSeconds_);
    if (claimed && !*claimed) {
        // A leader on this host whose process died is not waited for (a restart takes over at once).
        auto holder = leases_.holder(kLeaseName, now);
        if (holder && *holder && LeaseOwner::gone((*holder)->owner) && leases_.release(kLeaseName, (*holder)->owner)) {
            claimed = leases_.claim(kLeaseName, owner_, now, ttlSeconds_);
        }
    }
    // A claim that failed proves nothing: step down rather than risk two leaders.
    bool leads = claimed && *claimed;
    if (!claimed) Log::warn("leader: claim: " + claimed.error().message);
    int64_t was = leadingUntil_.exchange(leads ? now + ttlSeconds_ : 0);
    if (leads && was == 0) Log::info("leader: this node leads (" + owner_ + ")");
    if (!leads && was != 0) Log::info("leader: this node no longer leads");
    return leads;
}

void LeaderElection::runRound() {
    std::lock_guard lock(roundMutex_);
    int64_t now = clock_.nowSeconds();
    if (!claim(now)) {
        lastRun_.clear();  // when this node leads again, every job runs at once
        return;
    }
    for (const auto& job : jobs_) {
        auto last = lastRun_.find(job.name);
        if (last != lastRun_.end() && now - last->second < job.everySeconds) continue;
        Status status = job.run();
        if (!status) Log::warn("leader: " + job.name + ": " + status.error().message);
        lastRun_[job.name] = status ? now : now - job.everySeconds + kRetryAfterFailureSeconds;
        if (!leading()) return;  // the job outlasted the lease: the next round claims again first
    }
}

}  // namespace svc
