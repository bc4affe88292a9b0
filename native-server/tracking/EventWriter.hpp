#pragma once
// Group commit for the events endpoint: request threads hand their events to one writer
// thread and wait; the writer stores everything that queued up during the previous commit
// in one transaction, so N concurrent requests cost one fsync instead of N, and each
// request is answered only after the commit that holds its events (docs/adr/0014).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <future>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "store/EventStore.hpp"

namespace svc {

struct EventWriterOptions {
    // Events per transaction at most: bounds a commit's duration and so the wait of the
    // requests behind it. One request is never split, so a batch may exceed it by one request.
    size_t maxEventsPerCommit = 4096;
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

private:
    struct Pending {
        EventAppend request;
        std::promise<Result<std::vector<AppendOutcome>>> done;
    };
    void run();

    EventStore& store_;
    const Clock& clock_;
    EventWriterOptions options_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending*> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace svc
