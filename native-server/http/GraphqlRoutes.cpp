#include "http/GraphqlRoutes.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "http/ClientConnection.hpp"
#include "http/GraphqlHttp.hpp"
#include "http/RequestContext.hpp"
#include "http/ResponseCompression.hpp"

namespace svc {

void GraphqlRoutes::registerOn(httplib::Server& server) {
    server.Post("/graphql", [this](const httplib::Request& request, httplib::Response& response) { serve(request, response); });
    server.Get("/graphql", [this](const httplib::Request& request, httplib::Response& response) {
        if (GraphiqlPage::wanted(request)) return graphiqlPage_.servePage(request, response);
        serve(request, response);
    });
    graphiqlPage_.registerOn(server);
    server.Options("/graphql", [](const httplib::Request&, httplib::Response& response) {
        allowAnyOrigin(response);
        response.set_header("Access-Control-Allow-Methods", "POST, GET, OPTIONS");
        // What GraphQL clients add: Apollo's client awareness and W3C trace context.
        response.set_header("Access-Control-Allow-Headers",
                            "accept, content-type, x-api-id, apollographql-client-name, apollographql-client-version, traceparent");
        response.set_header("Access-Control-Max-Age", "86400");
        response.status = 204;
    });
}

void GraphqlRoutes::serve(const httplib::Request& request, httplib::Response& response) {
    auto deadline = std::chrono::steady_clock::now() + deadline_;
    // GraphQL over HTTP: the media type first (406), then the transport (415), then the request.
    // These refusals are that protocol's own mapping, in its body shape (docs/adr/0079).
    allowAnyOrigin(response);
    response.set_header("Cache-Control", "no-store");
    response.set_header("Vary", "Accept, x-api-id");
    auto mediaType = negotiateGraphqlMediaType(request.get_header_value("Accept"));
    auto sendRequestError = [&](int status, const std::string& message) {
        response.status = status;
        graphql::GraphqlError error;
        error.message = message;
        error.errorType = "InvalidRequest";
        nlohmann::ordered_json body{{"errors", nlohmann::ordered_json::array({error.toJson()})},
                                    {"extensions", graphql::GraphqlService::responseExtensions()}};
        response.set_content(body.dump(), graphqlContentType(mediaType.value_or(GraphqlMediaType::Json)));
    };
    if (!mediaType) {
        return sendRequestError(406, std::string("Accept: the response is application/json or ") + kGraphqlResponseJson);
    }
    bool isGet = request.method == "GET";
    if (!isGet && !isJsonContentType(request.get_header_value("Content-Type"))) {
        return sendRequestError(415, "Content-Type: a GraphQL POST body is application/json");
    }
    std::map<std::string, std::string> parameters(request.params.begin(), request.params.end());
    auto parsed = isGet ? graphql::GraphqlService::parseQueryParameters(parameters)
                        : graphql::GraphqlService::parseRequestBody(request.body);
    if (!parsed) return sendRequestError(400, parsed.error().message);
    std::optional<Tenant> tenant;
    std::string apiId = request.get_header_value("x-api-id");
    if (!apiId.empty()) tenant = publicTenant(tenants_, apiId);
    // The core has no clock and sees no socket: it asks this every few fields it resolves.
    // A client that left reads no answer: its work stops (the connection gate tells, ADR 0057).
    parsed->stopCheck = [client = ClientConnection::current(), deadline, milliseconds = deadline_.count()]() -> graphql::StopReason {
        if (client.gone()) return {"clientGone", "the client closed the connection"};
        if (std::chrono::steady_clock::now() >= deadline) {
            return {"deadline", "the request ran past its deadline of " + std::to_string(milliseconds) + " ms"};
        }
        return {};
    };
    auto result = graphql_.execute(*parsed, tenant);
    response.status = graphqlStatusFor(result.outcome, *mediaType);
    if (result.outcome == graphql::GraphqlResponse::Outcome::NotAQuery) response.set_header("Allow", "POST");
    std::string body = graphqlBodyFor(result, *mediaType);
    auto caching = graphqlCachingFor(*parsed, result, tenant.has_value(), body);
    response.headers.erase("Cache-Control");  // no-store until here, for the refusals above
    response.set_header("Cache-Control", caching.cacheControl);
    if (!caching.etag.empty()) {
        response.set_header("ETag", caching.etag);
        if (request.get_header_value("If-None-Match") == caching.etag) {
            response.status = 304;
            return;
        }
    }
    ResponseCompression::setBody(request, response, body, graphqlContentType(*mediaType));
}

}  // namespace svc
