#pragma once
// Books every purchase into the commission ledger (docs/adr/0021): for each order line the
// interaction that earned it (tracking/AttributionRule), the rate and the commission
// (tracking/Commission). Runs behind the events endpoint, never in its way: a background
// pass every few seconds, and catchUp() before anything reads the ledger (reports, returns).
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/Clock.hpp"
#include "store/LedgerStore.hpp"
#include "store/TenantStore.hpp"
#include "tracking/AttributionCatalog.hpp"

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

    // Starts the background passes (every `intervalMs`).
    void start(int intervalMs = 2000);
    void stop();
    // Books every purchase stored so far. Serialised with the background pass.
    Status catchUp();
    // Books a return or cancellation of an order; refuses (naming the field) a SKU not in the
    // order or more units than are still kept.
    Result<ReturnOutcome> bookReturn(int64_t tenantId, const std::string& orderId, const ReturnRequest& request);

private:
    Status bookPending();

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
