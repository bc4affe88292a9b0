#pragma once
// Books every claim on an order into the commission ledger (docs/adr/0021, 0056): for each line
// of the claim that earns (tracking/OrderSettlement) the interaction that earned it
// (tracking/AttributionRule), the rate and the commission (tracking/Commission); a reversal of
// what a claim earned when a later claim takes its place. Runs behind the events endpoint,
// never in its way: a background pass every few seconds, and catchUp() before anything reads
// the ledger (reports, returns). One tenant at a time, each with its own cursor, and a line
// whose money cannot be booked is set aside (quarantined) with its reason: nothing one order
// or one tenant holds can stop the booking of any other (docs/adr/0055).
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "store/LedgerStore.hpp"
#include "store/TenantStore.hpp"
#include "tracking/AttributionCatalog.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {

// A return as the shop reports it: which units of which lines came back.
struct ReturnRequest {
    std::string returnId;  // unique per tenant: a repeated report is acknowledged and ignored
    struct Line {
        std::string sku;
        int64_t amount = 0;
    };
    std::vector<Line> lines;  // empty with `cancel`: everything still kept
    bool cancel = false;
};

struct ReturnOutcome {
    bool duplicate = false;
    std::vector<LedgerEntry> entries;  // booked now (empty for a duplicate)
};

class Attributor {
public:
    Attributor(LedgerStore& ledger, TenantStore& tenants, AttributionCatalog& catalog, const Clock& clock)
        : ledger_(ledger), tenants_(tenants), catalog_(catalog), clock_(clock) {}
    ~Attributor();

    // Starts the background passes (every `intervalMs`), each only when `mayBook` says so (the
    // cluster's leader books, docs/adr/0092; none: always). catchUp stays open to every node: a
    // booking is idempotent (LedgerStore), so a report's catch-up beside the leader's pass books nothing twice.
    void start(int intervalMs = 2000, std::function<bool()> mayBook = {});
    void stop();
    // Books every tenant's claims stored so far. A tenant whose booking fails (its store or its
    // contract) is retried by the next pass and holds up no other; the first failure is returned.
    // Serialised with the background pass.
    Status catchUp();
    // Books one tenant's claims stored so far (before its reports and returns).
    Status catchUp(int64_t tenantId);
    // Books a return or cancellation of an order, against its earning claim; refuses (naming the
    // field) a SKU not in the order, more units than are still kept, and an order that is
    // disputed or rejected (nothing of it earns).
    Result<ReturnOutcome> bookReturn(int64_t tenantId, const std::string& orderId, const ReturnRequest& request);

private:
    struct Booking;
    Status bookTenant(int64_t tenantId);
    Status bookClaims(int64_t tenantId, const std::vector<OrderClaim>& claims);
    Status bookSales(Booking& booking, const std::vector<OrderClaim>& claims, const SettledOrder& settled);
    Status bookReversal(Booking& booking, const OrderClaim& claim, ClaimStatus why, int64_t at);

    LedgerStore& ledger_;
    TenantStore& tenants_;
    AttributionCatalog& catalog_;
    const Clock& clock_;
    std::mutex passMutex_;
    std::mutex stateMutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace svc
