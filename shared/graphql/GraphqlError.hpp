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

    nlohmann::ordered_json toJson() const;
};

// Maps a resolver failure to the errorType the spec shows ("Unauthorized", ...).
std::string errorTypeFor(ErrorCode code);

}  // namespace svc::graphql
