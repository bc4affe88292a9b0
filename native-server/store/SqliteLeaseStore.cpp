#include "store/SqliteLeaseStore.hpp"

namespace svc {

Result<std::unique_ptr<SqliteLeaseStore>> SqliteLeaseStore::open(const std::string& mainDatabasePath) {
    auto db = SqliteDatabase::open(mainDatabasePath);
    if (!db) return db.error();
    return std::unique_ptr<SqliteLeaseStore>(new SqliteLeaseStore(std::move(*db)));
}

Result<bool> SqliteLeaseStore::claim(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) {
    std::lock_guard lock(mutex_);
    // One statement: inserted, or taken over only from the same owner or an expired lease.
    auto statement = db_->prepare(
        "INSERT INTO leases(name, owner, expires_at) VALUES (?1, ?2, ?3) "
        "ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
        "WHERE leases.owner = excluded.owner OR leases.expires_at <= ?4");
    if (!statement) return statement.error();
    statement->bind(1, name).bind(2, owner).bind(3, now + ttlSeconds).bind(4, now);
    if (auto status = statement->run(); !status) return status.error();
    return db_->changes() == 1;
}

Result<bool> SqliteLeaseStore::renew(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("UPDATE leases SET expires_at = ?3 WHERE name = ?1 AND owner = ?2 AND expires_at > ?4");
    if (!statement) return statement.error();
    statement->bind(1, name).bind(2, owner).bind(3, now + ttlSeconds).bind(4, now);
    if (auto status = statement->run(); !status) return status.error();
    return db_->changes() == 1;
}

Status SqliteLeaseStore::release(const std::string& name, const std::string& owner) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM leases WHERE name = ?1 AND owner = ?2");
    if (!statement) return statement.error();
    statement->bind(1, name).bind(2, owner);
    return statement->run();
}

Result<std::optional<Lease>> SqliteLeaseStore::holder(const std::string& name, int64_t now) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT owner, expires_at FROM leases WHERE name = ?1 AND expires_at > ?2");
    if (!query) return query.error();
    query->bind(1, name).bind(2, now);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<Lease>{};
    return std::optional<Lease>{Lease{name, query->text(0), query->integer(1)}};
}

Result<std::vector<Lease>> SqliteLeaseStore::live(const std::string& prefix, int64_t now) {
    std::lock_guard lock(mutex_);
    // substr rather than LIKE: a prefix holding % or _ matches only itself.
    auto query = db_->prepare(
        "SELECT name, owner, expires_at FROM leases WHERE substr(name, 1, length(?1)) = ?1 AND expires_at > ?2 ORDER BY name");
    if (!query) return query.error();
    query->bind(1, prefix).bind(2, now);
    std::vector<Lease> leases;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        leases.push_back(Lease{query->text(0), query->text(1), query->integer(2)});
    }
    return leases;
}

}  // namespace svc
