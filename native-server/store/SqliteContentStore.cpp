#include "store/SqliteContentStore.hpp"

#include <ctime>

#include "text/BoundedJson.hpp"

namespace svc {
namespace {

const char* kindName(SetKind kind) { return kind == SetKind::Custom ? "custom" : "photo"; }

int64_t now() { return static_cast<int64_t>(std::time(nullptr)); }

}  // namespace

Result<std::vector<SetTemplate>> SqliteContentStore::templates() {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT id, definition FROM set_templates ORDER BY id");
    if (!query) return query.error();
    std::vector<SetTemplate> result;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        auto json = BoundedJson::parse(query->text(1), "template " + query->text(0));
        if (!json) return Error::internal("stored " + json.error().message);
        auto parsed = setTemplateFromJson(*json, "template " + query->text(0));
        if (!parsed) return Error::internal("stored " + parsed.error().message);
        result.push_back(std::move(*parsed));
    }
    return result;
}

Result<bool> SqliteContentStore::writeTemplate(const SetTemplate& setTemplate) {
    auto existing = db_.prepare("SELECT 1 FROM set_templates WHERE id = ?");
    if (!existing) return existing.error();
    existing->bind(1, setTemplate.id);
    auto found = existing->step();
    if (!found) return found.error();
    auto write = db_.prepare("INSERT INTO set_templates(id, definition, updated_at) VALUES (?, ?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at");
    if (!write) return write.error();
    write->bind(1, setTemplate.id).bind(2, toJson(setTemplate).dump()).bind(3, now());
    if (auto status = write->run(); !status) return status.error();
    return !*found;
}

Result<bool> SqliteContentStore::putTemplate(const SetTemplate& setTemplate) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto created = writeTemplate(setTemplate);
    if (!created) return created;
    if (auto status = bump(0); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    return created;
}

Result<bool> SqliteContentStore::deleteTemplate(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto remove = db_.prepare("DELETE FROM set_templates WHERE id = ?");
    if (!remove) return remove.error();
    remove->bind(1, id);
    if (auto status = remove->run(); !status) return status.error();
    bool removed = sqlite3_changes(db_.handle()) > 0;
    if (removed) {
        if (auto status = bump(0); !status) return status.error();
    }
    if (auto status = transaction->commit(); !status) return status.error();
    return removed;
}

template <typename Set, typename Parse>
Result<std::vector<Set>> SqliteContentStore::readSets(int64_t tenantId, SetKind kind, Parse parse) {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT id, definition FROM custom_sets WHERE tenant_id = ? AND kind = ? ORDER BY position");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, std::string(kindName(kind)));
    std::vector<Set> result;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        auto json = BoundedJson::parse(query->text(1), "set " + query->text(0));
        if (!json) return Error::internal("stored " + json.error().message);
        auto parsed = parse(*json, "set " + query->text(0));
        if (!parsed) return Error::internal("stored " + parsed.error().message);
        result.push_back(std::move(*parsed));
    }
    return result;
}

Result<std::vector<CustomSet>> SqliteContentStore::customSets(int64_t tenantId) {
    return readSets<CustomSet>(tenantId, SetKind::Custom, [](const nlohmann::json& json, const std::string& where) {
        return customSetFromJson(json, where);
    });
}

Result<std::vector<PhotoSet>> SqliteContentStore::photoSets(int64_t tenantId) {
    return readSets<PhotoSet>(tenantId, SetKind::Photo, [](const nlohmann::json& json, const std::string& where) {
        return photoSetFromJson(json, where);
    });
}

Result<bool> SqliteContentStore::writeSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition) {
    auto update = db_.prepare("UPDATE custom_sets SET definition = ?, updated_at = ? WHERE tenant_id = ? AND kind = ? AND id = ?");
    if (!update) return update.error();
    update->bind(1, definition).bind(2, now()).bind(3, tenantId).bind(4, std::string(kindName(kind))).bind(5, id);
    if (auto status = update->run(); !status) return status.error();
    if (sqlite3_changes(db_.handle()) > 0) return false;
    auto insert = db_.prepare("INSERT INTO custom_sets(tenant_id, kind, id, position, definition, updated_at) "
                              "VALUES (?1, ?2, ?3, (SELECT COALESCE(MAX(position), 0) + 1 FROM custom_sets WHERE tenant_id = ?1 AND kind = ?2), ?4, ?5)");
    if (!insert) return insert.error();
    insert->bind(1, tenantId).bind(2, std::string(kindName(kind))).bind(3, id).bind(4, definition).bind(5, now());
    if (auto status = insert->run(); !status) return status.error();
    return true;
}

Result<bool> SqliteContentStore::putSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto created = writeSet(tenantId, kind, id, definition);
    if (!created) return created;
    if (auto status = bump(tenantId); !status) return status.error();
    if (auto status = transaction->commit(); !status) return status.error();
    return created;
}

Result<bool> SqliteContentStore::putCustomSet(int64_t tenantId, const CustomSet& set) {
    return putSet(tenantId, SetKind::Custom, set.id, toJson(set).dump());
}

Result<bool> SqliteContentStore::putPhotoSet(int64_t tenantId, const PhotoSet& set) {
    return putSet(tenantId, SetKind::Photo, set.id, toJson(set).dump());
}

Result<bool> SqliteContentStore::deleteSet(int64_t tenantId, SetKind kind, const std::string& id) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);
    if (!transaction) return transaction.error();
    auto remove = db_.prepare("DELETE FROM custom_sets WHERE tenant_id = ? AND kind = ? AND id = ?");
    if (!remove) return remove.error();
    remove->bind(1, tenantId).bind(2, std::string(kindName(kind))).bind(3, id);
    if (auto status = remove->run(); !status) return status.error();
    bool removed = sqlite3_changes(db_.handle()) > 0;
    if (removed) {
        if (auto status = bump(tenantId); !status) return status.error();
    }
    if (auto status = transaction->commit(); !status) return status.error();
    return removed;
}

Status SqliteContentStore::importFile(std::optional<int64_t> tenantId, const SetFile& file) {
    if (tenantId && !file.templates.empty()) {
        return Error::permissionDenied("templates: set templates belong to the operator's content pool; import them without a tenant");
    }
    if (!tenantId && (!file.customSets.empty() || !file.photoSets.empty())) {
        return Error::invalidArgument("customSets: custom and photo sets belong to a tenant; name one");
    }
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(db_);  // rolled back on any early return
    if (!transaction) return transaction.error();
    for (const auto& setTemplate : file.templates) {
        if (auto written = writeTemplate(setTemplate); !written) return written.error();
    }
    for (const auto& set : file.customSets) {
        if (auto written = writeSet(*tenantId, SetKind::Custom, set.id, toJson(set).dump()); !written) return written.error();
    }
    for (const auto& set : file.photoSets) {
        if (auto written = writeSet(*tenantId, SetKind::Photo, set.id, toJson(set).dump()); !written) return written.error();
    }
    if (auto status = bump(tenantId.value_or(0)); !status) return status;
    return transaction->commit();
}

Status SqliteContentStore::bump(int64_t tenantId) {
    auto statement = db_.prepare("INSERT INTO content_generations(tenant_id, generation) VALUES (?, 1) "
                                 "ON CONFLICT(tenant_id) DO UPDATE SET generation = generation + 1");
    if (!statement) return statement.error();
    statement->bind(1, tenantId);
    return statement->run();
}

Status SqliteContentStore::bumpGeneration(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    return bump(tenantId);
}

Result<std::map<int64_t, int64_t>> SqliteContentStore::generations() {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT tenant_id, generation FROM content_generations");
    if (!query) return query.error();
    std::map<int64_t, int64_t> result;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        result[query->integer(0)] = query->integer(1);
    }
    return result;
}

Status SqliteContentStore::recordLearned(int64_t tenantId, const LearnedUpTo& learned) {
    std::lock_guard lock(mutex_);
    auto statement = db_.prepare("INSERT INTO content_learned(tenant_id, orders, last_order_received_at, updated_at) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT(tenant_id) DO UPDATE SET orders = excluded.orders, "
                                 "last_order_received_at = excluded.last_order_received_at, updated_at = excluded.updated_at");
    if (!statement) return statement.error();
    statement->bind(1, tenantId).bind(2, learned.orders).bind(3, learned.lastOrderReceivedAt).bind(4, now());
    return statement->run();
}

Result<std::map<int64_t, ContentStore::LearnedUpTo>> SqliteContentStore::learned() {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT tenant_id, orders, last_order_received_at FROM content_learned");
    if (!query) return query.error();
    std::map<int64_t, LearnedUpTo> result;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        result[query->integer(0)] = {query->integer(1), query->integer(2)};
    }
    return result;
}

Status SqliteContentStore::addOperatorKey(const OperatorKey& key) {
    std::lock_guard lock(mutex_);
    auto existing = db_.prepare("SELECT 1 FROM operator_keys WHERE name = ?");
    if (!existing) return existing.error();
    existing->bind(1, key.name);
    auto found = existing->step();
    if (!found) return found.error();
    if (*found) return Error::alreadyExists("name: an operator key named " + key.name + " exists");
    auto insert = db_.prepare("INSERT INTO operator_keys(name, key_hash, created_at) VALUES (?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, key.name).bind(2, key.keyHash).bind(3, now());
    return insert->run();
}

Result<std::vector<OperatorKey>> SqliteContentStore::operatorKeys() {
    std::lock_guard lock(mutex_);
    auto query = db_.prepare("SELECT name, key_hash FROM operator_keys ORDER BY name");
    if (!query) return query.error();
    std::vector<OperatorKey> keys;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        keys.push_back({query->text(0), query->text(1)});
    }
    return keys;
}

Result<bool> SqliteContentStore::removeOperatorKey(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto remove = db_.prepare("DELETE FROM operator_keys WHERE name = ?");
    if (!remove) return remove.error();
    remove->bind(1, name);
    if (auto status = remove->run(); !status) return status.error();
    return sqlite3_changes(db_.handle()) > 0;
}

}  // namespace svc
