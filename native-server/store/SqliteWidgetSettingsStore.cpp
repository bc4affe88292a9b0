#include "store/SqliteWidgetSettingsStore.hpp"

#include <utility>

#include "store/WidgetSettingsChecks.hpp"

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
    auto checked = WidgetSettingsChecks::change(change);  // before anything is written
    if (!checked) return checked.error();
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    {
        auto ensure = db_->prepare("INSERT OR IGNORE INTO widget_settings(tenant_id, updated_at) VALUES (?, ?)");
        if (!ensure) return ensure.error();
        ensure->bind(1, tenantId).bind(2, now);
        if (auto status = ensure->run(); !status) return status;
    }
    auto update = [&](const char* column, const std::optional<std::string>& value) -> Status {
        if (!value) return Status::success();
        auto statement = db_->prepare(std::string("UPDATE widget_settings SET ") + column + " = ?, updated_at = ? WHERE tenant_id = ?");
        if (!statement) return statement.error();
        statement->bind(1, *value).bind(2, now).bind(3, tenantId);
        return statement->run();
    };
    for (auto [column, value] : {std::pair{"language_source", &checked->languageSource}, std::pair{"default_language", &checked->defaultLanguage},
                                 std::pair{"country", &checked->country}, std::pair{"css", &checked->css}, std::pair{"consent", &checked->consent}}) {
        if (auto status = update(column, *value); !status) return status;
    }
    return transaction->commit();
}

Status SqliteWidgetSettingsStore::setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) {
    if (auto valid = WidgetSettingsChecks::texts(language, json); !valid) return valid;
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
