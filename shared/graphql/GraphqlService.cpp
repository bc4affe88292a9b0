#include "graphql/GraphqlService.hpp"

#include <algorithm>

#include "graphql/Executor.hpp"
#include "graphql/Parser.hpp"
#include "graphql/Validator.hpp"
#include "text/BoundedJson.hpp"

namespace svc::graphql {
namespace {

GraphqlResponse requestErrors(GraphqlResponse::Outcome outcome, const std::vector<GraphqlError>& errors) {
    ExecutionResult result;
    result.errors = errors;
    GraphqlResponse response;
    response.outcome = outcome;
    response.body = result.toJsonText();
    return response;
}

}  // namespace

namespace {

// The request's fields from a JSON object, whichever transport carried them.
Result<GraphqlRequest> requestFromJson(const nlohmann::json& json) {
    GraphqlRequest request;
    if (!json.contains("query") || !json["query"].is_string()) return Error::invalidArgument("query: must be a string");
    request.query = json["query"].get<std::string>();
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
    }
    return request;
}

}  // namespace

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

namespace {

// Field nesting of a selection set; fragments add no level of their own. Called on
// validated documents only, so fragment spreads do not form cycles.
int selectionDepth(const SelectionSet& selections, const Document& document) {
    int deepest = 0;
    for (const auto& selection : selections) {
        switch (selection.kind) {
            case Selection::Kind::Field:
                deepest = std::max(deepest, 1 + selectionDepth(selection.field.selectionSet, document));
                break;
            case Selection::Kind::InlineFragment:
                deepest = std::max(deepest, selectionDepth(selection.inlineFragment.selectionSet, document));
                break;
            case Selection::Kind::FragmentSpread:
                for (const auto& fragment : document.fragments) {
                    if (fragment.name == selection.spread.name) deepest = std::max(deepest, selectionDepth(fragment.selectionSet, document));
                }
                break;
        }
    }
    return deepest;
}

}  // namespace

std::shared_ptr<const PreparedDocument> GraphqlService::prepare(const std::string& text) const {
    if (auto cached = documents_.find(text)) return cached;
    auto prepared = std::make_shared<PreparedDocument>();
    Parser parser(text);
    auto document = parser.parseDocument();
    if (!document) {
        GraphqlError error;
        error.message = "Invalid Syntax : " + parser.lastError().message;
        error.locations.push_back(parser.lastError().location);
        error.errorType = "InvalidSyntax";
        prepared->errors.push_back(std::move(error));
        prepared->syntaxError = true;
    } else {
        prepared->errors = Validator(contentSchema()).validate(*document);
        if (prepared->errors.empty()) {
            for (const auto& operation : document->operations) {
                int depth = selectionDepth(operation.selectionSet, *document);
                if (depth > limits_.maxDepth) {
                    GraphqlError error;
                    error.message = "Validation error of type MaxQueryDepthExceeded: the query is nested " + std::to_string(depth) +
                                    " fields deep, more than the maximum of " + std::to_string(limits_.maxDepth);
                    error.locations.push_back(operation.location);
                    error.errorType = "ValidationError";
                    prepared->errors.push_back(std::move(error));
                }
            }
        }
        prepared->document = std::make_shared<const Document>(std::move(*document));
    }
    documents_.insert(text, prepared);
    return prepared;
}

GraphqlResponse GraphqlService::execute(const GraphqlRequest& request, const std::optional<Tenant>& tenant) const {
    if (request.query.size() > limits_.maxDocumentBytes) {
        GraphqlError error;
        error.message = "query: the document has " + std::to_string(request.query.size()) + " bytes, more than the maximum of " +
                        std::to_string(limits_.maxDocumentBytes);
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
                GraphqlResponse response = requestErrors(GraphqlResponse::Outcome::NotAQuery, {error});
                return response;
            }
        }
    }
    if (!prepared->errors.empty()) return requestErrors(GraphqlResponse::Outcome::InvalidDocument, prepared->errors);
    const Schema& schema = contentSchema();

    ObjectPtr root = tenant ? makeQueryRoot(std::make_shared<ContentContext>(ContentContext{*tenant, recommendations_, cursors_}))
                            : makeUnauthorizedRoot();
    auto result = Executor(schema).execute(*document, request.operationName, request.variables, root);
    GraphqlResponse response;
    // No data at all means the request itself was wrong (e.g. bad variables).
    response.outcome = result.dataIsNull() && !result.errors.empty() && !tenant ? GraphqlResponse::Outcome::Executed
                       : result.dataIsNull() && !result.errors.empty() && result.errors.front().path == std::nullopt
                           ? GraphqlResponse::Outcome::RequestError
                           : GraphqlResponse::Outcome::Executed;
    response.body = result.toJsonText();
    return response;
}

}  // namespace svc::graphql
