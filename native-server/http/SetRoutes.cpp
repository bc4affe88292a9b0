#include "http/SetRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/RequestContext.hpp"
#include "sets/SetJson.hpp"
#include "tenant/SecretHasher.hpp"

namespace svc {
namespace {

using nlohmann::json;

const char* kIdPattern = "([A-Za-z0-9._:-]{1,128})";

void sendJson(httplib::Response& response, int status, const json& body) {
    response.status = status;
    response.set_content(body.dump(), "application/json");
}

// The body as JSON; the error names the byte where parsing stopped.
Result<json> jsonBody(const httplib::Request& request) {
    std::string type = request.get_header_value("Content-Type");
    if (!type.empty() && type.find("application/json") == std::string::npos) {
        return Error::invalidArgument("Content-Type: must be application/json");
    }
    try {
        return json::parse(request.body);
    } catch (const json::parse_error& error) {
        return Error::invalidArgument("body: not valid JSON at byte " + std::to_string(error.byte));
    }
}

// A body may omit the id (the path names it); one that names another is refused.
Status pathIdInto(json& body, const std::string& pathId) {
    if (!body.is_object()) return Error::invalidArgument("body: must be a JSON object");
    auto found = body.find("id");
    if (found == body.end()) body["id"] = pathId;
    else if (!found->is_string() || found->get<std::string>() != pathId)
        return Error::invalidArgument("id: must equal the id in the path (" + pathId + ")");
    return {};
}

}  // namespace

Status SetRoutes::authenticateOperator(const httplib::Request& request) {
    std::string header = request.get_header_value("Authorization");
    const std::string prefix = "Bearer ";
    if (header.rfind(prefix, 0) != 0) return Error::unauthenticated("Authorization: an operator key is required (Bearer <key>)");
    std::string key = header.substr(prefix.size());
    auto keys = operators_.operatorKeys();
    if (!keys) return keys.error();
    for (const auto& stored : *keys) {
        if (SecretHasher::matches(key, stored.keyHash)) return {};
    }
    return Error::unauthenticated("Authorization: not a valid operator key");
}

void SetRoutes::registerOn(httplib::Server& server) {
    for (SetKind kind : {SetKind::Custom, SetKind::Photo}) {
        std::string base = kind == SetKind::Custom ? "/sets/custom" : "/sets/photo";
        server.Get(base, [this, kind](const httplib::Request& q, httplib::Response& r) { listSets(q, r, kind); });
        server.Get(base + "/" + kIdPattern, [this, kind](const httplib::Request& q, httplib::Response& r) { getSet(q, r, kind); });
        server.Put(base + "/" + kIdPattern, [this, kind](const httplib::Request& q, httplib::Response& r) { putSet(q, r, kind); });
        server.Delete(base + "/" + kIdPattern, [this, kind](const httplib::Request& q, httplib::Response& r) { deleteSet(q, r, kind); });
    }
    server.Post("/sets/import", [this](const httplib::Request& q, httplib::Response& r) { importSets(q, r); });
    server.Get("/content-pool/templates", [this](const httplib::Request& q, httplib::Response& r) { listTemplates(q, r); });
    server.Get(std::string("/content-pool/templates/") + kIdPattern, [this](const httplib::Request& q, httplib::Response& r) { getTemplate(q, r); });
    server.Put(std::string("/content-pool/templates/") + kIdPattern, [this](const httplib::Request& q, httplib::Response& r) { putTemplate(q, r); });
    server.Delete(std::string("/content-pool/templates/") + kIdPattern,
                  [this](const httplib::Request& q, httplib::Response& r) { deleteTemplate(q, r); });
    server.Post("/content-pool/import", [this](const httplib::Request& q, httplib::Response& r) { importTemplates(q, r); });
}

void SetRoutes::listSets(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    json items = json::array();
    if (kind == SetKind::Custom) {
        auto sets = content_.customSets(tenant->id);
        if (!sets) return sendError(response, sets.error());
        for (const auto& set : *sets) items.push_back(toJson(set));
    } else {
        auto sets = content_.photoSets(tenant->id);
        if (!sets) return sendError(response, sets.error());
        for (const auto& set : *sets) items.push_back(toJson(set));
    }
    sendJson(response, 200, {{"sets", items}});
}

void SetRoutes::getSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[1];
    if (kind == SetKind::Custom) {
        auto sets = content_.customSets(tenant->id);
        if (!sets) return sendError(response, sets.error());
        for (const auto& set : *sets) {
            if (set.id == id) return sendJson(response, 200, toJson(set));
        }
    } else {
        auto sets = content_.photoSets(tenant->id);
        if (!sets) return sendError(response, sets.error());
        for (const auto& set : *sets) {
            if (set.id == id) return sendJson(response, 200, toJson(set));
        }
    }
    sendError(response, Error::notFound("id: no set " + id));
}

void SetRoutes::putSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto body = jsonBody(request);
    if (!body) return sendError(response, body.error());
    if (auto status = pathIdInto(*body, request.matches[1]); !status) return sendError(response, status.error());
    Result<bool> created = false;
    json stored;
    if (kind == SetKind::Custom) {
        auto set = customSetFromJson(*body);
        if (!set) return sendError(response, set.error());
        created = content_.putCustomSet(tenant->id, *set);
        stored = toJson(*set);
    } else {
        auto set = photoSetFromJson(*body);
        if (!set) return sendError(response, set.error());
        created = content_.putPhotoSet(tenant->id, *set);
        stored = toJson(*set);
    }
    if (!created) return sendError(response, created.error());
    index_.contentChanged(tenant->id);
    sendJson(response, *created ? 201 : 200, stored);
}

void SetRoutes::deleteSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[1];
    auto removed = content_.deleteSet(tenant->id, kind, id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no set " + id));
    index_.contentChanged(tenant->id);
    response.status = 204;
}

void SetRoutes::importSets(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    if (auto body = jsonBody(request); !body) return sendError(response, body.error());
    auto file = setFileFromJson(request.body);
    if (!file) return sendError(response, file.error());
    if (auto status = content_.importFile(tenant->id, *file); !status) return sendError(response, status.error());
    index_.contentChanged(tenant->id);
    sendJson(response, 200, {{"customSets", file->customSets.size()}, {"photoSets", file->photoSets.size()}});
}

void SetRoutes::listTemplates(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    auto templates = content_.templates();
    if (!templates) return sendError(response, templates.error());
    json items = json::array();
    for (const auto& setTemplate : *templates) items.push_back(toJson(setTemplate));
    sendJson(response, 200, {{"templates", items}});
}

void SetRoutes::getTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    auto templates = content_.templates();
    if (!templates) return sendError(response, templates.error());
    const std::string id = request.matches[1];
    for (const auto& setTemplate : *templates) {
        if (setTemplate.id == id) return sendJson(response, 200, toJson(setTemplate));
    }
    sendError(response, Error::notFound("id: no template " + id));
}

void SetRoutes::putTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    auto body = jsonBody(request);
    if (!body) return sendError(response, body.error());
    if (auto status = pathIdInto(*body, request.matches[1]); !status) return sendError(response, status.error());
    auto setTemplate = setTemplateFromJson(*body);
    if (!setTemplate) return sendError(response, setTemplate.error());
    auto created = content_.putTemplate(*setTemplate);
    if (!created) return sendError(response, created.error());
    index_.contentChanged(0);
    sendJson(response, *created ? 201 : 200, toJson(*setTemplate));
}

void SetRoutes::deleteTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    const std::string id = request.matches[1];
    auto removed = content_.deleteTemplate(id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no template " + id));
    index_.contentChanged(0);
    response.status = 204;
}

void SetRoutes::importTemplates(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    if (auto body = jsonBody(request); !body) return sendError(response, body.error());
    auto file = setFileFromJson(request.body);
    if (!file) return sendError(response, file.error());
    if (auto status = content_.importFile(std::nullopt, *file); !status) return sendError(response, status.error());
    index_.contentChanged(0);
    sendJson(response, 200, {{"templates", file->templates.size()}});
}

}  // namespace svc
