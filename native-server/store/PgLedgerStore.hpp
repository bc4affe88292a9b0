#pragma once
// LedgerStore on PostgreSQL (docs/adr/0089): attribution reads the claims and interactions
// PgEventStore writes and books entries beside them. Its reads past a tenant's cursor skip
// nothing because PgEventStore takes a tenant's sequence values only under that tenant's
// ordering lock, held to commit (a tenant's sequence order is its commit order).
#include "store/LedgerStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgLedgerStore : public LedgerStore {
public:
    explicit PgLedgerStore(PgDatabase& database) : database_(database) {}

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
    // Views are counted per whole UTC day: a day counts when it overlaps [from, to) (reports ask
    // for whole days).
    Result<std::vector<EventCount>> eventCounts(int64_t tenantId, int64_t from, int64_t to) override;
    Result<int64_t> pendingPurchases() override;
    Result<int64_t> pendingPurchases(int64_t tenantId) override;

private:
    Result<std::vector<OrderClaim>> selectClaims(const char* purpose, const char* sql, std::initializer_list<PgParam> params);
    Result<std::vector<LedgerEntry>> selectEntries(const char* purpose, const char* sql, std::initializer_list<PgParam> params);

    PgDatabase& database_;
};

}  // namespace svc
