// Parses, validates and (when valid) executes arbitrary GraphQL documents against
// the content schema with a root that refuses every field: nothing may crash.
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
    (void)result.toJson().dump();
    return 0;
}
