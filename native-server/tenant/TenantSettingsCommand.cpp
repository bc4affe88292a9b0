#include "tenant/TenantSettingsCommand.hpp"

#include <algorithm>
#include <iterator>

#include "sdk/Consent.hpp"
#include "tenant/WidgetSettings.hpp"
#include "text/StringUtil.hpp"
#include "tracking/Commission.hpp"

namespace svc {
namespace {

Status validCurrency(const std::string& currency, const std::string& field) {
    const auto& known = TenantSettingsCommand::kCurrencies;
    if (std::find(std::begin(known), std::end(known), currency) != std::end(known)) return Status::success();
    return Error::invalidField(field, "'" + currency + "' is not a currency svc serves: EUR, PLN or USD");
}

// "de-DE", "en", "fr-CH": a language subtag, optionally a region.
Status validLocale(const std::string& locale, const std::string& field) {
    size_t dash = locale.find('-');
    std::string language = locale.substr(0, dash);
    bool valid = language.size() >= 2 && language.size() <= 3;
    for (char c : language) valid = valid && c >= 'a' && c <= 'z';
    if (dash != std::string::npos) {
        std::string region = locale.substr(dash + 1);
        valid = valid && region.size() == 2;
        for (char c : region) valid = valid && c >= 'A' && c <= 'Z';
    }
    if (!valid) return Error::invalidField(field, "'" + locale + "' is not a locale such as de-DE or en");
    return Status::success();
}

}  // namespace

TenantSettingsCommand::TenantSettingsCommand(TenantStore& tenants, WidgetSettingsStore* widgetSettings, const Clock& clock)
    : tenants_(tenants), widgetSettings_(widgetSettings), clock_(clock) {}

std::vector<Error> TenantSettingsCommand::check(TenantSettingsChange& change, const TenantSettingsFields& fields) {
    std::vector<Error> errors;
    auto trimmed = [](std::optional<std::string>& value) {
        if (value) value = std::string(trim(*value));
    };
    trimmed(change.currency);
    trimmed(change.locale);
    trimmed(change.country);
    trimmed(change.commissionRates);
    trimmed(change.consent);
    if (change.currency) {
        if (auto valid = validCurrency(*change.currency, fields.currency); !valid) errors.push_back(valid.error());
    }
    if (change.locale) {
        if (auto valid = validLocale(*change.locale, fields.locale); !valid) errors.push_back(valid.error());
    }
    if (change.country && !change.country->empty()) {
        auto valid = WidgetSettings::validCountry(*change.country, fields.country);
        if (!valid) errors.push_back(valid.error());
        else change.country = *valid;
    }
    if (change.commissionRates) {
        auto parsed = CommissionRates::fromText(*change.commissionRates);
        if (!parsed) {
            errors.push_back(Error::invalidField(fields.commissionRates, *change.commissionRates +
                                                    " is not basis points such as 500 (5 %) or 500,SET=750"));
        } else if (parsed->byWidget.count(WidgetType::SetCompose) > 0) {
            // The demo's builder earns nothing (TrackingEvent), so a rate for it would never be paid.
            errors.push_back(Error::invalidField(fields.commissionRates, "SET-Compose earns no commission; rates are for SET, SIMILAR and SET-Custom"));
        } else {
            change.commissionRates = parsed->toText();
        }
    }
    if (change.attributionWindowDays && (*change.attributionWindowDays < 1 || *change.attributionWindowDays > 365)) {
        errors.push_back(Error::invalidField(fields.attributionWindowDays, "a whole number of days from 1 to 365"));
    }
    if (change.maxDeleteShare && !(*change.maxDeleteShare >= 0.0 && *change.maxDeleteShare <= 1.0)) {
        errors.push_back(Error::invalidField(fields.maxDeleteShare, "a share of the catalog from 0 to 1"));
    }
    if (change.consent && !parseConsent(*change.consent)) {
        errors.push_back(Error::invalidField(fields.consent, "'" + *change.consent + "' is not pending, granted or denied"));
    }
    return errors;
}

Result<Tenant> TenantSettingsCommand::apply(const Tenant& tenant, TenantSettingsChange change, const TenantSettingsFields& fields) {
    if (auto errors = check(change, fields); !errors.empty()) return errors.front();
    if (changesWidgetSettings(change) && !widgetSettings_) {
        return Error::unavailable((change.country ? fields.country : fields.consent) + ": the widget settings are unavailable");
    }
    Tenant updated = tenant;
    if (change.currency) {
        if (auto status = tenants_.setCurrency(tenant.id, *change.currency); !status) return status.error();
        updated.currency = *change.currency;
    }
    if (change.locale) {
        if (auto status = tenants_.setLocale(tenant.id, *change.locale); !status) return status.error();
        updated.locale = *change.locale;
    }
    if (change.commissionRates || change.attributionWindowDays) {
        updated.attributionWindowDays = change.attributionWindowDays.value_or(tenant.attributionWindowDays);
        updated.commissionRates = change.commissionRates.value_or(tenant.commissionRates);
        if (auto status = tenants_.setCommission(tenant.id, updated.attributionWindowDays, updated.commissionRates); !status) return status.error();
    }
    if (change.maxDeleteShare) {
        if (auto status = tenants_.setMaxDeleteShare(tenant.id, *change.maxDeleteShare); !status) return status.error();
        updated.maxDeleteShare = *change.maxDeleteShare;
    }
    if (changesWidgetSettings(change)) {
        WidgetSettingsChange widgets;
        widgets.country = change.country;
        if (change.consent) widgets.consent = parseConsent(*change.consent);
        if (auto status = widgetSettings_->change(tenant.id, widgets, clock_.nowSeconds()); !status) return status.error();
    }
    return updated;
}

}  // namespace svc
