#pragma once
// MetricsReader on PostgreSQL (docs/adr/0089): the same figures as on SQLite, each one statement
// bounded by configuration (tenants, pull sources, feeds) or a capped count. Database sizes are
// the database's ("svc") and the event tables' with their indexes and partitions ("events");
// PostgreSQL's write-ahead log is the server's, not svc's, so it is not reported.
#include "store/MetricsReader.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgMetricsReader : public MetricsReader {
public:
    explicit PgMetricsReader(PgDatabase& database) : database_(database) {}

    Result<ImportQueueFigures> importQueue() override;
    Result<std::vector<PullSourceFigures>> pullSources() override;
    Result<std::vector<PushedFeedFigures>> pushedFeeds() override;
    Result<BookingBacklogFigures> bookingBacklog(int64_t perTenantCap) override;
    std::vector<DatabaseSizeFigures> databaseSizes() override;

private:
    PgDatabase& database_;
};

}  // namespace svc
