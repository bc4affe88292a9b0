#include "store/PgChangeNotifications.hpp"

namespace svc {

Status PgChangeNotifications::bumpGeneration(PgConnection& connection, int64_t tenantId) {
    auto bumped = connection.execute("bump content generation",
                                     "WITH bumped AS (INSERT INTO content_generations(tenant_id, generation) VALUES ($1, 1) "
                                     "ON CONFLICT (tenant_id) DO UPDATE SET generation = content_generations.generation + 1 RETURNING tenant_id) "
                                     "SELECT pg_notify($2, tenant_id::text) FROM bumped",
                                     {tenantId, kContentChannel});
    if (!bumped) return bumped.error();
    return Status::success();
}

std::string PgChangeNotifications::announcingSettings(const char* change, const char* tenantColumn) {
    // The channel is svc's constant, not input.
    return std::string("WITH changed AS (") + change + " RETURNING " + tenantColumn + ") SELECT pg_notify('" + kSettingsChannel + "', " +
           tenantColumn + "::text) FROM changed";
}

}  // namespace svc
