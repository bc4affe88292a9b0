#pragma once
// OperatorKeyStore on PostgreSQL (docs/adr/0086). Operator keys belong to no tenant.
#include "core/Clock.hpp"
#include "store/OperatorKeyStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgOperatorKeyStore : public OperatorKeyStore {
public:
    PgOperatorKeyStore(PgDatabase& database, const Clock& clock) : database_(database), clock_(clock) {}

    Status addOperatorKey(const OperatorKey& key) override;
    Result<std::vector<OperatorKey>> operatorKeys() override;
    Result<bool> removeOperatorKey(const std::string& name) override;

private:
    PgDatabase& database_;
    const Clock& clock_;
};

}  // namespace svc
