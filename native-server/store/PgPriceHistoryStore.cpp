#include "store/PgPriceHistoryStore.hpp"

namespace svc {

Result<std::map<std::string, int64_t>> PgPriceHistoryStore::lowestBeforeCurrentPrice(int64_t tenantId, const std::vector<std::string>& skus) {
    std::map<std::string, int64_t> lowest;
    if (skus.empty()) return lowest;
    return database_.withConnection([&](PgConnection& connection) -> Result<std::map<std::string, int64_t>> {
        // For each SKU: `start` is when its current price began (the latest entry); the window is
        // the 30 days before it, beginning with the entry that was valid at the window's start.
        auto found = connection.execute(
            "read lowest prices before the current ones",
            "SELECT s.sku, (SELECT min(h.price) FROM price_history h WHERE h.tenant_id = $1 AND h.sku = s.sku AND h.since < c.start "
            "AND h.since >= coalesce((SELECT max(since) FROM price_history w WHERE w.tenant_id = $1 AND w.sku = s.sku "
            "AND w.since <= c.start - $3), 0)) "
            "FROM unnest($2::text[]) AS s(sku) "
            "CROSS JOIN LATERAL (SELECT max(since) AS start FROM price_history WHERE tenant_id = $1 AND sku = s.sku COLLATE \"C\") c",
            {tenantId, PgParam::textArray(skus), kWindowSeconds});
        if (!found) return found.error();
        for (int row = 0; row < found->rows(); ++row) {
            if (!found->isNull(row, 1)) lowest[found->text(row, 0)] = found->integer(row, 1);
        }
        return lowest;
    });
}

}  // namespace svc
