#include "store/TenantsWithPurchases.hpp"

#include <limits>

namespace svc {

Status forEachTenantWithPurchases(SqliteDatabase& events, const std::function<Status(int64_t tenantId)>& visit) {
    auto nextTenant = events.prepare("SELECT min(tenant_id) FROM events WHERE order_id IS NOT NULL AND tenant_id > ?");
    if (!nextTenant) return nextTenant.error();
    int64_t after = std::numeric_limits<int64_t>::min();
    while (true) {
        nextTenant->reset();
        nextTenant->bind(1, after);
        auto row = nextTenant->step();
        if (!row) return row.error();
        if (!*row || nextTenant->isNull(0)) return {};
        after = nextTenant->integer(0);
        if (auto visited = visit(after); !visited) return visited;
    }
}

}  // namespace svc
