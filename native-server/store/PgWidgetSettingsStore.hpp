#pragma once
// WidgetSettingsStore on PostgreSQL (docs/adr/0086): a row per tenant that changed anything
// (defaults in the schema) and a row per tenant and language bundle.
#include "store/PgDatabase.hpp"
#include "store/WidgetSettingsStore.hpp"

namespace svc {

class PgWidgetSettingsStore : public WidgetSettingsStore {
public:
    explicit PgWidgetSettingsStore(PgDatabase& database) : database_(database) {}

    Result<WidgetSettings> load(int64_t tenantId) override;
    Status change(int64_t tenantId, const WidgetSettingsChange& change, int64_t now) override;
    Status setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) override;
    Status removeTexts(int64_t tenantId, const std::string& language) override;

private:
    PgDatabase& database_;
};

}  // namespace svc
