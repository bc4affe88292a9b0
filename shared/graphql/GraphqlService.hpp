#pragma once
// Runs one GraphQL request end to end: parse, validate, authorise, execute.
// Transport-free: the HTTP layer hands in the body and the tenant.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "graphql/ContentSchema.hpp"

namespace svc::graphql {

struct GraphqlRequest {
    std::string query;
    std::string operationName;
    nlohmann::json variables = nlohmann::json::object();
};

struct GraphqlResponse {
    enum class Outcome { Executed, RequestError, InvalidDocument };
    Outcome outcome = Outcome::Executed;
    nlohmann::ordered_json body;
};

class GraphqlService {
public:
    explicit GraphqlService(RecommendationService& recommendations) : recommendations_(recommendations) {}

    // Reads {query, operationName, variables} from a JSON body; errors name the field.
    static Result<GraphqlRequest> parseRequestBody(const std::string& body);

    // `tenant` is nullopt when the request carried no valid x-api-id.
    GraphqlResponse execute(const GraphqlRequest& request, const std::optional<Tenant>& tenant) const;

private:
    RecommendationService& recommendations_;
};

}  // namespace svc::graphql
