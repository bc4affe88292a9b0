#include "store/SqliteWidgetSettingsStore.hpp"

namespace svc {

Result<std::unique_ptr<SqliteWidgetSettingsStore>> SqliteWidgetSettingsStore::open(const std::string& mainDatabasePath) {
    auto db = SqliteDatabase::open(mainDatabasePath);
    if (!db) return db.error();
    return std::unique_ptr<SqliteWidgetSettingsStore>(new SqliteWidgetSettingsStore(std::move(*db)));
}

Result<WidgetSettings> SqliteWidgetSettingsStore::load(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    WidgetSettings settings;
    auto row = db_->prepare("SELECT language_source, default_language, country, css, consent FROM widget_settings WHERE tenant_id = ?");
    if (!row) return row.error();
    row->bind(1, tenantId);
    auto found = row->step();
    if (!found) return found.error();
    if (*found) {
        auto source = LanguageRule::parseSource(row->text(0), "language_source");
        if (!source) return source.error();
        settings.languageRule.source = *source;
        settings.languageRule.defaultLanguage = row->text(1);
        settings.country = row->text(2);
        settings.css = row->text(3);
        settings.consent = parseConsent(row->text(4)).value_or(Consent::Pending);  // the CHECK allows no other
    }
    auto bundles = db_->prepare("SELECT language, texts FROM widget_texts WHERE tenant_id = ?");
    if (!bundles) return bundles.error();
    bundles->bind(1, tenantId);
    while (true) {
        auto next = bundles->step();
        if (!next) return next.error();
        if (!*next) break;
        settings.textBundles[bundles->text(0)] = bundles->text(1);
    }
    return settings;
}

Status SqliteWidgetSettingsStore::change(int64_t tenantId, const WidgetSettingsChange& change, int64_t now) {
    // Checked before anything is written.
    std::optional<std::string> language;
    if (change.defaultLanguage) {
        language = LanguageRule::primaryLanguage(*change.defaultLanguage);
        if (!language || *language != *change.defaultLanguage) {
            return Error::invalidArgument("default language: '" + *change.defaultLanguage +
                                          "' is not a lower-case language code such as en or de");
        }
    }
    std::optional<std::string> country;
    if (change.country && !change.country->empty()) {
        auto valid = WidgetSettings::validCountry(*change.country, "country");
        if (!valid) return valid.error();
        country = *valid;
    } else if (change.country) {
        country = "";
    }
    if (change.css) {
        if (auto valid = WidgetSettings::validCss(*change.css, "css"); !valid) return valid;
    }
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    {
        auto ensure = db_->prepare("INSERT OR IGNORE INTO widget_settings(tenant_id, updated_at) VALUES (?, ?)");
        if (!ensure) return ensure.error();
        ensure->bind(1, tenantId).bind(2, now);
        if (auto status = ensure->run(); !status) return status;
    }
    auto update = [&](const char* column, const std::string& value) -> Status {
        auto statement = db_->prepare(std::string("UPDATE widget_settings SET ") + column + " = ?, updated_at = ? WHERE tenant_id = ?");
        if (!statement) return statement.error();
        statement->bind(1, value).bind(2, now).bind(3, tenantId);
        return statement->run();
    };
    if (change.languageSource) {
        if (auto status = update("language_source", LanguageRule::sourceName(*change.languageSource)); !status) return status;
    }
    if (language) {
        if (auto status = update("default_language", *language); !status) return status;
    }
    if (country) {
        if (auto status = update("country", *country); !status) return status;
    }
    if (change.css) {
        if (auto status = update("css", *change.css); !status) return status;
    }
    if (change.consent) {
        if (auto status = update("consent", consentName(*change.consent)); !status) return status;
    }
    return transaction->commit();
}

Status SqliteWidgetSettingsStore::setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) {
    auto primary = LanguageRule::primaryLanguage(language);
    if (!primary || *primary != language) {
        return Error::invalidArgument("language: '" + language + "' is not a lower-case language code such as en or de");
    }
    WidgetTexts check;
    if (auto valid = check.applyJson(json); !valid) return valid;
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare(
        "INSERT INTO widget_texts(tenant_id, language, texts, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(tenant_id, language) DO UPDATE SET texts = excluded.texts, updated_at = excluded.updated_at");
    if (!statement) return statement.error();
    statement->bind(1, tenantId).bind(2, language).bind(3, json).bind(4, now);
    return statement->run();
}

Status SqliteWidgetSettingsStore::removeTexts(int64_t tenantId, const std::string& language) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM widget_texts WHERE tenant_id = ? AND language = ?");
    if (!statement) return statement.error();
    statement->bind(1, tenantId).bind(2, language);
    if (auto status = statement->run(); !status) return status;
    if (db_->changes() == 0) return Error::notFound("language: the tenant has no texts for '" + language + "'");
    return Status::success();
}

}  // namespace svc
