#pragma once
// ShopRegistrationStore on PostgreSQL (docs/adr/0086): a registration and its plugin pull
// source written in one transaction, the source row locked while the feed's kind is checked.
#include "store/PgDatabase.hpp"
#include "store/ShopRegistrationStore.hpp"

namespace svc {

class PgShopRegistrationStore : public ShopRegistrationStore {
public:
    explicit PgShopRegistrationStore(PgDatabase& database) : database_(database) {}

    Result<StoredShopRegistration> save(int64_t tenantId, const std::string& feed, const std::string& feedId, const ShopRegistration& record,
                                        int64_t now) override;
    Result<std::optional<StoredShopRegistration>> find(int64_t tenantId) override;
    Result<std::vector<StoredShopRegistration>> list() override;
    Status recordPull(int64_t tenantId, int64_t finishedAt, const std::string& result, int64_t contactAt, bool full) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
