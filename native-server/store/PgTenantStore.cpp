#include "store/PgTenantStore.hpp"

#include "store/PgChangeNotifications.hpp"

namespace svc {
namespace {

#define SVC_TENANT_COLUMNS \
    "id, api_id, name, feed_id, secret_hash, currency, locale, max_delete_share, attribution_window_days, commission_rates, disabled_at"

Tenant readTenant(const PgResult& rows, int row) {
    Tenant tenant;
    tenant.id = rows.integer(row, 0);
    tenant.apiId = rows.text(row, 1);
    tenant.name = rows.text(row, 2);
    tenant.feedId = rows.text(row, 3);
    tenant.secretHash = rows.text(row, 4);
    tenant.currency = rows.text(row, 5);
    tenant.locale = rows.text(row, 6);
    tenant.maxDeleteShare = rows.real(row, 7);
    tenant.attributionWindowDays = rows.integer(row, 8);
    tenant.commissionRates = rows.text(row, 9);
    tenant.disabled = rows.integer(row, 10) != 0;
    return tenant;
}

}  // namespace

Result<Tenant> PgTenantStore::create(const Tenant& tenant) {
    return database_.withConnection([&](PgConnection& connection) -> Result<Tenant> {
        auto inserted = connection.execute(
            "create tenant",
            "INSERT INTO tenants(api_id, name, feed_id, secret_hash, currency, locale, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) "
            "ON CONFLICT (api_id) DO NOTHING RETURNING id",
            {tenant.apiId, tenant.name, tenant.feedId, tenant.secretHash, tenant.currency, tenant.locale, clock_.nowSeconds()});
        if (!inserted) return inserted.error();
        if (inserted->rows() == 0) return Error::alreadyExists("tenant with API ID " + tenant.apiId + " exists");
        Tenant stored = tenant;
        stored.id = inserted->integer(0, 0);
        return stored;
    });
}

Result<std::optional<Tenant>> PgTenantStore::findByApiId(const std::string& apiId) {
    if (auto cached = byApiId_.find(apiId)) return std::optional<Tenant>{*cached};
    uint64_t readAt = byApiId_.generation();
    auto read = database_.withConnection([&](PgConnection& connection) -> Result<std::optional<Tenant>> {
        auto found = connection.execute("find tenant by API ID", "SELECT " SVC_TENANT_COLUMNS " FROM tenants WHERE api_id = $1", {apiId});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<Tenant>{};
        return std::optional<Tenant>{readTenant(*found, 0)};
    });
    std::lock_guard lock(lastKnownMutex_);
    if (!read) {
        auto known = lastKnown_.find(apiId);
        if (read.error().code == ErrorCode::Unavailable && known != lastKnown_.end()) return std::optional<Tenant>{known->second};
        return read;
    }
    if (!*read) {
        lastKnown_.erase(apiId);
    } else {
        if (lastKnown_.size() >= kMaxLastKnown) lastKnown_.clear();
        lastKnown_[apiId] = **read;
        byApiId_.put(**read, readAt);
    }
    return read;
}

Result<std::optional<Tenant>> PgTenantStore::findById(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<Tenant>> {
        auto found = connection.execute("find tenant by id", "SELECT " SVC_TENANT_COLUMNS " FROM tenants WHERE id = $1", {tenantId});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<Tenant>{};
        return std::optional<Tenant>{readTenant(*found, 0)};
    });
}

Result<std::vector<Tenant>> PgTenantStore::list() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<Tenant>> {
        auto found = connection.execute("list tenants", "SELECT " SVC_TENANT_COLUMNS " FROM tenants ORDER BY id");
        if (!found) return found.error();
        std::vector<Tenant> tenants;
        for (int row = 0; row < found->rows(); ++row) tenants.push_back(readTenant(*found, row));
        return tenants;
    });
}

Status PgTenantStore::update(const char* purpose, const char* sql, std::initializer_list<PgParam> params) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        // Announced to every node (svc_settings), whose caches of tenants drop the changed one.
        auto updated = connection.execute(purpose, PgChangeNotifications::announcingSettings(sql, "id").c_str(), params);
        if (!updated) return updated.error();
        byApiId_.clear();
        return Status::success();
    });
}

Status PgTenantStore::setMaxDeleteShare(int64_t tenantId, double share) {
    return update("set tenant max delete share", "UPDATE tenants SET max_delete_share = $1 WHERE id = $2", {share, tenantId});
}

Status PgTenantStore::setCurrency(int64_t tenantId, const std::string& currencyCode) {
    return update("set tenant currency", "UPDATE tenants SET currency = $1 WHERE id = $2", {currencyCode, tenantId});
}

Status PgTenantStore::setCommission(int64_t tenantId, int64_t attributionWindowDays, const std::string& commissionRates) {
    return update("set tenant commission", "UPDATE tenants SET attribution_window_days = $1, commission_rates = $2 WHERE id = $3",
                  {attributionWindowDays, commissionRates, tenantId});
}

Status PgTenantStore::setLocale(int64_t tenantId, const std::string& locale) {
    return update("set tenant locale", "UPDATE tenants SET locale = $1 WHERE id = $2", {locale, tenantId});
}

Status PgTenantStore::setDisabled(int64_t tenantId, bool disabled) {
    // When it was disabled, for the operator's records; 0 while enabled.
    return update("set tenant disabled", "UPDATE tenants SET disabled_at = $1 WHERE id = $2",
                  {disabled ? clock_.nowSeconds() : int64_t{0}, tenantId});
}

Status PgTenantStore::setSecretHash(int64_t tenantId, const std::string& secretHash) {
    return update("set tenant secret hash", "UPDATE tenants SET secret_hash = $1 WHERE id = $2", {secretHash, tenantId});
}

}  // namespace svc
