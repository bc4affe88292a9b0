#pragma once
// What svc's background work reports as it happens: feed imports, pulls, event commits and
// content rebuilds. Components hold a pointer to one (null: nothing is recorded, as in the CLI
// and in tests that do not look) and call it where the work ends; /metrics renders it.
// Every label value is from a fixed set named here, never from a request or a feed.
#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>

#include "feed/FeedImportRecord.hpp"
#include "metrics/ExpositionWriter.hpp"
#include "metrics/Histogram.hpp"

namespace svc {

class ServiceMetrics {
public:
    ServiceMetrics();

    // Where an import came from, as a label: push, pull, plugin, console, cli or other.
    static std::string_view importSourceLabel(std::string_view source);
    // An import ended (applied, held or failed; dry runs are not imports).
    void importFinished(std::string_view source, ImportStatus status, double seconds, int64_t rowsRead, int64_t rowsRejected);
    // A scheduled pull ended: failed (nothing imported, the history says why), unchanged or imported.
    enum class PullOutcome { Imported, Unchanged, Failed };
    void pullFinished(PullOutcome outcome);
    // One group commit of the event writer: its events, and per request the seconds from its
    // arrival at the writer to the end of the commit.
    void eventsCommitted(size_t events, bool ok);
    void eventRequestCommitted(double lagSeconds);
    // A tenant's content snapshot was rebuilt (or a rebuild failed).
    void contentRebuilt(bool full, bool ok, double seconds);

    void render(ExpositionWriter& out) const;

private:
    static constexpr size_t kSources = 6;
    static constexpr size_t kImportOutcomes = 3;  // applied, held, failed
    Histogram importSeconds_[kSources];
    std::atomic<uint64_t> imports_[kSources][kImportOutcomes] = {};
    std::atomic<uint64_t> rowsImported_[kSources] = {};
    std::atomic<uint64_t> rowsRejected_[kSources] = {};
    std::atomic<uint64_t> pulls_[3] = {};
    Histogram commitBatchEvents_;
    Histogram commitLagSeconds_;
    std::atomic<uint64_t> commitFailures_{0};
    Histogram rebuildSeconds_[2];  // incremental, full
    std::atomic<uint64_t> rebuildFailures_{0};
};

}  // namespace svc
