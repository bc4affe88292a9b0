#pragma once
// A tenant's widget presentation (WidgetSettings) in the main database: the language rule,
// country, CSS and text bundles. Its own connection: the CLI writes while a server reads.
// Every write is checked first and refused whole, naming the field, leaving the stored
// settings as they were.
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "store/SqliteDatabase.hpp"
#include "store/WidgetSettingsStore.hpp"

namespace svc {

class SqliteWidgetSettingsStore : public WidgetSettingsStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<SqliteWidgetSettingsStore>> open(const std::string& mainDatabasePath);

    // The defaults (html-lang, English, no country, no CSS, no bundles) until the operator sets some.
    Result<WidgetSettings> load(int64_t tenantId) override;
    Status change(int64_t tenantId, const WidgetSettingsChange& change, int64_t now) override;
    // Replaces the tenant's bundle of `language` (a primary subtag such as "de") by `json`.
    Status setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) override;
    Status removeTexts(int64_t tenantId, const std::string& language) override;

private:
    explicit SqliteWidgetSettingsStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
};

}  // namespace svc
