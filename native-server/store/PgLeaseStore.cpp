#include "store/PgLeaseStore.hpp"

namespace svc {

Result<bool> PgLeaseStore::claim(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        auto claimed = connection.execute("claim lease",
                                          "INSERT INTO leases(name, owner, expires_at) VALUES ($1, $2, $3) "
                                          "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
                                          "WHERE leases.owner = excluded.owner OR leases.expires_at <= $4",
                                          {name, owner, now + ttlSeconds, now});
        if (!claimed) return claimed.error();
        return claimed->changedRows() == 1;
    });
}

Result<bool> PgLeaseStore::renew(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        auto renewed = connection.execute("renew lease", "UPDATE leases SET expires_at = $3 WHERE name = $1 AND owner = $2 AND expires_at > $4",
                                          {name, owner, now + ttlSeconds, now});
        if (!renewed) return renewed.error();
        return renewed->changedRows() == 1;
    });
}

Status PgLeaseStore::release(const std::string& name, const std::string& owner) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto released = connection.execute("release lease", "DELETE FROM leases WHERE name = $1 AND owner = $2", {name, owner});
        if (!released) return released.error();
        return Status::success();
    });
}

Result<std::optional<Lease>> PgLeaseStore::holder(const std::string& name, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<Lease>> {
        auto found = connection.execute("read lease holder", "SELECT owner, expires_at FROM leases WHERE name = $1 AND expires_at > $2", {name, now});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<Lease>{};
        return std::optional<Lease>{Lease{name, found->text(0, 0), found->integer(0, 1)}};
    });
}

Result<std::vector<Lease>> PgLeaseStore::live(const std::string& prefix, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<Lease>> {
        // starts_with rather than LIKE: a prefix holding % or _ matches only itself.
        auto found = connection.execute("list live leases",
                                        "SELECT name, owner, expires_at FROM leases WHERE starts_with(name, $1) AND expires_at > $2 ORDER BY name",
                                        {prefix, now});
        if (!found) return found.error();
        std::vector<Lease> leases;
        for (int row = 0; row < found->rows(); ++row) leases.push_back(Lease{found->text(row, 0), found->text(row, 1), found->integer(row, 2)});
        return leases;
    });
}

}  // namespace svc
