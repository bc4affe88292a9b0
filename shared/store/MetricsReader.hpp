#pragma once
// The storage side of /metrics: the few figures an operator alerts on that live in storage,
// read at scrape time without waiting for another store's lock. Every read is bounded by
// configuration (tenants, pull sources) or by an index on the small set it counts, never by
// the events or the import history.
//
// Contract (tests/store/MetricsReaderContractTest.cpp):
// - an empty storage answers zeros and empty lists, never an error.
// - bookingBacklog counts at most `perTenantCap` claims per tenant.
// - pullSources and pushedFeeds are ordered by API ID, then feed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

struct ImportQueueFigures {
    int64_t queued = 0;
    int64_t running = 0;
    int64_t held = 0;
    int64_t oldestQueuedAt = 0;  // created_at of the oldest queued import; 0: none
};

// A pull source and its feed's newest applied import.
struct PullSourceFigures {
    std::string apiId;
    std::string feed;
    int64_t intervalSeconds = 0;
    int64_t createdAt = 0;
    int64_t lastAppliedAt = 0;  // 0: never applied
};

// A feed the shop pushes (it has imports but no pull source): its newest finished and applied imports.
struct PushedFeedFigures {
    std::string apiId;
    std::string feed;
    int64_t lastFinishedAt = 0;
    int64_t lastAppliedAt = 0;  // 0: never applied
};

struct BookingBacklogFigures {
    int64_t claims = 0;            // claims on orders stored but not yet booked (each tenant's count capped)
    int64_t oldestReceivedAt = 0;  // the oldest of them; 0: none
    int64_t quarantinedLines = 0;  // lines set aside as unbookable (capped)
};

// One database of the storage, labelled as /metrics names it ("svc", "events", "catalog/tenant-12").
struct DatabaseSizeFigures {
    std::string label;
    std::optional<int64_t> bytes;     // nullopt: the file is not there
    std::optional<int64_t> walBytes;  // nullopt: no write-ahead log
};

class MetricsReader {
public:
    virtual ~MetricsReader() = default;

    static constexpr int64_t kCountCap = 100000;

    virtual Result<ImportQueueFigures> importQueue() = 0;
    virtual Result<std::vector<PullSourceFigures>> pullSources() = 0;
    virtual Result<std::vector<PushedFeedFigures>> pushedFeeds() = 0;
    // `perTenantCap` bounds the count per tenant: a scrape during a large backlog costs at most that.
    virtual Result<BookingBacklogFigures> bookingBacklog(int64_t perTenantCap) = 0;
    // The storage's databases and their sizes: the main one, the events one, then the tenant catalogs by label.
    virtual std::vector<DatabaseSizeFigures> databaseSizes() = 0;
};

}  // namespace svc
