#include "tracking/OrderConfirmations.hpp"
#include "log/Log.hpp"

#include <iostream>
#include <limits>

namespace svc {

Result<OrderView> OrderConfirmations::settle(int64_t tenantId, const std::string& orderId, const OrderConfirmation& word) {
    auto recorded = events_.recordShopWord(tenantId, orderId, word, clock_.nowSeconds());
    if (!recorded) return recorded.error();
    // Stored is what counts; booking it now only makes the answer current (the next pass books it otherwise).
    if (auto status = attributor_.catchUp(tenantId); !status) {
        Log::error("booking: " + status.error().message, std::to_string(tenantId));
    }
    auto order = view(tenantId, orderId);
    if (!order) return order.error();
    order->changed = recorded->changed;
    return order;
}

Result<OrderView> OrderConfirmations::view(int64_t tenantId, const std::string& orderId) {
    auto claims = ledger_.orderClaims(tenantId, orderId, std::numeric_limits<int64_t>::max());
    if (!claims) return claims.error();
    if (claims->empty()) return Error::notFound("orderid: nobody claimed order '" + orderId + "'");
    OrderView order;
    order.orderId = orderId;
    order.settled = settleOrder(*claims);
    order.claims = std::move(*claims);
    return order;
}

}  // namespace svc
