#pragma once
// Executes a validated document (GraphQL spec, section 6): collects fields with
// @skip/@include and fragments, coerces arguments and variables, completes values by
// their schema type and propagates nulls of non-null fields to the nearest nullable parent.
#include <string>

#include <nlohmann/json.hpp>

#include "graphql/Ast.hpp"
#include "graphql/GraphqlError.hpp"
#include "graphql/ObjectResolver.hpp"
#include "graphql/Schema.hpp"

namespace svc::graphql {

// The response is written as JSON text while executing: building a JSON tree first was most
// of a request's cost.
struct ExecutionResult {
    std::string data = "null";  // `data` as JSON text; null when the operation could not run
    std::vector<GraphqlError> errors;
    bool dataIsNull() const { return data == "null"; }
    // The whole response, {"data":...,"errors":[...]}, as JSON text.
    std::string toJsonText() const;
};

class Executor {
public:
    explicit Executor(const Schema& schema) : schema_(schema) {}
    ExecutionResult execute(const Document& document, const std::string& operationName,
                            const nlohmann::json& variables, const ObjectPtr& root) const;

private:
    const Schema& schema_;
};

}  // namespace svc::graphql
