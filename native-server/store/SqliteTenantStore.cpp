#include "store/SqliteTenantStore.hpp"

#include <ctime>

namespace svc {
namespace {

constexpr const char* kColumns =
    "id, api_id, name, feed_id, secret_hash, currency, locale, max_delete_share, attribution_window_days, commission_rates, disabled_at";

Tenant readTenant(const SqliteStatement& row) {
    Tenant tenant;
    tenant.id = row.integer(0);
    tenant.apiId = row.text(1);
    tenant.name = row.text(2);
    tenant.feedId = row.text(3);
    tenant.secretHash = row.text(4);
    tenant.currency = row.text(5);
    tenant.locale = row.text(6);
    tenant.maxDeleteShare = sqlite3_column_double(row.handle(), 7);
    tenant.attributionWindowDays = row.integer(8);
    tenant.commissionRates = row.text(9);
    tenant.disabled = row.integer(10) != 0;
    return tenant;
}

}  // namespace

Result<Tenant> SqliteTenantStore::create(const Tenant& tenant) {
    std::lock_guard lock(mutex_);
    auto existing = db_.prepare("SELECT 1 FROM tenants WHERE api_id = ?");
    if (!existing) return existing.error();
    existing->bind(1, tenant.apiId);
    auto found = existing->step();
    if (!found) return found.error();
    if (*found) return Error::alreadyExists("tenant with API ID " + tenant.apiId + " exists");
    auto insert = db_.prepare(
        "INSERT INTO tenants(api_id, name, feed_id, secret_hash, currency, locale, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, tenant.apiId).bind(2, tenant.name).bind(3, tenant.feedId).bind(4, tenant.secretHash);
    insert->bind(5, tenant.currency).bind(6, tenant.locale).bind(7, static_cast<int64_t>(std::time(nullptr)));
    if (auto status = insert->run(); !status) return status.error();
    Tenant stored = tenant;
    stored.id = db_.lastInsertRowId();
    return stored;
}

Status SqliteTenantStore::setMaxDeleteShare(int64_t tenantId, double share) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare("UPDATE tenants SET max_delete_share = ? WHERE id = ?");
    if (!statement) return statement.error();
    sqlite3_bind_double(statement->handle(), 1, share);
    statement->bind(2, tenantId);
    auto status = statement->run();
    byApiId_.clear();  // after the write: a lookup in between would cache the old row again
    return status;
}

Status SqliteTenantStore::setCurrency(int64_t tenantId, const std::string& currencyCode) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare("UPDATE tenants SET currency = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, currencyCode).bind(2, tenantId);
    auto status = statement->run();
    byApiId_.clear();  // after the write: a lookup in between would cache the old row again
    return status;
}

Status SqliteTenantStore::setCommission(int64_t tenantId, int64_t attributionWindowDays, const std::string& commissionRates) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare("UPDATE tenants SET attribution_window_days = ?, commission_rates = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, attributionWindowDays).bind(2, commissionRates).bind(3, tenantId);
    auto status = statement->run();
    byApiId_.clear();  // after the write: a lookup in between would cache the old row again
    return status;
}

Status SqliteTenantStore::setColumn(int64_t tenantId, const char* column, const std::string& value) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare(std::string("UPDATE tenants SET ") + column + " = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, value).bind(2, tenantId);
    auto status = statement->run();
    byApiId_.clear();  // after the write: a lookup in between would cache the old row again
    return status;
}

Status SqliteTenantStore::setLocale(int64_t tenantId, const std::string& locale) { return setColumn(tenantId, "locale", locale); }

Status SqliteTenantStore::setSecretHash(int64_t tenantId, const std::string& secretHash) {
    return setColumn(tenantId, "secret_hash", secretHash);
}

Status SqliteTenantStore::setDisabled(int64_t tenantId, bool disabled) {
    std::lock_guard lock(mutex_);
    // When it was disabled, for the operator's records; 0 while enabled.
    auto statement = db_.prepare("UPDATE tenants SET disabled_at = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, disabled ? static_cast<int64_t>(std::time(nullptr)) : int64_t{0}).bind(2, tenantId);
    auto status = statement->run();
    byApiId_.clear();
    return status;
}

template <typename Key>
Result<std::optional<Tenant>> SqliteTenantStore::findWhere(const char* column, const Key& key) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare(std::string("SELECT ") + kColumns + " FROM tenants WHERE " + column + " = ?");
    if (!query) return query.error();
    query->bind(1, key);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<Tenant>{};
    return std::optional<Tenant>{readTenant(*query)};
}

Result<std::optional<Tenant>> SqliteTenantStore::findByApiId(const std::string& apiId) {
    if (auto cached = byApiId_.find(apiId)) return std::optional<Tenant>{std::move(*cached)};
    uint64_t generation = byApiId_.generation();
    auto found = findWhere("api_id", apiId);
    if (found && *found) byApiId_.put(**found, generation);
    return found;
}

Result<std::optional<Tenant>> SqliteTenantStore::findById(int64_t tenantId) { return findWhere("id", tenantId); }

Result<std::vector<Tenant>> SqliteTenantStore::list() {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare(std::string("SELECT ") + kColumns + " FROM tenants ORDER BY id");
    if (!query) return query.error();
    std::vector<Tenant> tenants;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        tenants.push_back(readTenant(*query));
    }
    return tenants;
}

}  // namespace svc
