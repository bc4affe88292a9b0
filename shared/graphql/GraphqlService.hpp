#pragma once
// Runs one GraphQL request end to end: parse, validate, authorise, execute.
// Transport-free: the HTTP layer hands in the body and the tenant.
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "graphql/ContentSchema.hpp"
#include "graphql/DocumentCache.hpp"
#include "graphql/Executor.hpp"
#include "graphql/Parser.hpp"
#include "graphql/PersistedQueryCache.hpp"
#include "text/BoundedJson.hpp"

namespace svc::graphql {

struct GraphqlRequest {
    std::string query;
    std::string operationName;
    nlohmann::json variables = nlohmann::json::object();
    nlohmann::json extensions = nlohmann::json::object();
    // Automatic persisted queries (docs/adr/0084): extensions.persistedQuery.sha256Hash. With a
    // query, the query is remembered under it (once it validates); without one, the remembered
    // query runs, or the answer is PersistedQueryNotFound and the client sends the text.
    std::string persistedQueryHash;
    bool hasQuery = true;
    bool queriesOnly = false;  // a GET: only query operations may run (GraphQL over HTTP)
    // The host's reasons to stop executing early (a deadline, a client that left); empty: none.
    StopCheck stopCheck;
};

struct GraphqlResponse {
    // Executed: `data` is there (maybe with field errors). Stopped: a limit stopped the
    // execution (the response's size, the host's deadline): `data` is null, one error names
    // the limit. The others end before execution: RequestError (e.g. variables that do not
    // coerce, a query that costs too much), InvalidDocument (syntax, validation, the
    // document's limits), NotAQuery (a mutation or subscription where only queries may run).
    enum class Outcome { Executed, Stopped, RequestError, InvalidDocument, NotAQuery };
    Outcome outcome = Outcome::Executed;
    std::string body;  // the response as JSON text: {"data":...,"errors":[...]}
    nlohmann::ordered_json json() const {
        auto parsed = BoundedJson::parseOrdered(body, "response");
        return parsed ? std::move(*parsed) : nlohmann::ordered_json();
    }
};

// What one request may cost (docs/adr/0053, docs/api/graphql-http.md "Limits"); each refusal
// is an error that names its limit. (`first` is limited per field by the schema:
// ContentSchema. The host adds a deadline through GraphqlRequest::stopCheck.)
struct GraphqlLimits {
    size_t maxDocumentBytes = 32 * 1024;
    DocumentLimits document;        // tokens, operations and fragments, selections, aliases
    int maxDepth = 20;              // field nesting; graphql-js 16's introspection query needs 15
    uint64_t maxCost = 500000;      // QueryCost: fields times the page sizes around them, before execution (ADR 0053)
    size_t maxResponseBytes = size_t{8} << 20;  // `data` as JSON text, checked while it is written
    size_t cachedDocuments = 512;   // parsed-and-validated documents kept by text
    size_t cachedDocumentBytes = size_t{64} << 20;  // and the memory they may hold (text and syntax tree)
    PersistedQueryLimits persistedQueries;          // Apollo's automatic persisted queries, per tenant
};

class GraphqlService {
public:
    // `cursors` signs the pagination cursors this service hands out (and checks those it gets).
    GraphqlService(RecommendationService& recommendations, const CursorCodec& cursors, GraphqlLimits limits = {})
        : recommendations_(recommendations),
          cursors_(cursors),
          limits_(limits),
          documents_(limits.cachedDocuments, limits.cachedDocumentBytes),
          persisted_(limits.persistedQueries) {}

    // Reads {query, operationName, variables, extensions} from a JSON body; errors name the field.
    static Result<GraphqlRequest> parseRequestBody(const std::string& body);
    // The same from GET parameters, where variables and extensions are JSON text.
    static Result<GraphqlRequest> parseQueryParameters(const std::map<std::string, std::string>& parameters);

    // Every answer's `extensions`: the API version that answered (docs/adr/0072). The HTTP layer
    // adds it to the refusals it writes itself.
    static nlohmann::ordered_json responseExtensions();

    // `tenant` is nullopt when the request carried no valid x-api-id.
    GraphqlResponse execute(const GraphqlRequest& request, const std::optional<Tenant>& tenant) const;

    size_t cachedDocumentCount() const { return documents_.size(); }
    size_t cachedDocumentBytes() const { return documents_.bytes(); }
    size_t persistedQueryCount(int64_t tenant) const { return persisted_.documents(tenant); }

private:
    // The document parsed, validated and checked against the limits; from the cache when
    // the same text came before.
    std::shared_ptr<const PreparedDocument> prepare(const std::string& text) const;
    // The error that refuses the selected operation when its cost passes maxCost.
    std::optional<GraphqlError> costRefusal(const PreparedDocument& prepared, const GraphqlRequest& request) const;

    RecommendationService& recommendations_;
    const CursorCodec& cursors_;
    GraphqlLimits limits_;
    mutable DocumentCache documents_;
    mutable PersistedQueryCache persisted_;
};

}  // namespace svc::graphql
