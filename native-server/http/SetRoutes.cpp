#include "http/SetRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "http/RequestContext.hpp"
#include "sets/SetJson.hpp"
#include "tenant/SecretHasher.hpp"

namespace svc {
namespace {

using nlohmann::json;

const char* kIdPattern = "([A-Za-z0-9._:-]{1,128})";

// A set or template file is an object or an array (SetJson decides), sent with or without a Content-Type.
Result<json> jsonBody(const httplib::Request& request) { return readJsonBody(request, {.contentTypeRequired = false, .objectRequired = false}); }

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
    auto items = authoring_.list(tenant->id, kind);
    if (!items) return sendError(response, items.error());
    sendJson(response, 200, {{"sets", *items}});
}

void SetRoutes::getSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[1];
    auto found = authoring_.find(tenant->id, kind, id);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("id: no set " + id));
    sendJson(response, 200, **found);
}

void SetRoutes::putSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto body = jsonBody(request);
    if (!body) return sendError(response, body.error());
    auto write = authoring_.put(tenant->id, kind, std::move(*body), request.matches[1]);
    if (!write) return sendError(response, write.error());
    if (!write->refused.empty()) return sendError(response, write->refused.front());
    sendJson(response, write->created ? 201 : 200, write->stored);
}

void SetRoutes::deleteSet(const httplib::Request& request, httplib::Response& response, SetKind kind) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    const std::string id = request.matches[1];
    auto removed = authoring_.remove(tenant->id, kind, id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no set " + id));
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
    auto items = authoring_.listTemplates();
    if (!items) return sendError(response, items.error());
    sendJson(response, 200, {{"templates", *items}});
}

void SetRoutes::getTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    const std::string id = request.matches[1];
    auto found = authoring_.findTemplate(id);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("id: no template " + id));
    sendJson(response, 200, **found);
}

void SetRoutes::putTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    auto body = jsonBody(request);
    if (!body) return sendError(response, body.error());
    auto write = authoring_.putTemplate(std::move(*body), request.matches[1]);
    if (!write) return sendError(response, write.error());
    if (!write->refused.empty()) return sendError(response, write->refused.front());
    sendJson(response, write->created ? 201 : 200, write->stored);
}

void SetRoutes::deleteTemplate(const httplib::Request& request, httplib::Response& response) {
    if (auto status = authenticateOperator(request); !status) return sendError(response, status.error());
    const std::string id = request.matches[1];
    auto removed = authoring_.removeTemplate(id);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("id: no template " + id));
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
