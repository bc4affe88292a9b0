#pragma once
// Tracking events in <data-dir>/events.sqlite3 (docs/adr/0014); purchases and the shop's words
// on its orders are claims on order ids (docs/adr/0056).
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
    Result<ShopWordOutcome> recordShopWord(int64_t tenantId, const std::string& orderId, const OrderConfirmation& word,
                                           int64_t receivedAt) override;
    Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) override;
    Result<size_t> dropExpiredInteractions(int64_t now) override;

private:
    struct Statements {
        SqliteStatement insertEvent;
        SqliteStatement insertLine;
        SqliteStatement claimsOfOrder;  // the browser claims and the shop's latest word of one order
    };
    SqliteEventStore(std::unique_ptr<SqliteDatabase> writer, std::unique_ptr<SqliteDatabase> reader, Statements statements)
        : writer_(std::move(writer)), reader_(std::move(reader)), statements_(std::move(statements)) {}

    // Where a browser purchase stands against the order's earlier claims (under writeMutex_).
    struct Classification {
        AppendOutcome outcome = AppendOutcome::Stored;
        bool laterVersion = false;  // differs from an earlier browser claim of the order
    };
    Result<Classification> classify(int64_t tenantId, const PurchaseEvent& purchase, const std::string& key);
    // One stored claim with its lines, read on the writer's connection (under writeMutex_).
    Result<OrderClaim> loadClaim(int64_t sequence);
    Status insertLines(int64_t sequence, const std::vector<OrderLine>& lines);

    // Two connections: a read on the writer's connection would see a batch that is not
    // committed yet (and may roll back); the reader sees only committed transactions (WAL).
    std::unique_ptr<SqliteDatabase> writer_;
    std::unique_ptr<SqliteDatabase> reader_;
    // Prepared once: a group commit runs every few milliseconds under load (used under writeMutex_).
    Statements statements_;
    // The writer's checkpoints run on their own thread, not inside a group commit.
    std::unique_ptr<WalCheckpointer> checkpointer_;
    std::mutex writeMutex_;
    std::mutex readMutex_;
};

}  // namespace svc
