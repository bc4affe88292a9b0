#include "store/SqliteShopRegistrationStore.hpp"

#include <algorithm>
#include <filesystem>

#include "text/BoundedJson.hpp"

namespace svc {
namespace {

constexpr const char* kColumns =
    "tenant_id, feed_id, record, created_at, updated_at, last_contact_at, last_pull_at, last_pull_result, last_full_pull_at";

}  // namespace

Result<std::unique_ptr<SqliteShopRegistrationStore>> SqliteShopRegistrationStore::open(const std::string& dataDir) {
    auto db = SqliteDatabase::open((std::filesystem::path(dataDir) / "svc.sqlite3").string());
    if (!db) return db.error();
    return std::unique_ptr<SqliteShopRegistrationStore>(new SqliteShopRegistrationStore(std::move(*db)));
}

Result<std::vector<StoredShopRegistration>> SqliteShopRegistrationStore::select(const std::string& where, int64_t tenantId) {
    auto query = db_->prepare(std::string("SELECT ") + kColumns + " FROM shop_registrations " + where);
    if (!query) return query.error();
    if (where.find('?') != std::string::npos) query->bind(1, tenantId);
    std::vector<StoredShopRegistration> found;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        StoredShopRegistration stored;
        stored.tenantId = query->integer(0);
        stored.feedId = query->text(1);
        // Records were validated before they were stored; one that no longer parses is damage.
        auto json = BoundedJson::parse(query->text(2), "record");
        auto record = json ? shopRegistrationFromJson(*json) : Result<ShopRegistration>(json.error());
        if (!record) return Error::internal("shop registration of tenant " + std::to_string(stored.tenantId) + ": " + record.error().message);
        stored.record = std::move(*record);
        stored.createdAt = query->integer(3);
        stored.updatedAt = query->integer(4);
        stored.lastContactAt = query->integer(5);
        stored.lastPullAt = query->integer(6);
        stored.lastPullResult = query->text(7);
        stored.lastFullPullAt = query->integer(8);
        found.push_back(std::move(stored));
    }
    return found;
}

Result<StoredShopRegistration> SqliteShopRegistrationStore::save(int64_t tenantId, const std::string& feed, const std::string& feedId,
                                                                 const ShopRegistration& record, int64_t now) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();

    auto previous = select("WHERE tenant_id = ?", tenantId);
    if (!previous) return previous.error();
    int64_t nextRun = now;
    if (!previous->empty() && previous->front().lastPullAt > 0) {
        nextRun = std::max(now, previous->front().lastPullAt + kPluginPromptPullSpacing);
    }

    bool sourceExists = false;
    {
        auto source = db_->prepare("SELECT kind FROM pull_sources WHERE tenant_id = ? AND feed = ?");
        if (!source) return source.error();
        source->bind(1, tenantId).bind(2, feed);
        auto hasSource = source->step();
        if (!hasSource) return hasSource.error();
        if (*hasSource && source->text(0) != kPullSourcePlugin) {
            return Error::alreadyExists("feedId: the feed is pulled from a file (svc-server feed source); the operator must remove that "
                                        "source before a shop plugin can register for it");
        }
        sourceExists = *hasSource;
    }

    // One registration per tenant: the feed ID is the tenant's default feed (a new feed ID
    // after the operator replaced it takes the registration over).
    auto remove = db_->prepare("DELETE FROM shop_registrations WHERE tenant_id = ? AND feed_id <> ?");
    if (!remove) return remove.error();
    remove->bind(1, tenantId).bind(2, feedId);
    if (auto status = remove->run(); !status) return status.error();
    auto upsert = db_->prepare(
        "INSERT INTO shop_registrations(tenant_id, feed_id, record, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(tenant_id, feed_id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at, last_full_pull_at = 0");
    if (!upsert) return upsert.error();
    upsert->bind(1, tenantId).bind(2, feedId).bind(3, toJson(record).dump()).bind(4, now).bind(5, now);
    if (auto status = upsert->run(); !status) return status.error();

    if (sourceExists) {
        auto update = db_->prepare("UPDATE pull_sources SET url = ?, interval_seconds = ?, delta = 0, next_run_at = ? WHERE tenant_id = ? AND feed = ?");
        if (!update) return update.error();
        update->bind(1, record.productsUrl).bind(2, kPluginPullInterval).bind(3, nextRun).bind(4, tenantId).bind(5, feed);
        if (auto status = update->run(); !status) return status.error();
    } else {
        auto insert = db_->prepare(
            "INSERT INTO pull_sources(tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, next_run_at, created_at, kind) "
            "VALUES (?, ?, ?, ?, 0, 'sku', ';', ?, ?, ?)");
        if (!insert) return insert.error();
        insert->bind(1, tenantId).bind(2, feed).bind(3, record.productsUrl).bind(4, kPluginPullInterval).bind(5, nextRun).bind(6, now);
        insert->bind(7, std::string(kPullSourcePlugin));
        if (auto status = insert->run(); !status) return status.error();
    }

    auto stored = select("WHERE tenant_id = ?", tenantId);
    if (!stored) return stored.error();
    if (auto status = transaction->commit(); !status) return status.error();
    if (stored->empty()) return Error::internal("shop registration of tenant " + std::to_string(tenantId) + " vanished");
    return stored->front();
}

Result<std::optional<StoredShopRegistration>> SqliteShopRegistrationStore::find(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    auto found = select("WHERE tenant_id = ?", tenantId);
    if (!found) return found.error();
    if (found->empty()) return std::optional<StoredShopRegistration>();
    return std::optional<StoredShopRegistration>(found->front());
}

Result<std::vector<StoredShopRegistration>> SqliteShopRegistrationStore::list() {
    std::lock_guard lock(mutex_);
    return select("ORDER BY updated_at DESC, tenant_id", 0);
}

Status SqliteShopRegistrationStore::recordPull(int64_t tenantId, int64_t finishedAt, const std::string& result, int64_t contactAt, bool full) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare(
        "UPDATE shop_registrations SET last_pull_at = ?1, last_pull_result = ?2, "
        "last_contact_at = CASE WHEN ?3 > 0 THEN ?3 ELSE last_contact_at END, "
        "last_full_pull_at = CASE WHEN ?4 THEN ?1 ELSE last_full_pull_at END WHERE tenant_id = ?5");
    if (!statement) return statement.error();
    statement->bind(1, finishedAt).bind(2, result).bind(3, contactAt).bind(4, int64_t{full}).bind(5, tenantId);
    return statement->run();
}

}  // namespace svc
