#include "store/PgShopRegistrationStore.hpp"

#include <algorithm>

#include "feed/PullSource.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace {

#define SVC_REGISTRATION_COLUMNS \
    "tenant_id, feed_id, record, created_at, updated_at, last_contact_at, last_pull_at, last_pull_result, last_full_pull_at"

Result<std::vector<StoredShopRegistration>> readRegistrations(const PgResult& rows) {
    std::vector<StoredShopRegistration> found;
    for (int row = 0; row < rows.rows(); ++row) {
        StoredShopRegistration stored;
        stored.tenantId = rows.integer(row, 0);
        stored.feedId = rows.text(row, 1);
        // Records were validated before they were stored; one that no longer parses is damage.
        auto json = BoundedJson::parse(rows.text(row, 2), "record");
        auto record = json ? shopRegistrationFromJson(*json) : Result<ShopRegistration>(json.error());
        if (!record) return Error::internal("shop registration of tenant " + std::to_string(stored.tenantId) + ": " + record.error().message);
        stored.record = std::move(*record);
        stored.createdAt = rows.integer(row, 3);
        stored.updatedAt = rows.integer(row, 4);
        stored.lastContactAt = rows.integer(row, 5);
        stored.lastPullAt = rows.integer(row, 6);
        stored.lastPullResult = rows.text(row, 7);
        stored.lastFullPullAt = rows.integer(row, 8);
        found.push_back(std::move(stored));
    }
    return found;
}

Result<std::vector<StoredShopRegistration>> registrationsOf(PgConnection& connection, int64_t tenantId) {
    auto found = connection.execute("read shop registration", "SELECT " SVC_REGISTRATION_COLUMNS " FROM shop_registrations WHERE tenant_id = $1",
                                    {tenantId});
    if (!found) return found.error();
    return readRegistrations(*found);
}

}  // namespace

Result<StoredShopRegistration> PgShopRegistrationStore::save(int64_t tenantId, const std::string& feed, const std::string& feedId,
                                                             const ShopRegistration& record, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<StoredShopRegistration> {
        std::optional<StoredShopRegistration> saved;
        Status status = connection.inTransaction("save shop registration", [&]() -> Status {
            auto previous = registrationsOf(connection, tenantId);
            if (!previous) return previous.error();
            int64_t nextRun = now;
            if (!previous->empty() && previous->front().lastPullAt > 0) {
                nextRun = std::max(now, previous->front().lastPullAt + kPluginPromptPullSpacing);
            }
            // Locked: the operator cannot turn the feed into a file source until this commits.
            auto source = connection.execute("save shop registration: read the feed's pull source",
                                             "SELECT kind FROM pull_sources WHERE tenant_id = $1 AND feed = $2 FOR UPDATE", {tenantId, feed});
            if (!source) return source.error();
            if (source->rows() == 1 && source->text(0, 0) != kPullSourcePlugin) {
                return Error::alreadyExists("feedId: the feed is pulled from a file (svc-server feed source); the operator must remove that "
                                            "source before a shop plugin can register for it");
            }
            // One registration per tenant: the feed ID is the tenant's default feed (a new feed ID
            // after the operator replaced it takes the registration over).
            auto removed = connection.execute("save shop registration: drop the old feed ID's",
                                              "DELETE FROM shop_registrations WHERE tenant_id = $1 AND feed_id <> $2", {tenantId, feedId});
            if (!removed) return removed.error();
            auto upserted = connection.execute(
                "save shop registration",
                "INSERT INTO shop_registrations(tenant_id, feed_id, record, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) "
                "ON CONFLICT (tenant_id, feed_id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at, last_full_pull_at = 0",
                {tenantId, feedId, toJson(record).dump(), now});
            if (!upserted) return upserted.error();
            auto scheduled = source->rows() == 1
                                 ? connection.execute("save shop registration: schedule the plugin pull",
                                                      "UPDATE pull_sources SET url = $1, interval_seconds = $2, delta = false, next_run_at = $3 "
                                                      "WHERE tenant_id = $4 AND feed = $5",
                                                      {record.productsUrl, kPluginPullInterval, nextRun, tenantId, feed})
                                 : connection.execute("save shop registration: add the plugin pull source",
                                                      "INSERT INTO pull_sources(tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, "
                                                      "next_run_at, created_at, kind) VALUES ($1, $2, $3, $4, false, 'sku', ';', $5, $6, $7)",
                                                      {tenantId, feed, record.productsUrl, kPluginPullInterval, nextRun, now, kPullSourcePlugin});
            if (!scheduled) return scheduled.error();
            auto stored = registrationsOf(connection, tenantId);
            if (!stored) return stored.error();
            if (stored->empty()) return Error::internal("shop registration of tenant " + std::to_string(tenantId) + " vanished");
            saved = stored->front();
            return Status::success();
        });
        if (!status) return status.error();
        return *saved;
    });
}

Result<std::optional<StoredShopRegistration>> PgShopRegistrationStore::find(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<StoredShopRegistration>> {
        auto found = registrationsOf(connection, tenantId);
        if (!found) return found.error();
        if (found->empty()) return std::optional<StoredShopRegistration>();
        return std::optional<StoredShopRegistration>(found->front());
    });
}

Result<std::vector<StoredShopRegistration>> PgShopRegistrationStore::list() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<StoredShopRegistration>> {
        auto found = connection.execute("list shop registrations",
                                        "SELECT " SVC_REGISTRATION_COLUMNS " FROM shop_registrations ORDER BY updated_at DESC, tenant_id");
        if (!found) return found.error();
        return readRegistrations(*found);
    });
}

Status PgShopRegistrationStore::recordPull(int64_t tenantId, int64_t finishedAt, const std::string& result, int64_t contactAt, bool full) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto recorded = connection.execute("record shop plugin pull",
                                           "UPDATE shop_registrations SET last_pull_at = $1, last_pull_result = $2, "
                                           "last_contact_at = CASE WHEN $3::bigint > 0 THEN $3::bigint ELSE last_contact_at END, "
                                           "last_full_pull_at = CASE WHEN $4::boolean THEN $1 ELSE last_full_pull_at END WHERE tenant_id = $5",
                                           {finishedAt, result, contactAt, full ? "true" : "false", tenantId});
        if (!recorded) return recorded.error();
        return Status::success();
    });
}

}  // namespace svc
