#include "store/PgWidgetSettingsStore.hpp"

#include "store/PgChangeNotifications.hpp"
#include "store/WidgetSettingsChecks.hpp"

namespace svc {

Result<WidgetSettings> PgWidgetSettingsStore::load(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<WidgetSettings> {
        WidgetSettings settings;
        auto row = connection.execute("load widget settings",
                                      "SELECT language_source, default_language, country, css, consent FROM widget_settings WHERE tenant_id = $1",
                                      {tenantId});
        if (!row) return row.error();
        if (row->rows() == 1) {
            auto source = LanguageRule::parseSource(row->text(0, 0), "language_source");
            if (!source) return source.error();
            settings.languageRule.source = *source;
            settings.languageRule.defaultLanguage = row->text(0, 1);
            settings.country = row->text(0, 2);
            settings.css = row->text(0, 3);
            settings.consent = parseConsent(row->text(0, 4)).value_or(Consent::Pending);  // the CHECK allows no other
        }
        auto bundles = connection.execute("load widget texts", "SELECT language, texts FROM widget_texts WHERE tenant_id = $1", {tenantId});
        if (!bundles) return bundles.error();
        for (int bundle = 0; bundle < bundles->rows(); ++bundle) settings.textBundles[bundles->text(bundle, 0)] = bundles->text(bundle, 1);
        return settings;
    });
}

Status PgWidgetSettingsStore::change(int64_t tenantId, const WidgetSettingsChange& change, int64_t now) {
    auto checked = WidgetSettingsChecks::change(change);  // before anything is written
    if (!checked) return checked.error();
    return database_.withConnection([&](PgConnection& connection) -> Status {
        return connection.inTransaction("change widget settings", [&]() -> Status {
            // The schema's defaults for a tenant's first change; then only the fields given (NULL: as it was).
            auto ensured = connection.execute("change widget settings",
                                              "INSERT INTO widget_settings(tenant_id, updated_at) VALUES ($1, $2) ON CONFLICT (tenant_id) DO NOTHING",
                                              {tenantId, now});
            if (!ensured) return ensured.error();
            auto changed = connection.execute(
                "change widget settings",
                PgChangeNotifications::announcingSettings(
                    "UPDATE widget_settings SET language_source = COALESCE($2, language_source), default_language = COALESCE($3, default_language), "
                    "country = COALESCE($4, country), css = COALESCE($5, css), consent = COALESCE($6, consent), updated_at = $7 "
                    "WHERE tenant_id = $1",
                    "tenant_id")
                    .c_str(),
                {tenantId, checked->languageSource, checked->defaultLanguage, checked->country, checked->css, checked->consent, now});
            if (!changed) return changed.error();
            return Status::success();
        });
    });
}

Status PgWidgetSettingsStore::setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) {
    if (auto valid = WidgetSettingsChecks::texts(language, json); !valid) return valid;
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto stored = connection.execute("set widget texts",
                                         PgChangeNotifications::announcingSettings(
                                             "INSERT INTO widget_texts(tenant_id, language, texts, updated_at) VALUES ($1, $2, $3, $4) "
                                             "ON CONFLICT (tenant_id, language) DO UPDATE SET texts = excluded.texts, updated_at = excluded.updated_at",
                                             "tenant_id")
                                             .c_str(),
                                         {tenantId, language, json, now});
        if (!stored) return stored.error();
        return Status::success();
    });
}

Status PgWidgetSettingsStore::removeTexts(int64_t tenantId, const std::string& language) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto removed = connection.execute(
            "remove widget texts", PgChangeNotifications::announcingSettings("DELETE FROM widget_texts WHERE tenant_id = $1 AND language = $2", "tenant_id").c_str(),
            {tenantId, language});
        if (!removed) return removed.error();
        if (removed->rows() == 0) return Error::notFound("language: the tenant has no texts for '" + language + "'");
        return Status::success();
    });
}

}  // namespace svc
