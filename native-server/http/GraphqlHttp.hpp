#pragma once
// GraphQL over HTTP (the GraphQL Foundation's specification, as audited by the
// graphql-http package): media types, and the one mapping from a GraphqlResponse's
// outcome to an HTTP status for each media type.
#include <optional>
#include <string>

#include "graphql/GraphqlService.hpp"

namespace svc {

enum class GraphqlMediaType { Json, GraphqlResponseJson };

inline constexpr const char* kGraphqlResponseJson = "application/graphql-response+json";

// The response type for an Accept header: the acceptable one with the highest q; on a tie
// the GraphQL one when named. Missing, */* and application/* give application/json (the
// clients that predate the GraphQL media type); nullopt when neither is acceptable (406).
std::optional<GraphqlMediaType> negotiateGraphqlMediaType(const std::string& accept);

// The Content-Type header of a response in that media type (UTF-8).
std::string graphqlContentType(GraphqlMediaType mediaType);

// True for application/json with or without parameters (charset must be utf-8 if given).
bool isJsonContentType(const std::string& contentType);

// 200 whenever there is a result under application/json (legacy clients read errors from
// the body); under application/graphql-response+json, 400 for a request that never ran
// (a stopped one ran: 200 with `data` null). A mutation over GET is 405 under both.
int graphqlStatusFor(graphql::GraphqlResponse::Outcome outcome, GraphqlMediaType mediaType);

// The body to send: without a `data` entry when the request never ran and the client
// understands application/graphql-response+json.
std::string graphqlBodyFor(const graphql::GraphqlResponse& response, GraphqlMediaType mediaType);

// A GET that names its document by hash (Apollo's persisted queries) has a stable URL: its answer
// may be cached as long as the widgets' content is (public, max-age=60, like /{apiId}/content),
// with the answer's own hash as ETag. Every other answer is no-store (docs/adr/0084).
struct GraphqlCaching {
    std::string cacheControl = "no-store";
    std::string etag;  // empty: none
};
GraphqlCaching graphqlCachingFor(const graphql::GraphqlRequest& request, const graphql::GraphqlResponse& response, bool authorised,
                                 const std::string& body);

}  // namespace svc
