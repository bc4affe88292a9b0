#pragma once
// The storage side of /metrics: the few figures an operator alerts on that live in the
// databases, read at scrape time on connections of its own (a scrape never waits for a
// store's mutex, nor holds one). Every query is bounded by configuration (tenants, pull
// sources) or by an index on the small set it counts, never by the events or import history.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

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
    int64_t claims = 0;           // claims on orders stored but not yet booked (each tenant's count capped)
    int64_t oldestReceivedAt = 0;  // the oldest of them; 0: none
    int64_t quarantinedLines = 0;  // lines set aside as unbookable (capped)
};

class SqliteMetricsReader {
public:
    static Result<std::unique_ptr<SqliteMetricsReader>> open(const std::string& dataDir);

    Result<ImportQueueFigures> importQueue();
    Result<std::vector<PullSourceFigures>> pullSources();
    Result<std::vector<PushedFeedFigures>> pushedFeeds();
    // `perTenantCap` bounds the count per tenant: a scrape during a large backlog costs at most that.
    Result<BookingBacklogFigures> bookingBacklog(int64_t perTenantCap);

    static constexpr int64_t kCountCap = 100000;

private:
    SqliteMetricsReader(std::unique_ptr<SqliteDatabase> main, std::unique_ptr<SqliteDatabase> events)
        : main_(std::move(main)), events_(std::move(events)) {}
    std::unique_ptr<SqliteDatabase> main_;
    std::unique_ptr<SqliteDatabase> events_;
};

}  // namespace svc
