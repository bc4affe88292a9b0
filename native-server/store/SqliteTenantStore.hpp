#pragma once
#include <mutex>

#include "store/SqliteDatabase.hpp"
#include "store/TenantCache.hpp"
#include "store/TenantStore.hpp"

namespace svc {

class SqliteTenantStore : public TenantStore {
public:
    SqliteTenantStore(SqliteDatabase& db, std::mutex& mutex) : db_(db), mutex_(mutex) {}
    Result<Tenant> create(const Tenant& tenant) override;
    Result<std::optional<Tenant>> findByApiId(const std::string& apiId) override;
    Result<std::optional<Tenant>> findById(int64_t tenantId) override;
    Result<std::vector<Tenant>> list() override;
    Status setMaxDeleteShare(int64_t tenantId, double share) override;
    Status setCurrency(int64_t tenantId, const std::string& currencyCode) override;
    Status setCommission(int64_t tenantId, int64_t attributionWindowDays, const std::string& commissionRates) override;
    Status setLocale(int64_t tenantId, const std::string& locale) override;
    Status setDisabled(int64_t tenantId, bool disabled) override;
    Status setSecretHash(int64_t tenantId, const std::string& secretHash) override;
    void changedElsewhere(int64_t) override { byApiId_.clear(); }

private:
    // One column of one tenant; `column` is a constant of this file, never input.
    Status setColumn(int64_t tenantId, const char* column, const std::string& value);
    // The tenant whose `column` (a constant of this file, never input) equals `key`.
    template <typename Key>
    Result<std::optional<Tenant>> findWhere(const char* column, const Key& key);

    SqliteDatabase& db_;
    std::mutex& mutex_;
    TenantCache byApiId_{std::chrono::seconds(2), 10000};
};

}  // namespace svc
