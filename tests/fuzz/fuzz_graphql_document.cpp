// Parses, validates and (when valid) executes arbitrary GraphQL documents against
// the content schema with a root that refuses every field (introspection still runs):
// nothing may crash, and the response is always valid JSON.
#include <cstdint>
#include <string>

#include "graphql/ContentSchema.hpp"
#include "graphql/Executor.hpp"
#include "graphql/Parser.hpp"
#include "graphql/Validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string source(reinterpret_cast<const char*>(data), size);
    svc::graphql::Parser parser(source);
    auto document = parser.parseDocument();
    if (!document) return 0;
    const auto& schema = svc::graphql::contentSchema();
    auto errors = svc::graphql::Validator(schema).validate(*document);
    if (!errors.empty()) return 0;
    auto result = svc::graphql::Executor(schema).execute(*document, "", nlohmann::json::object(),
                                                          svc::graphql::makeUnauthorizedRoot());
    // The executor writes JSON text directly: whatever the document, it must parse.
    if (nlohmann::json::parse(result.toJsonText(), nullptr, false).is_discarded()) __builtin_trap();
    return 0;
}
