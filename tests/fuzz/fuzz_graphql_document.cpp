// Runs arbitrary GraphQL requests through the engine as GraphqlService does, with its limits
// on: parse (document limits), the depth through fragments, validation, the query cost with
// the request's variables, and (when within the cost) execution against the content schema
// with a root that refuses every field (introspection still runs), under a response-size
// limit and a stop check that ends long runs. Nothing may crash, hang or grow without bound,
// and the response is always valid JSON.
//
// Input: the document, then optionally a NUL byte and the variables as JSON (an object).
#include <cstdint>
#include <cstring>
#include <string>

#include "graphql/ContentSchema.hpp"
#include "graphql/Executor.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/GraphqlService.hpp"
#include "graphql/Parser.hpp"
#include "graphql/QueryCost.hpp"
#include "graphql/Validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string input(reinterpret_cast<const char*>(data), size);
    size_t split = input.find('\0');
    std::string source = input.substr(0, split);
    nlohmann::json variables = nlohmann::json::object();
    if (split != std::string::npos) {
        variables = nlohmann::json::parse(input.substr(split + 1), nullptr, false);
        if (variables.is_discarded() || !variables.is_object()) variables = nlohmann::json::object();
    }
    const svc::graphql::GraphqlLimits limits;
    if (source.size() > limits.maxDocumentBytes) return 0;
    svc::graphql::Parser parser(source, limits.document);
    auto document = parser.parseDocument();
    if (!document) return 0;
    svc::graphql::FragmentGraph fragments(*document);
    for (const auto& operation : document->operations) {
        if (fragments.fieldDepth(operation.selectionSet) > limits.maxDepth) return 0;
    }
    const auto& schema = svc::graphql::contentSchema();
    auto errors = svc::graphql::Validator(schema).validate(fragments);
    if (!errors.empty()) return 0;
    svc::graphql::QueryCost cost(schema, fragments);
    for (const auto& operation : document->operations) {
        if (cost.of(operation, variables).cost > limits.maxCost) return 0;
    }
    svc::graphql::ExecutionLimits executionLimits;
    executionLimits.maxResponseBytes = 1 << 20;
    // The fuzzer's stand-in for a deadline: a bounded number of questions.
    unsigned asked = 0;
    executionLimits.stopCheck = [&asked]() -> svc::graphql::StopReason {
        if (++asked < 1000) return {};
        return {"deadline", "stopped by the fuzzer"};
    };
    std::string operationName = document->operations.size() > 1 ? document->operations.back().name : "";
    auto result = svc::graphql::Executor(schema).execute(*document, operationName, variables, svc::graphql::makeUnauthorizedRoot(),
                                                         executionLimits);
    // The response stops growing at the limit (plus the one value being written).
    if (result.data.size() > executionLimits.maxResponseBytes + 65536) __builtin_trap();
    // The executor writes JSON text directly: whatever the document, it must parse.
    if (nlohmann::json::parse(result.toJsonText(), nullptr, false).is_discarded()) __builtin_trap();
    return 0;
}
