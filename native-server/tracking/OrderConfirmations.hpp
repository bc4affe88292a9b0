#pragma once
// The shop's word on its orders (docs/adr/0056), from its backend with the API secret:
// PUT /orders/{orderid} confirms an order with its lines (or names the browser claim that is
// true) or rejects it, and GET /orders/{orderid} shows every claim on it and which one earns.
// The word is stored as a claim of its own and booked at once, so the answer shows the order
// as settled; the ledger then reverses what a claim it overrules had earned.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "store/EventStore.hpp"
#include "store/LedgerStore.hpp"
#include "tracking/Attributor.hpp"
#include "tracking/OrderSettlement.hpp"

namespace svc {

struct OrderView {
    std::string orderId;
    std::vector<OrderClaim> claims;  // in arrival order
    SettledOrder settled;
    bool changed = false;  // a PUT that stored a new word (false: the shop had said the same)
};

class OrderConfirmations {
public:
    OrderConfirmations(EventStore& events, LedgerStore& ledger, Attributor& attributor, const Clock& clock)
        : events_(events), ledger_(ledger), attributor_(attributor), clock_(clock) {}

    Result<OrderView> settle(int64_t tenantId, const std::string& orderId, const OrderConfirmation& word);
    // NotFound when nobody claimed the order id.
    Result<OrderView> view(int64_t tenantId, const std::string& orderId);

private:
    EventStore& events_;
    LedgerStore& ledger_;
    Attributor& attributor_;
    const Clock& clock_;
};

}  // namespace svc
