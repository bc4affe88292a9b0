#include "graphql/GraphqlService.hpp"

#include "graphql/Executor.hpp"
#include "graphql/Parser.hpp"
#include "graphql/Validator.hpp"

namespace svc::graphql {
namespace {

GraphqlResponse requestErrors(GraphqlResponse::Outcome outcome, const std::vector<GraphqlError>& errors) {
    GraphqlResponse response;
    response.outcome = outcome;
    response.body["data"] = nullptr;
    auto list = nlohmann::ordered_json::array();
    for (const auto& error : errors) list.push_back(error.toJson());
    response.body["errors"] = list;
    return response;
}

}  // namespace

Result<GraphqlRequest> GraphqlService::parseRequestBody(const std::string& body) {
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) return Error::invalidArgument("body: not valid JSON");
    if (!json.is_object()) return Error::invalidArgument("body: must be a JSON object");
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
    return request;
}

GraphqlResponse GraphqlService::execute(const GraphqlRequest& request, const std::optional<Tenant>& tenant) const {
    Parser parser(request.query);
    auto document = parser.parseDocument();
    if (!document) {
        GraphqlError error;
        error.message = "Invalid Syntax : " + parser.lastError().message;
        error.locations.push_back(parser.lastError().location);
        error.errorType = "InvalidSyntax";
        return requestErrors(GraphqlResponse::Outcome::InvalidDocument, {error});
    }
    const Schema& schema = contentSchema();
    auto validationErrors = Validator(schema).validate(*document);
    if (!validationErrors.empty()) return requestErrors(GraphqlResponse::Outcome::InvalidDocument, validationErrors);

    ObjectPtr root = tenant ? makeQueryRoot(std::make_shared<ContentContext>(ContentContext{*tenant, recommendations_}))
                            : makeUnauthorizedRoot();
    auto result = Executor(schema).execute(*document, request.operationName, request.variables, root);
    GraphqlResponse response;
    // No data at all means the request itself was wrong (e.g. bad variables).
    response.outcome = result.data.is_null() && !result.errors.empty() && !tenant ? GraphqlResponse::Outcome::Executed
                       : result.data.is_null() && !result.errors.empty() && result.errors.front().path == std::nullopt
                           ? GraphqlResponse::Outcome::RequestError
                           : GraphqlResponse::Outcome::Executed;
    response.body = result.toJson();
    return response;
}

}  // namespace svc::graphql
