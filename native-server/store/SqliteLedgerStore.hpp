#pragma once
// Attribution and the commission ledger in <data-dir>/events.sqlite3, beside the events they
// are computed from (docs/adr/0021). Its own connections: booking never holds the events
// writer's lock longer than one small transaction.
#include <memory>
#include <mutex>
#include <string>

#include "store/LedgerStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteLedgerStore : public LedgerStore {
public:
    // The file must exist and be migrated (SqliteEventStore::open does both).
    static Result<std::unique_ptr<SqliteLedgerStore>> open(const std::string& path);

    Result<std::vector<int64_t>> tenantsWithPendingClaims() override;
    Result<std::vector<OrderClaim>> claimsToBook(int64_t tenantId, size_t limit) override;
    Result<std::vector<OrderClaim>> orderClaims(int64_t tenantId, const std::string& orderId, int64_t throughSequence) override;
    Result<std::vector<Interaction>> interactions(int64_t tenantId, const std::string& cid, int64_t beforeSequence, int64_t since) override;
    Status book(int64_t tenantId, const std::vector<LedgerEntry>& entries, const std::vector<QuarantinedLine>& quarantined,
                int64_t throughSequence) override;
    Result<std::vector<LedgerEntry>> orderEntries(int64_t tenantId, const std::string& orderId) override;
    Result<bool> bookReturn(int64_t tenantId, const std::string& returnId, const std::vector<LedgerEntry>& entries) override;
    Result<std::vector<LedgerEntry>> entries(int64_t tenantId, int64_t from, int64_t to) override;
    Result<std::pair<std::vector<QuarantinedLine>, int64_t>> quarantined(int64_t tenantId, int64_t from, int64_t to, size_t limit) override;
    Result<std::vector<EventCount>> eventCounts(int64_t tenantId, int64_t from, int64_t to) override;
    Result<int64_t> pendingPurchases() override;
    Result<int64_t> pendingPurchases(int64_t tenantId) override;

private:
    explicit SqliteLedgerStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    Status insertEntries(const std::vector<LedgerEntry>& entries);
    Result<std::vector<OrderClaim>> readClaims(SqliteStatement& query);
    Result<int64_t> pendingOf(int64_t tenantId);
    Result<std::vector<LedgerEntry>> selectEntries(const std::string& where, int64_t tenantId, const std::string& text, int64_t from,
                                                   int64_t to);

    std::unique_ptr<SqliteDatabase> db_;
    std::mutex mutex_;
};

}  // namespace svc
