#pragma once
// One entry of a response's `errors` list, and the single place where the core's
// ErrorCode becomes a GraphQL errorType.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Error.hpp"
#include "graphql/Ast.hpp"

namespace svc::graphql {

struct GraphqlError {
    std::string message;
    std::vector<SourceLocation> locations;
    std::optional<nlohmann::ordered_json> path;  // list of keys and indices; null for request errors
    std::string errorType;                       // e.g. "Unauthorized", "ValidationError"
    // The spec's errorInfo slot: null, or for a refused limit {"limit": <its name>, ...} (docs/api/graphql-http.md).
    std::optional<nlohmann::ordered_json> errorInfo;

    nlohmann::ordered_json toJson() const;
};

// A request refused or stopped by one of the limits: errorType LimitExceeded, errorInfo naming the limit.
GraphqlError limitError(const std::string& limit, const std::string& message, nlohmann::ordered_json details = nlohmann::ordered_json::object());

// Maps a resolver failure to the errorType the spec shows ("Unauthorized", ...).
std::string errorTypeFor(ErrorCode code);

}  // namespace svc::graphql
