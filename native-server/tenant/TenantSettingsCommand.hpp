#pragma once
// Changing a tenant's settings: the one place their rules live and their writes happen, used by
// `svc-server tenant configure` and the operator API (PATCH /operator/api/tenants/{apiId}), so
// both refuse the same values with the same words; only the names of the fields differ.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "store/TenantStore.hpp"
#include "store/WidgetSettingsStore.hpp"

namespace svc {

// What to change; an absent field stays as it is.
struct TenantSettingsChange {
    std::optional<std::string> currency;         // the GraphQL API's CurrencyCode: EUR, PLN or USD
    std::optional<std::string> locale;           // de-DE, en, fr-CH
    std::optional<std::string> country;          // ISO 3166 alpha-2 whose price rules apply; "" clears it
    std::optional<std::string> commissionRates;  // basis points: 500 or 500,SET=750 (docs/adr/0021)
    std::optional<int64_t> attributionWindowDays;  // 1 to 365
    std::optional<double> maxDeleteShare;        // 0 to 1
    std::optional<std::string> consent;          // the SDK's default: pending, granted or denied (docs/adr/0083)
};

// How each field is called where the change came from.
struct TenantSettingsFields {
    std::string currency = "currency";
    std::string locale = "locale";
    std::string country = "country";
    std::string commissionRates = "commissionRates";
    std::string attributionWindowDays = "attributionWindowDays";
    std::string maxDeleteShare = "maxDeleteShare";
    std::string consent = "consent";
    static TenantSettingsFields api() { return {}; }
    static TenantSettingsFields cli() {
        return {"--currency", "--locale", "--country", "--commission-rate", "--attribution-window-days", "--max-delete-share", "--consent"};
    }
};

class TenantSettingsCommand {
public:
    static constexpr const char* kCurrencies[] = {"EUR", "PLN", "USD"};

    // `widgetSettings` holds the country and the consent default; without it a change of either is refused.
    TenantSettingsCommand(TenantStore& tenants, WidgetSettingsStore* widgetSettings, const Clock& clock);

    // Every problem of `change`, in the order of TenantSettingsChange's fields, each naming its
    // field; normalises what it accepts (trimmed, the country upper-case, the rates canonical).
    // Reads nothing: callers may check before they open anything.
    static std::vector<Error> check(TenantSettingsChange& change, const TenantSettingsFields& fields);
    // Checks (refusing with the first problem) and writes; the tenant as it is now. A failed
    // write can leave the fields before it written (each is its own row update).
    Result<Tenant> apply(const Tenant& tenant, TenantSettingsChange change, const TenantSettingsFields& fields);
    // True when the change touched the widget settings (the country, the consent default): a server then
    // rebuilds its widget presentation.
    static bool changesWidgetSettings(const TenantSettingsChange& change) { return change.country || change.consent; }

private:
    TenantStore& tenants_;
    WidgetSettingsStore* widgetSettings_;
    const Clock& clock_;
};

}  // namespace svc
