#pragma once
// Executes a validated document (GraphQL spec, section 6): collects fields with
// @skip/@include and fragments, coerces arguments and variables, completes values by
// their schema type and propagates nulls of non-null fields to the nearest nullable parent.
#include <cstddef>
#include <functional>
#include <limits>
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
    // A limit stopped the execution (ExecutionLimits): `data` is null, the one error names the limit.
    bool stopped = false;
    bool dataIsNull() const { return data == "null"; }
    // The response's `extensions` as JSON object text; empty: none.
    std::string extensions;
    // The whole response, {"data":...,"errors":[...],"extensions":{...}}, as JSON text.
    std::string toJsonText() const;
};

// Why the host wants an execution to stop early (its deadline passed, its client left): the
// core has no clock and sees no connection, so it asks every few resolved fields. An empty
// `limit` lets the execution go on.
struct StopReason {
    std::string limit;    // named in the error's errorInfo, e.g. "deadline"
    std::string message;  // the error's message
};
using StopCheck = std::function<StopReason()>;

// What bounds one execution (docs/adr/0053).
struct ExecutionLimits {
    // `data` as JSON text: checked while it is written, so a response stops growing there.
    size_t maxResponseBytes = std::numeric_limits<size_t>::max();
    StopCheck stopCheck;              // empty: never asked
    unsigned stopCheckInterval = 32;  // resolved fields between two questions
    // Nesting of a variable's JSON value: deeper is refused before it is copied or coerced
    // (no input type of a schema nests nearly this deep).
    size_t maxVariableDepth = 32;
};

class Executor {
public:
    explicit Executor(const Schema& schema) : schema_(schema) {}
    ExecutionResult execute(const Document& document, const std::string& operationName,
                            const nlohmann::json& variables, const ObjectPtr& root, const ExecutionLimits& limits = {}) const;

private:
    const Schema& schema_;
};

}  // namespace svc::graphql
