#pragma once
// /graphql: GraphQL over HTTP for the content schema (docs/api/graphql-http.md): media type and
// transport checks, the request's deadline and the client's departure, then the core's executor.
#include <httplib.h>

#include <chrono>

#include "graphql/GraphqlService.hpp"
#include "http/GraphiqlPage.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

// GraphQL's limits (docs/adr/0053, docs/api/graphql-http.md "Limits").
struct GraphqlRouteOptions {
    graphql::GraphqlLimits limits;
    // Work on one request stops here (steady clock, from the request's arrival at the route).
    std::chrono::milliseconds deadline{2000};
};

class GraphqlRoutes {
public:
    // `assetsDir` holds GraphiQL's files (the page a browser gets at GET /graphql, docs/adr/0084).
    GraphqlRoutes(TenantService& tenants, graphql::GraphqlService& graphql, std::chrono::milliseconds deadline, const std::string& assetsDir)
        : tenants_(tenants), graphql_(graphql), deadline_(deadline), graphiqlPage_(assetsDir) {}
    void registerOn(httplib::Server& server);

private:
    void serve(const httplib::Request& request, httplib::Response& response);

    TenantService& tenants_;
    graphql::GraphqlService& graphql_;
    std::chrono::milliseconds deadline_;
    GraphiqlPage graphiqlPage_;
};

}  // namespace svc
