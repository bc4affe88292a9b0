#pragma once
// Tracking events in <data-dir>/events.sqlite3 (docs/adr/0014).
#include <memory>
#include <mutex>
#include <string>

#include "store/EventStore.hpp"
#include "store/SqliteDatabase.hpp"
#include "store/WalCheckpointer.hpp"

namespace svc {

class SqliteEventStore : public EventStore {
public:
    // Opens (creating and migrating) the file with synchronous=FULL: a commit is on disk
    // when it returns, which is what the endpoint's acknowledgement promises.
    static Result<std::unique_ptr<SqliteEventStore>> open(const std::string& path);

    Result<std::vector<std::vector<AppendOutcome>>> append(std::span<const EventAppend> requests, int64_t receivedAt) override;
    Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) override;

private:
    SqliteEventStore(std::unique_ptr<SqliteDatabase> writer, std::unique_ptr<SqliteDatabase> reader, SqliteStatement insertEvent,
                     SqliteStatement insertLine)
        : writer_(std::move(writer)), reader_(std::move(reader)), insertEvent_(std::move(insertEvent)), insertLine_(std::move(insertLine)) {}

    // Two connections: a read on the writer's connection would see a batch that is not
    // committed yet (and may roll back); the reader sees only committed transactions (WAL).
    std::unique_ptr<SqliteDatabase> writer_;
    std::unique_ptr<SqliteDatabase> reader_;
    // Prepared once: a group commit runs every few milliseconds under load (used under writeMutex_).
    SqliteStatement insertEvent_;
    SqliteStatement insertLine_;
    // The writer's checkpoints run on their own thread, not inside a group commit.
    std::unique_ptr<WalCheckpointer> checkpointer_;
    std::mutex writeMutex_;
    std::mutex readMutex_;
};

}  // namespace svc
