#pragma once
// Group commit for the events endpoint: request threads hand their events to one writer
// thread and wait; the writer stores everything that queued up during the previous commit
// in one transaction, so N concurrent requests cost one fsync instead of N, and each
// request is answered only after the commit that holds its events (docs/adr/0014).
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "store/EventStore.hpp"

namespace svc {

class ServiceMetrics;

struct EventWriterOptions {
    // Events per transaction at most: bounds a commit's duration and so the wait of the
    // requests behind it. One request is never split, so a batch may exceed it by one request.
    size_t maxEventsPerCommit = 4096;
    // Batch sizes and commit lag are reported here; null: not recorded.
    ServiceMetrics* metrics = nullptr;
};

class EventWriter {
public:
    EventWriter(EventStore& store, const Clock& clock, EventWriterOptions options = {});
    // Commits what is already queued, then stops the thread.
    ~EventWriter();
    EventWriter(const EventWriter&) = delete;
    EventWriter& operator=(const EventWriter&) = delete;

    // Blocks until the events are durably stored (or the commit failed): one outcome per event.
    // `events` must stay alive until this returns.
    Result<std::vector<AppendOutcome>> write(int64_t tenantId, std::span<const TrackingEvent> events);
    // Seconds since the oldest request not yet committed (queued or in the commit under way)
    // reached the writer; 0 when none waits. What an operator alerts on when commits stall.
    double oldestUncommittedSeconds() const;

private:
    struct Pending {
        EventAppend request;
        std::promise<Result<std::vector<AppendOutcome>>> done;
        std::chrono::steady_clock::time_point arrived;
    };
    void run();

    EventStore& store_;
    const Clock& clock_;
    EventWriterOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending*> queue_;
    bool stopping_ = false;
    // The arrival of the oldest request in the commit under way (nullopt: none running).
    std::optional<std::chrono::steady_clock::time_point> committingSince_;
    std::thread thread_;
};

}  // namespace svc
