#pragma once
// Tracking events in <data-dir>/events.sqlite3 (docs/adr/0014).
#include <memory>
#include <mutex>
#include <string>

#include "store/EventStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteEventStore : public EventStore {
public:
    // Opens (creating and migrating) the file with synchronous=FULL: a commit is on disk
    // when it returns, which is what the endpoint's acknowledgement promises.
    static Result<std::unique_ptr<SqliteEventStore>> open(const std::string& path);

    Result<std::vector<std::vector<AppendOutcome>>> append(std::span<const EventAppend> requests, int64_t receivedAt) override;
    Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) override;

private:
    SqliteEventStore(std::unique_ptr<SqliteDatabase> writer, std::unique_ptr<SqliteDatabase> reader)
        : writer_(std::move(writer)), reader_(std::move(reader)) {}

    // Two connections: a read on the writer's connection would see a batch that is not
    // committed yet (and may roll back); the reader sees only committed transactions (WAL).
    std::unique_ptr<SqliteDatabase> writer_;
    std::unique_ptr<SqliteDatabase> reader_;
    std::mutex writeMutex_;
    std::mutex readMutex_;
};

}  // namespace svc
