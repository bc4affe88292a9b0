#include "graphql/GraphqlService.hpp"

#include <algorithm>

#include "graphql/Executor.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/Parser.hpp"
#include "graphql/QueryCost.hpp"
#include "graphql/Sha256.hpp"
#include "graphql/Validator.hpp"
#include "text/BoundedJson.hpp"

namespace svc::graphql {
namespace {

const std::string& extensionsText() {
    static const std::string text = GraphqlService::responseExtensions().dump();
    return text;
}

GraphqlResponse requestErrors(GraphqlResponse::Outcome outcome, const std::vector<GraphqlError>& errors) {
    ExecutionResult result;
    result.errors = errors;
    result.extensions = extensionsText();
    GraphqlResponse response;
    response.outcome = outcome;
    response.body = result.toJsonText();
    return response;
}

}  // namespace

namespace {

// extensions.persistedQuery as Apollo sends it: {"version": 1, "sha256Hash": "<64 hex digits>"}.
Status readPersistedQuery(const nlohmann::json& extensions, GraphqlRequest& request) {
    if (!extensions.is_object() || !extensions.contains("persistedQuery") || extensions["persistedQuery"].is_null()) return {};
    const nlohmann::json& persisted = extensions["persistedQuery"];
    if (!persisted.is_object()) return Error::invalidArgument("extensions.persistedQuery: must be an object");
    if (!persisted.contains("version") || persisted["version"] != 1) {
        return Error::invalidArgument("extensions.persistedQuery.version: only version 1 is supported");
    }
    const nlohmann::json& hash = persisted.contains("sha256Hash") ? persisted["sha256Hash"] : nlohmann::json();
    bool hex = hash.is_string() && hash.get_ref<const std::string&>().size() == 64 &&
               hash.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex) return Error::invalidArgument("extensions.persistedQuery.sha256Hash: must be 64 lower-case hex digits");
    request.persistedQueryHash = hash.get<std::string>();
    if (request.hasQuery && sha256Hex(request.query) != request.persistedQueryHash) {
        return Error::invalidArgument("extensions.persistedQuery.sha256Hash: is not the SHA-256 of query");
    }
    return {};
}

// The request's fields from a JSON object, whichever transport carried them. `query` may be
// left out (or null) when extensions.persistedQuery names the document.
Result<GraphqlRequest> requestFromJson(const nlohmann::json& json) {
    GraphqlRequest request;
    bool persisted = json.contains("extensions") && json["extensions"].is_object() && json["extensions"].contains("persistedQuery") &&
                     !json["extensions"]["persistedQuery"].is_null();
    request.hasQuery = json.contains("query") && !(persisted && json["query"].is_null());
    if (request.hasQuery && !json["query"].is_string()) return Error::invalidArgument("query: must be a string");
    if (!request.hasQuery && !persisted) return Error::invalidArgument("query: must be a string");
    if (request.hasQuery) request.query = json["query"].get<std::string>();
    if (json.contains("operationName") && !json["operationName"].is_null()) {
        if (!json["operationName"].is_string()) return Error::invalidArgument("operationName: must be a string or null");
        request.operationName = json["operationName"].get<std::string>();
    }
    if (json.contains("variables") && !json["variables"].is_null()) {
        if (!json["variables"].is_object()) return Error::invalidArgument("variables: must be an object or null");
        request.variables = json["variables"];
    }
    if (json.contains("extensions") && !json["extensions"].is_null()) {
        if (!json["extensions"].is_object()) return Error::invalidArgument("extensions: must be an object or null");
        request.extensions = json["extensions"];
        if (auto status = readPersistedQuery(request.extensions, request); !status) return status.error();
    }
    return request;
}

}  // namespace

nlohmann::ordered_json GraphqlService::responseExtensions() { return {{"version", std::string(kContentApiVersion)}}; }

Result<GraphqlRequest> GraphqlService::parseRequestBody(const std::string& body) {
    auto json = BoundedJson::parse(body, "body");
    if (!json) return json.error();
    if (!json->is_object()) return Error::invalidArgument("body: must be a JSON object");
    return requestFromJson(*json);
}

Result<GraphqlRequest> GraphqlService::parseQueryParameters(const std::map<std::string, std::string>& parameters) {
    nlohmann::json json = nlohmann::json::object();
    for (const auto& [name, value] : parameters) {
        if (name == "query" || name == "operationName") {
            json[name] = value;
        } else if (name == "variables" || name == "extensions") {
            auto parsed = BoundedJson::parse(value, name);
            if (!parsed) return parsed.error();
            json[name] = std::move(*parsed);
        }
    }
    auto request = requestFromJson(json);
    if (request) request->queriesOnly = true;
    return request;
}

// What a prepared document holds, about: its text, and its syntax tree by the tokens it
// was parsed from (a selection is some 400 bytes for its 2 to 3 tokens, a value 170 for one).
constexpr size_t kTreeBytesPerToken = 256;

std::shared_ptr<const PreparedDocument> GraphqlService::prepare(const std::string& text) const {
    if (auto cached = documents_.find(text)) return cached;
    auto prepared = std::make_shared<PreparedDocument>();
    Parser parser(text, limits_.document);
    auto parsed = parser.parseDocument();
    prepared->bytes = text.size() + parser.tokens() * kTreeBytesPerToken;
    if (!parsed) {
        const SyntaxError& syntax = parser.lastError();
        GraphqlError error;
        if (syntax.limit.empty()) {
            error.message = "Invalid Syntax : " + syntax.message;
            error.errorType = "InvalidSyntax";
        } else {
            error = limitError(syntax.limit, syntax.message, {{"maximum", syntax.maximum}});
        }
        error.locations.push_back(syntax.location);
        prepared->errors.push_back(std::move(error));
        prepared->syntaxError = true;
        documents_.insert(text, prepared);
        return prepared;
    }
    auto document = std::make_shared<const Document>(std::move(*parsed));
    auto fragments = std::make_shared<const FragmentGraph>(*document);
    // The depth first: it bounds what validation follows (fragments are expanded linearly).
    for (const auto& operation : document->operations) {
        int depth = fragments->fieldDepth(operation.selectionSet);
        if (depth > limits_.maxDepth) {
            GraphqlError error;
            error.message = "Validation error of type MaxQueryDepthExceeded: the query is nested " + std::to_string(depth) +
                            " fields deep, more than the maximum of " + std::to_string(limits_.maxDepth);
            error.locations.push_back(operation.location);
            error.errorType = "ValidationError";
            prepared->errors.push_back(std::move(error));
        }
    }
    if (prepared->errors.empty()) prepared->errors = Validator(contentSchema()).validate(*fragments);
    if (prepared->errors.empty()) {
        // A cost that no variable changes is the same for every request: computed here, once.
        QueryCost cost(contentSchema(), *fragments);
        for (const auto& operation : document->operations) {
            auto figure = cost.of(operation, nlohmann::json::object());
            prepared->fixedCosts.push_back(figure.readVariables ? std::nullopt : std::optional<uint64_t>(figure.cost));
        }
    }
    prepared->document = std::move(document);
    prepared->fragments = std::move(fragments);
    documents_.insert(text, prepared);
    return prepared;
}

GraphqlResponse GraphqlService::execute(const GraphqlRequest& sent, const std::optional<Tenant>& tenant) const {
    // A persisted query's text is the tenant's own: another tenant's clients cannot run or evict it.
    int64_t partition = tenant ? tenant->id : 0;
    const GraphqlRequest* resolved = &sent;
    GraphqlRequest remembered;
    if (!sent.hasQuery) {
        auto text = persisted_.find(partition, sent.persistedQueryHash);
        if (!text) {
            GraphqlError error;
            error.message = "PersistedQueryNotFound";  // Apollo's clients match this text and send the query
            error.errorType = "PersistedQueryNotFound";
            return requestErrors(GraphqlResponse::Outcome::RequestError, {error});
        }
        remembered = sent;
        remembered.query = std::move(*text);
        remembered.hasQuery = true;
        resolved = &remembered;
    }
    const GraphqlRequest& request = *resolved;
    if (request.query.size() > limits_.maxDocumentBytes) {
        GraphqlError error = limitError("maxDocumentBytes", "query: the document has " + std::to_string(request.query.size()) +
                                                                " bytes, more than the maximum of " + std::to_string(limits_.maxDocumentBytes),
                                        {{"maximum", limits_.maxDocumentBytes}});
        return requestErrors(GraphqlResponse::Outcome::InvalidDocument, {error});
    }
    auto prepared = prepare(request.query);
    if (prepared->syntaxError) return requestErrors(GraphqlResponse::Outcome::InvalidDocument, prepared->errors);
    const Document* document = prepared->document.get();
    if (request.queriesOnly) {
        for (const auto& operation : document->operations) {
            bool selected = request.operationName.empty() ? document->operations.size() == 1 : operation.name == request.operationName;
            if (selected && operation.operation != "query") {
                GraphqlError error;
                error.message = "Only query operations may run over GET; send a " + operation.operation + " with POST";
                error.errorType = "InvalidRequest";
                GraphqlResponse response = requestErrors(GraphqlResponse::Outcome::NotAQuery, {error});
                return response;
            }
        }
    }
    if (!prepared->errors.empty()) return requestErrors(GraphqlResponse::Outcome::InvalidDocument, prepared->errors);
    if (sent.hasQuery && !sent.persistedQueryHash.empty()) persisted_.remember(partition, sent.persistedQueryHash, sent.query);
    const Schema& schema = contentSchema();
    if (auto refused = costRefusal(*prepared, request)) return requestErrors(GraphqlResponse::Outcome::RequestError, {*refused});

    ObjectPtr root = tenant ? makeQueryRoot(std::make_shared<ContentContext>(ContentContext{*tenant, recommendations_, cursors_}))
                            : makeUnauthorizedRoot();
    ExecutionLimits executionLimits;
    executionLimits.maxResponseBytes = limits_.maxResponseBytes;
    executionLimits.stopCheck = request.stopCheck;
    auto result = Executor(schema).execute(*document, request.operationName, request.variables, root, executionLimits);
    result.extensions = extensionsText();
    GraphqlResponse response;
    // No data at all means the request itself was wrong (e.g. bad variables).
    response.outcome = result.stopped ? GraphqlResponse::Outcome::Stopped
                       : result.dataIsNull() && !result.errors.empty() && !tenant ? GraphqlResponse::Outcome::Executed
                       : result.dataIsNull() && !result.errors.empty() && result.errors.front().path == std::nullopt
                           ? GraphqlResponse::Outcome::RequestError
                           : GraphqlResponse::Outcome::Executed;
    response.body = result.toJsonText();
    return response;
}

std::optional<GraphqlError> GraphqlService::costRefusal(const PreparedDocument& prepared, const GraphqlRequest& request) const {
    const auto& operations = prepared.document->operations;
    for (size_t i = 0; i < operations.size(); ++i) {
        const auto& operation = operations[i];
        bool selected = request.operationName.empty() ? operations.size() == 1 : operation.name == request.operationName;
        if (!selected) continue;
        uint64_t cost = prepared.fixedCosts[i] ? *prepared.fixedCosts[i]
                                               : QueryCost(contentSchema(), *prepared.fragments).of(operation, request.variables).cost;
        if (cost <= limits_.maxCost) return std::nullopt;
        GraphqlError error = limitError("maxCost",
                                        "query cost " + std::to_string(cost) + " exceeds the limit of " + std::to_string(limits_.maxCost) +
                                            " (each field counts 1, times the page sizes of the lists it is in)",
                                        {{"cost", cost}, {"maximum", limits_.maxCost}});
        error.locations.push_back(operation.location);
        return error;
    }
    return std::nullopt;  // no operation selected: the executor says so
}

}  // namespace svc::graphql
