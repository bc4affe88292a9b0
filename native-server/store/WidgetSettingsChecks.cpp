#include "store/WidgetSettingsChecks.hpp"

#include "tenant/WidgetSettings.hpp"

namespace svc {

Result<CheckedWidgetSettingsChange> WidgetSettingsChecks::change(const WidgetSettingsChange& change) {
    CheckedWidgetSettingsChange checked;
    if (change.languageSource) checked.languageSource = LanguageRule::sourceName(*change.languageSource);
    if (change.defaultLanguage) {
        auto language = LanguageRule::primaryLanguage(*change.defaultLanguage);
        if (!language || *language != *change.defaultLanguage) {
            return Error::invalidArgument("default language: '" + *change.defaultLanguage +
                                          "' is not a lower-case language code such as en or de");
        }
        checked.defaultLanguage = *language;
    }
    if (change.country && !change.country->empty()) {
        auto valid = WidgetSettings::validCountry(*change.country, "country");
        if (!valid) return valid.error();
        checked.country = *valid;
    } else if (change.country) {
        checked.country = "";
    }
    if (change.css) {
        if (auto valid = WidgetSettings::validCss(*change.css, "css"); !valid) return valid.error();
        checked.css = *change.css;
    }
    if (change.consent) checked.consent = consentName(*change.consent);
    return checked;
}

Status WidgetSettingsChecks::texts(const std::string& language, const std::string& json) {
    auto primary = LanguageRule::primaryLanguage(language);
    if (!primary || *primary != language) {
        return Error::invalidArgument("language: '" + language + "' is not a lower-case language code such as en or de");
    }
    WidgetTexts check;
    return check.applyJson(json);
}

}  // namespace svc
