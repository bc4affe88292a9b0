#include "feed/PullScheduler.hpp"
#include "log/Log.hpp"

#include <algorithm>
#include <iostream>

#include "metrics/ServiceMetrics.hpp"

namespace svc {

int64_t PullScheduler::nextRunAfter(const PullSource& source, PullResult outcome, int64_t now) {
    if (outcome == PullResult::Failed) return now + std::min<int64_t>(source.intervalSeconds, 3600);
    return now + source.intervalSeconds;
}

size_t PullScheduler::runDue() {
    size_t ran = 0;
    while (true) {
        int64_t now = clock_.nowSeconds();
        auto claimed = sources_.claimDue(now, leaseSeconds_);
        if (!claimed) {
            Log::error("pull scheduler: " + claimed.error().message);
            return ran;
        }
        if (!*claimed) return ran;
        PullSource source = **claimed;
        auto outcome = puller_.pull(source);
        ++ran;
        int64_t finished = clock_.nowSeconds();
        if (outcome) {
            source = outcome->source;
            source.nextRunAt = nextRunAfter(source, outcome->result, finished);
        } else {
            source.lastResult = "failed: " + outcome.error().message;
            source.nextRunAt = nextRunAfter(source, PullResult::Failed, finished);
        }
        source.lastRunAt = finished;
        if (metrics_) {
            PullResult result = outcome ? outcome->result : PullResult::Failed;
            metrics_->pullFinished(result == PullResult::Imported    ? ServiceMetrics::PullOutcome::Imported
                                   : result == PullResult::Unchanged ? ServiceMetrics::PullOutcome::Unchanged
                                                                     : ServiceMetrics::PullOutcome::Failed);
        }
        if (auto stored = sources_.finish(source); !stored) {
            Log::error("pull scheduler: " + stored.error().message);
        }
        // Messages hold no credentials: URLs with user information are refused when a source is added.
        Log::info("pulled feed '" + source.feed + "': " + redactUrlsIn(source.lastResult), std::to_string(source.tenantId));
        std::lock_guard lock(mutex_);
        if (stopping_) return ran;
    }
}

void PullScheduler::start(std::chrono::milliseconds tick) {
    thread_ = std::thread([this, tick] {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            lock.unlock();
            runDue();
            lock.lock();
            wake_.wait_for(lock, tick, [this] { return stopping_ || woken_; });
            woken_ = false;
        }
    });
}

void PullScheduler::wake() {
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    wake_.notify_all();
}

void PullScheduler::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

}  // namespace svc
