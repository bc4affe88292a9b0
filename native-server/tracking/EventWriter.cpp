#include "tracking/EventWriter.hpp"

#include "metrics/ServiceMetrics.hpp"

#include <exception>

namespace svc {

EventWriter::EventWriter(EventStore& store, const Clock& clock, EventWriterOptions options)
    : store_(store), clock_(clock), options_(options), thread_([this] { run(); }) {}

EventWriter::~EventWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

Result<std::vector<AppendOutcome>> EventWriter::write(int64_t tenantId, std::span<const TrackingEvent> events) {
    Pending pending{{tenantId, events}, {}, std::chrono::steady_clock::now()};
    auto done = pending.done.get_future();
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return Error::unavailable("the event writer is stopping");
        queue_.push_back(&pending);
    }
    wake_.notify_one();
    return done.get();
}

double EventWriter::oldestUncommittedSeconds() const {
    std::lock_guard lock(mutex_);
    std::optional<std::chrono::steady_clock::time_point> oldest = committingSince_;
    if (!queue_.empty() && (!oldest || queue_.front()->arrived < *oldest)) oldest = queue_.front()->arrived;
    return oldest ? std::chrono::duration<double>(std::chrono::steady_clock::now() - *oldest).count() : 0.0;
}

void EventWriter::run() {
    std::vector<EventAppend> requests;
    // Moved out of the requests' Pending: a requester destroys its Pending as soon as its
    // future is ready, possibly while set_value is still returning.
    std::vector<std::promise<Result<std::vector<AppendOutcome>>>> answers;
    std::vector<std::chrono::steady_clock::time_point> arrivals;
    while (true) {
        requests.clear();
        answers.clear();
        arrivals.clear();
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, and nothing is left to commit
            // No waiting for more requests to arrive: while one commit syncs, the next batch
            // forms by itself, so a lone request pays no added latency.
            size_t events = 0;
            while (!queue_.empty() && (requests.empty() || events + queue_.front()->request.events.size() <= options_.maxEventsPerCommit)) {
                Pending* pending = queue_.front();
                queue_.pop_front();
                events += pending->request.events.size();
                requests.push_back(pending->request);
                answers.push_back(std::move(pending->done));
                arrivals.push_back(pending->arrived);
            }
            committingSince_ = arrivals.front();
        }
        Result<std::vector<std::vector<AppendOutcome>>> outcome = Error::internal("event commit did not run");
        try {
            outcome = store_.append(requests, clock_.nowSeconds());
        } catch (const std::exception& failure) {
            // Waiting request threads must be answered whatever happens here.
            outcome = Error::internal(std::string("event commit: ") + failure.what());
        }
        {
            std::lock_guard lock(mutex_);
            committingSince_.reset();
        }
        if (options_.metrics) {
            size_t events = 0;
            for (const auto& request : requests) events += request.events.size();
            options_.metrics->eventsCommitted(events, static_cast<bool>(outcome));
            auto committed = std::chrono::steady_clock::now();
            for (auto arrived : arrivals) options_.metrics->eventRequestCommitted(std::chrono::duration<double>(committed - arrived).count());
        }
        for (size_t i = 0; i < answers.size(); ++i) {
            if (outcome) answers[i].set_value(std::move((*outcome)[i]));
            else answers[i].set_value(outcome.error());
        }
    }
}

}  // namespace svc
