// docs/api/schema.graphql is the schema svc serves: the schema's own introspection (what
// GraphiQL and code generators read) printed as graphql-js's printSchema prints SDL, compared
// with the file. Runs with the unit tests, so a change to the content schema that forgets the
// file (or the reverse) fails before any browser starts; the e2e spec graphql-schema.spec.js
// checks the same through graphql-js itself over HTTP.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "ContentTestSupport.hpp"
#include "graphql/GraphqlService.hpp"

namespace {

using json = nlohmann::ordered_json;

const char* const kIntrospectionQuery = R"(
query Drift {
  __schema {
    description
    queryType { name }
    types {
      kind name description
      fields(includeDeprecated: true) { name description args { ...Input } type { ...TypeRef } isDeprecated deprecationReason }
      inputFields { ...Input }
      enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
      interfaces { name }
      possibleTypes { name }
    }
    directives { name }
  }
}
fragment Input on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
)";

std::string typeRef(const json& type) {
    std::string kind = type["kind"];
    if (kind == "NON_NULL") return typeRef(type["ofType"]) + "!";
    if (kind == "LIST") return "[" + typeRef(type["ofType"]) + "]";
    return type["name"];
}

std::string stringLiteral(const std::string& text) {
    return json(text).dump();  // JSON's escapes are GraphQL's for these texts
}

// printDescription of graphql-js 16: a block string, on its own lines when long or multi-line.
std::string description(const json& definition, const std::string& indentation, bool firstInBlock) {
    if (!definition.contains("description") || definition["description"].is_null()) return "";
    std::string text = definition["description"];
    bool multipleLines = text.size() > 70 || text.find('\n') != std::string::npos;
    std::string block = multipleLines ? "\"\"\"\n" + text + "\n\"\"\"" : "\"\"\"" + text + "\"\"\"";
    std::string indented;
    for (char c : block) indented += c == '\n' ? "\n" + indentation : std::string(1, c);
    return (!indentation.empty() && !firstInBlock ? "\n" + indentation : indentation) + indented + "\n";
}

std::string deprecated(const json& definition) {
    if (!definition.value("isDeprecated", false)) return "";
    const auto& reason = definition["deprecationReason"];
    if (reason.is_null() || reason == "No longer supported") return " @deprecated";
    return " @deprecated(reason: " + stringLiteral(reason) + ")";
}

std::string inputValue(const json& value) {
    std::string out = value["name"].get<std::string>() + ": " + typeRef(value["type"]);
    if (!value["defaultValue"].is_null()) out += " = " + value["defaultValue"].get<std::string>();
    return out;
}

std::string arguments(const json& args) {
    if (args.empty()) return "";
    bool described = false;
    for (const auto& arg : args) described = described || !arg["description"].is_null();
    std::string out = "(";
    for (size_t i = 0; i < args.size(); ++i) {
        if (described) out += "\n" + description(args[i], "  ", i == 0) + "  " + inputValue(args[i]);
        else out += (i ? ", " : "") + inputValue(args[i]);
    }
    return out + (described ? "\n)" : ")");
}

std::string block(const json& members, const std::function<std::string(const json&)>& line) {
    std::string out = " {";
    for (size_t i = 0; i < members.size(); ++i) out += "\n" + description(members[i], "  ", i == 0) + "  " + line(members[i]);
    return out + "\n}";
}

bool builtIn(const std::string& name) {
    return name.rfind("__", 0) == 0 || name == "String" || name == "Int" || name == "Float" || name == "Boolean" || name == "ID";
}

// printSchema of graphql-js 16, for the kinds svc's schema has; another kind fails the test by name.
std::string printSchema(const json& schema) {
    std::string out;
    if (!schema["description"].is_null() || schema["queryType"]["name"] != "Query") {
        out += description(schema, "", true) + "schema {\n  query: " + schema["queryType"]["name"].get<std::string>() + "\n}";
    }
    for (const auto& directive : schema["directives"]) {
        std::string name = directive["name"];
        if (name != "skip" && name != "include" && name != "deprecated" && name != "specifiedBy") {
            FAIL("the schema has directive @" << name << ": teach this printer to print it");
        }
    }
    for (const auto& type : schema["types"]) {
        std::string name = type["name"];
        if (builtIn(name)) continue;
        std::string kind = type["kind"];
        std::string printed = description(type, "", true);
        if (kind == "OBJECT") {
            if (!type["interfaces"].empty()) FAIL(name << " implements interfaces: teach this printer to print them");
            printed += "type " + name + block(type["fields"], [](const json& field) {
                return field["name"].get<std::string>() + arguments(field["args"]) + ": " + typeRef(field["type"]) + deprecated(field);
            });
        } else if (kind == "INPUT_OBJECT") {
            printed += "input " + name + block(type["inputFields"], [](const json& field) { return inputValue(field); });
        } else if (kind == "ENUM") {
            printed += "enum " + name + block(type["enumValues"], [](const json& value) { return value["name"].get<std::string>() + deprecated(value); });
        } else if (kind == "SCALAR") {
            printed += "scalar " + name;
        } else {
            FAIL(name << " is a " << kind << ": teach this printer to print it");
        }
        out += (out.empty() ? "" : "\n\n") + printed;
    }
    return out + "\n";
}

// The file without its leading comment (buildSchema drops comments too).
std::string documentedSchema() {
    std::ifstream in(std::string(SVC_SOURCE_DIR) + "/docs/api/schema.graphql", std::ios::binary);
    REQUIRE(in);
    std::string line, out;
    bool header = true;
    while (std::getline(in, line)) {
        if (header && (line.rfind("#", 0) == 0 || line.empty())) continue;
        header = false;
        out += line + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("docs/api/schema.graphql is exactly the schema svc serves (its introspection printed as SDL)") {
    svc::testing::ProductContentSource store;
    svc::RecommendationService recommendations(store);
    svc::graphql::GraphqlService service(recommendations, svc::testing::testCursors());
    svc::graphql::GraphqlRequest request;
    request.query = kIntrospectionQuery;
    // Without an API ID, as GraphiQL asks before it signs in: the schema is public.
    auto response = service.execute(request, std::nullopt);
    auto body = response.json();
    REQUIRE_MESSAGE(!body.contains("errors"), body.dump());
    CHECK(printSchema(body["data"]["__schema"]) == documentedSchema());
}
