#pragma once
// The tenants that have purchases in events.sqlite3, for whoever walks them (the Attributor's
// booking, the metrics' backlog): each found by one index seek (events_purchases), so the walk
// costs a few queries per tenant, whatever the number of purchases.
#include <cstdint>
#include <functional>

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

// Calls `visit` with each such tenant id in ascending order; stops at the first error, its own or `visit`'s.
Status forEachTenantWithPurchases(SqliteDatabase& events, const std::function<Status(int64_t tenantId)>& visit);

}  // namespace svc
