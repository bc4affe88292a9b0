#include "store/PgContentStore.hpp"

#include "store/PgChangeNotifications.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace {

const char* kindName(SetKind kind) { return kind == SetKind::Custom ? "custom" : "photo"; }

// `(xmax = 0)`: the row was inserted by this statement, not updated (PostgreSQL's upsert idiom).
Result<bool> upsertTemplate(PgConnection& connection, const SetTemplate& setTemplate, int64_t now) {
    auto written = connection.execute("put set template",
                                      "INSERT INTO set_templates(id, definition, updated_at) VALUES ($1, $2, $3) "
                                      "ON CONFLICT (id) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at "
                                      "RETURNING (xmax = 0)::int",
                                      {setTemplate.id, toJson(setTemplate).dump(), now});
    if (!written) return written.error();
    return written->integer(0, 0) != 0;
}

// A replaced set keeps its position; a new one takes the next of the identity (creation order).
Result<bool> upsertSet(PgConnection& connection, int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition, int64_t now) {
    auto written = connection.execute("put set",
                                      "INSERT INTO custom_sets(tenant_id, kind, id, definition, updated_at) VALUES ($1, $2, $3, $4, $5) "
                                      "ON CONFLICT (tenant_id, kind, id) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at "
                                      "RETURNING (xmax = 0)::int",
                                      {tenantId, kindName(kind), id, definition, now});
    if (!written) return written.error();
    return written->integer(0, 0) != 0;
}

}  // namespace

Result<bool> PgContentStore::writeAndBump(const char* purpose, int64_t tenantId, const std::function<Result<bool>(PgConnection&)>& write) {
    return database_.withConnection([&](PgConnection& connection) -> Result<bool> {
        bool changed = false;
        Status status = connection.inTransaction(purpose, [&]() -> Status {
            auto written = write(connection);
            if (!written) return written.error();
            changed = *written;
            return changed ? PgChangeNotifications::bumpGeneration(connection, tenantId) : Status::success();
        });
        if (!status) return status.error();
        return changed;
    });
}

Result<std::vector<SetTemplate>> PgContentStore::templates() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<SetTemplate>> {
        auto rows = connection.execute("read set templates", "SELECT id, definition FROM set_templates ORDER BY id");
        if (!rows) return rows.error();
        std::vector<SetTemplate> result;
        for (int row = 0; row < rows->rows(); ++row) {
            auto json = BoundedJson::parse(rows->text(row, 1), "template " + rows->text(row, 0));
            if (!json) return Error::internal("stored " + json.error().message);
            auto parsed = setTemplateFromJson(*json, "template " + rows->text(row, 0));
            if (!parsed) return Error::internal("stored " + parsed.error().message);
            result.push_back(std::move(*parsed));
        }
        return result;
    });
}

Result<bool> PgContentStore::putTemplate(const SetTemplate& setTemplate) {
    // Every put bumps, a replace too: its definition changed, or may have.
    bool created = false;
    auto written = writeAndBump("put set template", 0, [&](PgConnection& connection) -> Result<bool> {
        auto upserted = upsertTemplate(connection, setTemplate, clock_.nowSeconds());
        if (!upserted) return upserted.error();
        created = *upserted;
        return true;
    });
    if (!written) return written.error();
    return created;
}

Result<bool> PgContentStore::deleteTemplate(const std::string& id) {
    return writeAndBump("delete set template", 0, [&](PgConnection& connection) -> Result<bool> {
        auto removed = connection.execute("delete set template", "DELETE FROM set_templates WHERE id = $1", {id});
        if (!removed) return removed.error();
        return removed->changedRows() > 0;
    });
}

template <typename Set, typename Parse>
Result<std::vector<Set>> PgContentStore::readSets(int64_t tenantId, SetKind kind, Parse parse) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<Set>> {
        auto rows = connection.execute("read sets", "SELECT id, definition FROM custom_sets WHERE tenant_id = $1 AND kind = $2 ORDER BY position",
                                       {tenantId, kindName(kind)});
        if (!rows) return rows.error();
        std::vector<Set> result;
        for (int row = 0; row < rows->rows(); ++row) {
            auto json = BoundedJson::parse(rows->text(row, 1), "set " + rows->text(row, 0));
            if (!json) return Error::internal("stored " + json.error().message);
            auto parsed = parse(*json, "set " + rows->text(row, 0));
            if (!parsed) return Error::internal("stored " + parsed.error().message);
            result.push_back(std::move(*parsed));
        }
        return result;
    });
}

Result<std::vector<CustomSet>> PgContentStore::customSets(int64_t tenantId) {
    return readSets<CustomSet>(tenantId, SetKind::Custom, [](const nlohmann::json& json, const std::string& where) {
        return customSetFromJson(json, where);
    });
}

Result<std::vector<PhotoSet>> PgContentStore::photoSets(int64_t tenantId) {
    return readSets<PhotoSet>(tenantId, SetKind::Photo, [](const nlohmann::json& json, const std::string& where) {
        return photoSetFromJson(json, where);
    });
}

Result<bool> PgContentStore::putSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition) {
    bool created = false;
    auto written = writeAndBump("put set", tenantId, [&](PgConnection& connection) -> Result<bool> {
        auto upserted = upsertSet(connection, tenantId, kind, id, definition, clock_.nowSeconds());
        if (!upserted) return upserted.error();
        created = *upserted;
        return true;
    });
    if (!written) return written.error();
    return created;
}

Result<bool> PgContentStore::putCustomSet(int64_t tenantId, const CustomSet& set) { return putSet(tenantId, SetKind::Custom, set.id, toJson(set).dump()); }

Result<bool> PgContentStore::putPhotoSet(int64_t tenantId, const PhotoSet& set) { return putSet(tenantId, SetKind::Photo, set.id, toJson(set).dump()); }

Result<bool> PgContentStore::deleteSet(int64_t tenantId, SetKind kind, const std::string& id) {
    return writeAndBump("delete set", tenantId, [&](PgConnection& connection) -> Result<bool> {
        auto removed = connection.execute("delete set", "DELETE FROM custom_sets WHERE tenant_id = $1 AND kind = $2 AND id = $3",
                                          {tenantId, kindName(kind), id});
        if (!removed) return removed.error();
        return removed->changedRows() > 0;
    });
}

Status PgContentStore::importFile(std::optional<int64_t> tenantId, const SetFile& file) {
    if (tenantId && !file.templates.empty()) {
        return Error::permissionDenied("templates: set templates belong to the operator's content pool; import them without a tenant");
    }
    if (!tenantId && (!file.customSets.empty() || !file.photoSets.empty())) {
        return Error::invalidArgument("customSets: custom and photo sets belong to a tenant; name one");
    }
    auto imported = writeAndBump("import set file", tenantId.value_or(0), [&](PgConnection& connection) -> Result<bool> {
        int64_t now = clock_.nowSeconds();
        for (const auto& setTemplate : file.templates) {
            if (auto written = upsertTemplate(connection, setTemplate, now); !written) return written.error();
        }
        for (const auto& set : file.customSets) {
            if (auto written = upsertSet(connection, *tenantId, SetKind::Custom, set.id, toJson(set).dump(), now); !written) return written.error();
        }
        for (const auto& set : file.photoSets) {
            if (auto written = upsertSet(connection, *tenantId, SetKind::Photo, set.id, toJson(set).dump(), now); !written) return written.error();
        }
        return true;  // one bump for the whole file, as on SQLite
    });
    if (!imported) return imported.error();
    return Status::success();
}

Status PgContentStore::bumpGeneration(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) { return PgChangeNotifications::bumpGeneration(connection, tenantId); });
}

Result<std::map<int64_t, int64_t>> PgContentStore::generations() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::map<int64_t, int64_t>> {
        auto rows = connection.execute("read content generations", "SELECT tenant_id, generation FROM content_generations");
        if (!rows) return rows.error();
        std::map<int64_t, int64_t> result;
        for (int row = 0; row < rows->rows(); ++row) result[rows->integer(row, 0)] = rows->integer(row, 1);
        return result;
    });
}

Status PgContentStore::recordLearned(int64_t tenantId, const LearnedUpTo& learned) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto recorded = connection.execute("record what content learned",
                                           "INSERT INTO content_learned(tenant_id, orders, last_order_received_at, updated_at) VALUES ($1, $2, $3, $4) "
                                           "ON CONFLICT (tenant_id) DO UPDATE SET orders = excluded.orders, "
                                           "last_order_received_at = excluded.last_order_received_at, updated_at = excluded.updated_at",
                                           {tenantId, learned.orders, learned.lastOrderReceivedAt, clock_.nowSeconds()});
        if (!recorded) return recorded.error();
        return Status::success();
    });
}

Result<std::map<int64_t, ContentStore::LearnedUpTo>> PgContentStore::learned() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::map<int64_t, LearnedUpTo>> {
        auto rows = connection.execute("read what content learned", "SELECT tenant_id, orders, last_order_received_at FROM content_learned");
        if (!rows) return rows.error();
        std::map<int64_t, LearnedUpTo> result;
        for (int row = 0; row < rows->rows(); ++row) result[rows->integer(row, 0)] = {rows->integer(row, 1), rows->integer(row, 2)};
        return result;
    });
}

}  // namespace svc
