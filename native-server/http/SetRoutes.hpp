#pragma once
// Authoring of curated content over HTTP (the CLI offers the same):
//   tenant credentials (x-api-id, x-api-secret):
//     GET /sets/custom, GET|PUT|DELETE /sets/custom/:id, the same under /sets/photo,
//     POST /sets/import ({"customSets": [...], "photoSets": [...]}, all or nothing)
//   operator key (Authorization: Bearer <key>):
//     GET /content-pool/templates, GET|PUT|DELETE /content-pool/templates/:id,
//     POST /content-pool/import ({"templates": [...]}, all or nothing)
// Every change is visible to widgets and GraphQL after the content's next rebuild,
// which the change schedules at once.
#include <httplib.h>

#include "recommend/ContentIndex.hpp"
#include "sets/SetAuthoring.hpp"
#include "store/ContentStore.hpp"
#include "store/OperatorKeyStore.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

class SetRoutes {
public:
    SetRoutes(TenantService& tenants, ContentStore& content, OperatorKeyStore& operators, ContentIndex& index)
        : tenants_(tenants), content_(content), operators_(operators), index_(index), authoring_(content, index) {}
    void registerOn(httplib::Server& server);

private:
    void listSets(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void getSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void putSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void deleteSet(const httplib::Request& request, httplib::Response& response, SetKind kind);
    void importSets(const httplib::Request& request, httplib::Response& response);
    void listTemplates(const httplib::Request& request, httplib::Response& response);
    void getTemplate(const httplib::Request& request, httplib::Response& response);
    void putTemplate(const httplib::Request& request, httplib::Response& response);
    void deleteTemplate(const httplib::Request& request, httplib::Response& response);
    void importTemplates(const httplib::Request& request, httplib::Response& response);
    Status authenticateOperator(const httplib::Request& request);

    TenantService& tenants_;
    ContentStore& content_;
    OperatorKeyStore& operators_;
    ContentIndex& index_;
    SetAuthoring authoring_;
};

}  // namespace svc
