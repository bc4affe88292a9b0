#pragma once
// MetricsReader on SQLite: the main and events databases read at scrape time on connections
// of its own (a scrape never waits for a store's mutex, nor holds one), and the sizes of the
// data dir's database files and their WALs.
#include <memory>
#include <string>

#include "store/MetricsReader.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteMetricsReader : public MetricsReader {
public:
    static Result<std::unique_ptr<SqliteMetricsReader>> open(const std::string& dataDir);

    Result<ImportQueueFigures> importQueue() override;
    Result<std::vector<PullSourceFigures>> pullSources() override;
    Result<std::vector<PushedFeedFigures>> pushedFeeds() override;
    Result<BookingBacklogFigures> bookingBacklog(int64_t perTenantCap) override;
    std::vector<DatabaseSizeFigures> databaseSizes() override;

private:
    SqliteMetricsReader(std::string dataDir, std::unique_ptr<SqliteDatabase> main, std::unique_ptr<SqliteDatabase> events)
        : dataDir_(std::move(dataDir)), main_(std::move(main)), events_(std::move(events)) {}
    std::string dataDir_;
    std::unique_ptr<SqliteDatabase> main_;
    std::unique_ptr<SqliteDatabase> events_;
};

}  // namespace svc
