#include "store/SqlitePriceHistory.hpp"

#include <filesystem>

namespace svc {

Result<std::map<std::string, int64_t>> SqlitePriceHistory::lowestBeforeCurrentPrice(int64_t tenantId,
                                                                                    const std::vector<std::string>& skus) {
    std::map<std::string, int64_t> lowest;
    if (skus.empty()) return lowest;
    std::lock_guard lock(mutex_);
    auto& connection = connections_[tenantId];
    if (!connection) {
        std::string path = directory_ + "/tenant-" + std::to_string(tenantId) + ".sqlite3";
        // Opening would create the file: a tenant with no catalog has no history either.
        if (!std::filesystem::exists(path)) {
            connections_.erase(tenantId);
            return lowest;
        }
        auto db = SqliteDatabase::open(path);
        if (!db) return db.error();
        connection = std::move(*db);
    }
    // For one SKU: `start` is when its current price began (the latest entry); the window is
    // the 30 days before it, beginning with the entry that was valid at the window's start.
    auto query = connection->prepare(
        "SELECT MIN(h.price) FROM price_history h, "
        "(SELECT MAX(since) AS start FROM price_history WHERE sku = ?1) c "
        "WHERE h.sku = ?1 AND h.since < c.start AND h.since >= "
        "COALESCE((SELECT MAX(since) FROM price_history WHERE sku = ?1 AND since <= c.start - ?2), 0)");
    if (!query) {
        // Not migrated yet (the catalog store migrates a file when it opens it): no history.
        connections_.erase(tenantId);
        return lowest;
    }
    for (const auto& sku : skus) {
        query->reset();
        query->bind(1, sku).bind(2, kWindowSeconds);
        auto row = query->step();
        if (!row) return row.error();
        if (*row && !query->isNull(0)) lowest[sku] = query->integer(0);
    }
    return lowest;
}

}  // namespace svc
