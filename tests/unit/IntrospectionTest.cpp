// Unit tests of graphql/Introspection beyond what the e2e schema test (graphql-js's
// buildClientSchema over the served schema) covers.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include "graphql/Introspection.hpp"

TEST_CASE("graphqlLiteral prints default values as GraphQL literals") {
    struct Case {
        nlohmann::json value;
        std::string literal;
    };
    const std::vector<Case> cases = {
        {12, "12"},
        {-1.5, "-1.5"},
        {true, "true"},
        {nullptr, "null"},
        {"text \"quoted\"\n", R"("text \"quoted\"\n")"},
        {nlohmann::json::array({1, "a"}), R"([1, "a"])"},
        {nlohmann::json{{"include", nlohmann::json::array({"x"})}, {"limit", 3}}, R"({include: ["x"], limit: 3})"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.literal);
        CHECK(svc::graphql::graphqlLiteral(c.value) == c.literal);
    }
}

TEST_CASE("every schema carries the introspection types; __schema and __type are query-root meta-fields only") {
    svc::graphql::Schema schema;
    for (const char* name : {"__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive", "__DirectiveLocation"}) {
        CAPTURE(name);
        CHECK(schema.type(name) != nullptr);
    }
    svc::graphql::TypeDefinition query;
    query.name = "Query";
    svc::graphql::TypeDefinition other;
    other.name = "Product";
    CHECK(schema.fieldOf(query, "__schema") == svc::graphql::introspectionMetaField("__schema"));
    CHECK(schema.fieldOf(query, "__type")->arguments.front().name == "name");
    CHECK(schema.fieldOf(other, "__schema") == nullptr);
}

TEST_CASE("a built-in scalar no field or argument uses is not listed (Float here), as graphql-js") {
    svc::graphql::Schema schema;
    schema.addType(svc::graphql::objectType("Query", {svc::graphql::fieldDef("count", "Int", {svc::graphql::argumentDef("id", "ID")})}));
    auto root = svc::graphql::makeIntrospectionRoot(schema);
    auto typeNamed = [&](const std::string& name) {
        auto resolved = root->resolve("__type", nlohmann::json{{"name", name}});
        REQUIRE(resolved);
        return std::holds_alternative<svc::graphql::ObjectPtr>(resolved->value);
    };
    CHECK(typeNamed("Int"));
    CHECK(typeNamed("ID"));
    CHECK(typeNamed("String"));   // used by the introspection types themselves
    CHECK(typeNamed("Boolean"));
    CHECK_FALSE(typeNamed("Float"));
}
