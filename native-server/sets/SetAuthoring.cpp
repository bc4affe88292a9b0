#include "sets/SetAuthoring.hpp"

#include "sets/SetJson.hpp"

namespace svc {

using nlohmann::json;

Status SetAuthoring::pathIdInto(json& body, const std::string& pathId) {
    if (!body.is_object()) return Error::invalidArgument("body: must be a JSON object");
    auto found = body.find("id");
    if (found == body.end()) body["id"] = pathId;
    else if (!found->is_string() || found->get<std::string>() != pathId)
        return Error::invalidArgument("id: must equal the id in the path (" + pathId + ")");
    return {};
}

Result<json> SetAuthoring::list(int64_t tenantId, SetKind kind) {
    json items = json::array();
    if (kind == SetKind::Custom) {
        auto sets = content_.customSets(tenantId);
        if (!sets) return sets.error();
        for (const auto& set : *sets) items.push_back(toJson(set));
    } else {
        auto sets = content_.photoSets(tenantId);
        if (!sets) return sets.error();
        for (const auto& set : *sets) items.push_back(toJson(set));
    }
    return items;
}

Result<std::optional<json>> SetAuthoring::find(int64_t tenantId, SetKind kind, const std::string& id) {
    auto items = list(tenantId, kind);
    if (!items) return items.error();
    for (const auto& item : *items) {
        if (item.value("id", "") == id) return std::optional<json>(item);
    }
    return std::optional<json>();
}

Result<SetWrite> SetAuthoring::put(int64_t tenantId, SetKind kind, json body, const std::string& pathId) {
    SetWrite write;
    if (auto status = pathIdInto(body, pathId); !status) {
        write.refused.push_back(status.error());
        return write;
    }
    Result<bool> created = false;
    if (kind == SetKind::Custom) {
        auto set = customSetFromJson(body);
        if (!set) write.refused.push_back(set.error());
        else if (skuCheck_) write.refused = skuCheck_(tenantId, set->skus);
        if (!write.refused.empty()) return write;
        created = content_.putCustomSet(tenantId, *set);
        write.stored = toJson(*set);
    } else {
        auto set = photoSetFromJson(body);
        if (!set) {
            write.refused.push_back(set.error());
            return write;
        }
        created = content_.putPhotoSet(tenantId, *set);
        write.stored = toJson(*set);
    }
    if (!created) return created.error();
    write.created = *created;
    index_.contentChanged(tenantId);
    return write;
}

Result<bool> SetAuthoring::remove(int64_t tenantId, SetKind kind, const std::string& id) {
    auto removed = content_.deleteSet(tenantId, kind, id);
    if (removed && *removed) index_.contentChanged(tenantId);
    return removed;
}

Result<json> SetAuthoring::listTemplates() {
    auto templates = content_.templates();
    if (!templates) return templates.error();
    json items = json::array();
    for (const auto& setTemplate : *templates) items.push_back(toJson(setTemplate));
    return items;
}

Result<std::optional<json>> SetAuthoring::findTemplate(const std::string& id) {
    auto items = listTemplates();
    if (!items) return items.error();
    for (const auto& item : *items) {
        if (item.value("id", "") == id) return std::optional<json>(item);
    }
    return std::optional<json>();
}

Result<SetWrite> SetAuthoring::putTemplate(json body, const std::string& pathId) {
    SetWrite write;
    if (auto status = pathIdInto(body, pathId); !status) {
        write.refused.push_back(status.error());
        return write;
    }
    auto setTemplate = setTemplateFromJson(body);
    if (!setTemplate) {
        write.refused.push_back(setTemplate.error());
        return write;
    }
    auto created = content_.putTemplate(*setTemplate);
    if (!created) return created.error();
    write.created = *created;
    write.stored = toJson(*setTemplate);
    index_.contentChanged(kContentPool);
    return write;
}

Result<bool> SetAuthoring::removeTemplate(const std::string& id) {
    auto removed = content_.deleteTemplate(id);
    if (removed && *removed) index_.contentChanged(kContentPool);
    return removed;
}

}  // namespace svc
