#include "store/PgOperatorKeyStore.hpp"

namespace svc {

Status PgOperatorKeyStore::addOperatorKey(const OperatorKey& key) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto added = connection.execute("add operator key",
                                        "INSERT INTO operator_keys(name, key_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                                        {key.name, key.keyHash, clock_.nowSeconds()});
        if (!added) return added.error();
        if (added->changedRows() == 0) return Error::alreadyExists("name: an operator key named " + key.name + " exists");
        return Status::success();
    });
}

Result<std::vector<OperatorKey>> PgOperatorKeyStore::operatorKeys() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<OperatorKey>> {
        auto found = connection.execute("list operator keys", "SELECT name, key_hash FROM operator_keys ORDER BY name");
        if (!found) return found.error();
        std::vector<OperatorKey> keys;
        for (int row = 0; row < found->rows(); ++row) keys.push_back({found->text(row, 0), found->text(row, 1)});
        return keys;
    });
}

Result<bool> PgOperatorKeyStore::removeOperatorKey(const std::string& name) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        auto removed = connection.execute("remove operator key", "DELETE FROM operator_keys WHERE name = $1", {name});
        if (!removed) return removed.error();
        return removed->changedRows() > 0;
    });
}

}  // namespace svc
