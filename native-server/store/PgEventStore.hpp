#pragma once
// EventStore on PostgreSQL (docs/adr/0089). Clicks and add-to-carts (what attribution reads) are
// rows of `interactions`, range-partitioned by the day they arrived; views are counters per
// tenant, day and group (`event_counts`); claims on orders live in `order_claims` under one
// `orders` row per (tenant_id, order_id). `append` is the events endpoint's group commit: one
// transaction for every request, a few multi-row statements whatever the batch's size.
//
// No lost rows from sequence cursors: every writer takes the ordering lock of each tenant it
// writes (pg_advisory_xact_lock, in tenant order) before it takes sequence values, and holds it
// to its commit. A tenant's sequence order is then its commit order, so a reader of one tenant's
// rows past a cursor (purchasesSince, the ledger's claims, interactions before a claim) never
// sees a gap fill in later.
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "store/EventStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgEventStore : public EventStore {
public:
    explicit PgEventStore(PgDatabase& database) : database_(database) {}

    Result<std::vector<std::vector<AppendOutcome>>> append(std::span<const EventAppend> requests, int64_t receivedAt) override;
    Result<ShopWordOutcome> recordShopWord(int64_t tenantId, const std::string& orderId, const OrderConfirmation& word,
                                           int64_t receivedAt) override;
    Result<std::vector<PurchaseOrder>> purchasesSince(int64_t tenantId, int64_t afterSequence, size_t limit) override;
    Result<size_t> dropExpiredInteractions(int64_t now) override;

    // Retention: drops whole daily partitions of interactions that ended at or before `cutoff`
    // (Unix seconds), no row-by-row DELETE; the dropped partitions' names. dropExpiredInteractions
    // (the cluster's leader, once a day) calls it with retentionCutoff(now); views' counters and claims are kept.
    Result<std::vector<std::string>> dropInteractionsBefore(int64_t cutoff);
    // The start of the UTC day one day more than the longest attribution window of any tenant
    // before `now`: no interaction older than that can earn commission any more.
    Result<int64_t> retentionCutoff(int64_t now);

    // The ordering discipline every writer of events follows inside its transaction (public for
    // the interleaving test): lock the tenants (sorted, so two writers never deadlock), then take
    // `count` sequence values, ascending.
    static Status lockTenants(PgConnection& connection, std::vector<int64_t> tenantIds);
    static Result<std::vector<int64_t>> takeSequences(PgConnection& connection, size_t count);

private:
    // Creates the partitions of `receivedAt`'s day and the two after it when this node has not
    // seen them yet: the DDL runs in its own short transaction, never inside a group commit.
    Status ensurePartitions(PgConnection& connection, int64_t receivedAt);

    PgDatabase& database_;
    std::mutex partitionsMutex_;
    std::set<int64_t> partitionDays_;  // days whose partition this node knows to exist
};

}  // namespace svc
