#include "metrics/ServiceMetrics.hpp"

namespace svc {
namespace {

constexpr std::array<std::string_view, 6> kSourceLabels = {"push", "pull", "plugin", "console", "cli", "other"};
constexpr std::array<std::string_view, 3> kOutcomeLabels = {"applied", "held", "failed"};
constexpr std::array<std::string_view, 3> kPullLabels = {"imported", "unchanged", "failed"};

// Imports take from milliseconds (a delta of a few rows) to many minutes (a million rows).
std::vector<double> importBuckets() { return {0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800}; }

size_t sourceIndex(std::string_view label) {
    for (size_t i = 0; i < kSourceLabels.size(); ++i) {
        if (kSourceLabels[i] == label) return i;
    }
    return kSourceLabels.size() - 1;
}

}  // namespace

ServiceMetrics::ServiceMetrics()
    : importSeconds_{Histogram(importBuckets()), Histogram(importBuckets()), Histogram(importBuckets()),
                     Histogram(importBuckets()), Histogram(importBuckets()), Histogram(importBuckets())},
      // Up to EventWriterOptions::maxEventsPerCommit (4096) and a request beyond it.
      commitBatchEvents_({1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}),
      commitLagSeconds_({0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}),
      rebuildSeconds_{Histogram({0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}),
                      Histogram({0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300})} {}

std::string_view ServiceMetrics::importSourceLabel(std::string_view source) {
    // Sources as FeedImportRecord::source holds them: "push", "pull <url>", "plugin <url>",
    // "console", "cli", test names. Only the first word counts; URLs never become labels.
    std::string_view word = source.substr(0, source.find(' '));
    return kSourceLabels[sourceIndex(word)];
}

void ServiceMetrics::importFinished(std::string_view source, ImportStatus status, double seconds, int64_t rowsRead, int64_t rowsRejected) {
    size_t outcome = status == ImportStatus::Applied ? 0 : status == ImportStatus::Held ? 1 : 2;
    size_t index = sourceIndex(importSourceLabel(source));
    importSeconds_[index].observe(seconds);
    ++imports_[index][outcome];
    if (status == ImportStatus::Applied) {
        rowsImported_[index] += static_cast<uint64_t>(std::max<int64_t>(0, rowsRead - rowsRejected));
        rowsRejected_[index] += static_cast<uint64_t>(std::max<int64_t>(0, rowsRejected));
    }
}

void ServiceMetrics::pullFinished(PullOutcome outcome) { ++pulls_[static_cast<size_t>(outcome)]; }

void ServiceMetrics::eventsCommitted(size_t events, bool ok) {
    commitBatchEvents_.observe(static_cast<double>(events));
    if (!ok) ++commitFailures_;
}

void ServiceMetrics::eventRequestCommitted(double lagSeconds) { commitLagSeconds_.observe(lagSeconds); }

void ServiceMetrics::contentRebuilt(bool full, bool ok, double seconds) {
    if (!ok) {
        ++rebuildFailures_;
        return;
    }
    rebuildSeconds_[full ? 1 : 0].observe(seconds);
}

void ServiceMetrics::render(ExpositionWriter& out) const {
    out.family("svc_feed_import_duration_seconds", "histogram", "Seconds from an import's start to its end (applied, held or failed), by source.");
    for (size_t s = 0; s < kSources; ++s) {
        out.histogram("svc_feed_import_duration_seconds", {{"source", std::string(kSourceLabels[s])}}, importSeconds_[s].snapshot());
    }
    out.family("svc_feed_imports_total", "counter", "Imports that ended, by source and outcome (applied, held, failed).");
    for (size_t s = 0; s < kSources; ++s) {
        for (size_t o = 0; o < kImportOutcomes; ++o) {
            out.sample("svc_feed_imports_total", {{"source", std::string(kSourceLabels[s])}, {"outcome", std::string(kOutcomeLabels[o])}},
                       static_cast<double>(imports_[s][o].load()));
        }
    }
    out.family("svc_feed_import_rows_total", "counter", "Rows of applied imports, by source: imported, or rejected with a row error.");
    for (size_t s = 0; s < kSources; ++s) {
        out.sample("svc_feed_import_rows_total", {{"source", std::string(kSourceLabels[s])}, {"result", "imported"}},
                   static_cast<double>(rowsImported_[s].load()));
        out.sample("svc_feed_import_rows_total", {{"source", std::string(kSourceLabels[s])}, {"result", "rejected"}},
                   static_cast<double>(rowsRejected_[s].load()));
    }
    out.family("svc_feed_pulls_total", "counter", "Scheduled feed pulls that ended, by outcome (imported, unchanged, failed).");
    for (size_t o = 0; o < 3; ++o) out.sample("svc_feed_pulls_total", {{"outcome", std::string(kPullLabels[o])}}, static_cast<double>(pulls_[o].load()));
    out.family("svc_feed_pull_failures_total", "counter", "Scheduled feed pulls that failed (the same as svc_feed_pulls_total{outcome=\"failed\"}).");
    out.sample("svc_feed_pull_failures_total", static_cast<double>(pulls_[2].load()));

    out.family("svc_event_commit_batch_events", "histogram", "Events stored per group commit of the event writer.");
    out.histogram("svc_event_commit_batch_events", {}, commitBatchEvents_.snapshot());
    out.family("svc_event_commit_lag_seconds", "histogram", "Seconds from a POST /events request reaching the event writer to the commit that holds its events.");
    out.histogram("svc_event_commit_lag_seconds", {}, commitLagSeconds_.snapshot());
    out.family("svc_event_commit_failures_total", "counter", "Group commits of the event writer that failed (their requests were answered with an error).");
    out.sample("svc_event_commit_failures_total", static_cast<double>(commitFailures_.load()));

    out.family("svc_content_rebuild_duration_seconds", "histogram", "Seconds to build a tenant's content snapshot, by kind (full, incremental).");
    out.histogram("svc_content_rebuild_duration_seconds", {{"kind", "incremental"}}, rebuildSeconds_[0].snapshot());
    out.histogram("svc_content_rebuild_duration_seconds", {{"kind", "full"}}, rebuildSeconds_[1].snapshot());
    out.family("svc_content_rebuild_failures_total", "counter", "Content rebuilds that failed (the previous snapshot stays served).");
    out.sample("svc_content_rebuild_failures_total", static_cast<double>(rebuildFailures_.load()));
}

}  // namespace svc
