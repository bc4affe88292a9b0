#include "store/Migrations.hpp"

#include <vector>

namespace svc {
namespace {

struct Migration {
    int version;
    const char* sql;
};

const std::vector<Migration>& migrations() {
    static const std::vector<Migration> list = {
        {1, R"sql(
CREATE TABLE tenants (
    id INTEGER PRIMARY KEY,
    api_id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    feed_id TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    currency TEXT NOT NULL DEFAULT 'EUR',
    locale TEXT NOT NULL DEFAULT 'de-DE',
    created_at INTEGER NOT NULL
);
CREATE TABLE products (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    sku TEXT NOT NULL,
    main_sku TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    variant TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    deeplink TEXT NOT NULL DEFAULT '',
    image TEXT NOT NULL DEFAULT '',
    thumbnail TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    category_paths TEXT NOT NULL DEFAULT '[]',
    primary_category TEXT NOT NULL DEFAULT '',
    stock INTEGER NOT NULL DEFAULT 0,
    retail_price INTEGER,
    discount_price INTEGER,
    lowest_price_30d INTEGER,
    properties TEXT NOT NULL DEFAULT '{}',
    deleted INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, sku)
) WITHOUT ROWID;
CREATE INDEX products_by_main_sku ON products(tenant_id, main_sku);
CREATE INDEX products_available_by_category ON products(tenant_id, primary_category) WHERE deleted = 0 AND stock > 0;
)sql"},
    };
    return list;
}

}  // namespace

int latestSchemaVersion() { return migrations().back().version; }

Status migrate(SqliteDatabase& db) {
    if (auto status = db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
        !status) {
        return status;
    }
    auto query = db.prepare("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
    if (!query) return query.error();
    auto row = query->step();
    if (!row) return row.error();
    int current = static_cast<int>(query->integer(0));
    if (current > latestSchemaVersion()) {
        return Error::unavailable("database schema version " + std::to_string(current) +
                                  " is newer than this svc-server (" + std::to_string(latestSchemaVersion()) + ")");
    }
    for (const auto& migration : migrations()) {
        if (migration.version <= current) continue;
        auto transaction = SqliteTransaction::begin(db);
        if (!transaction) return transaction.error();
        if (auto status = db.execute(migration.sql); !status) {
            return Error::unavailable("migration " + std::to_string(migration.version) + ": " + status.error().message);
        }
        auto record = db.prepare("INSERT INTO schema_migrations(version, applied_at) VALUES (?, strftime('%s','now'))");
        if (!record) return record.error();
        record->bind(1, static_cast<int64_t>(migration.version));
        if (auto status = record->run(); !status) return status;
        if (auto status = transaction->commit(); !status) return status;
    }
    return Status::success();
}

}  // namespace svc
