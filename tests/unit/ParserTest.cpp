// Unit tests of graphql/Parser.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "graphql/Parser.hpp"
#include "graphql/Schema.hpp"

using svc::graphql::Document;
using svc::graphql::Parser;
using svc::graphql::Selection;
using svc::graphql::TypeReference;
using svc::graphql::Value;

namespace {

Document parseOk(const std::string& source) {
    Parser parser(source);
    auto document = parser.parseDocument();
    REQUIRE_MESSAGE(document.ok(), (document.ok() ? std::string() : document.error().message));
    return std::move(document).value();
}

// A compact rendering of a value: 1, "s", ENUM, $var, [..], {k: ..}.
std::string show(const svc::graphql::ValuePtr& value) {
    if (!value) return "<none>";
    switch (value->kind) {
        case Value::Kind::Null: return "null";
        case Value::Kind::Int: return "Int:" + value->text;
        case Value::Kind::Float: return "Float:" + value->text;
        case Value::Kind::String: return "\"" + value->text + "\"";
        case Value::Kind::Boolean: return "Bool:" + value->text;
        case Value::Kind::Enum: return "Enum:" + value->text;
        case Value::Kind::Variable: return "$" + value->text;
        case Value::Kind::List: {
            std::string out = "[";
            for (size_t i = 0; i < value->list.size(); ++i) out += (i ? " " : "") + show(value->list[i]);
            return out + "]";
        }
        case Value::Kind::Object: {
            std::string out = "{";
            for (size_t i = 0; i < value->fields.size(); ++i) {
                out += (i ? " " : "") + value->fields[i].first + ":" + show(value->fields[i].second);
            }
            return out + "}";
        }
    }
    return "?";
}

std::string location(const svc::graphql::SourceLocation& at) {
    return std::to_string(at.line) + ":" + std::to_string(at.column);
}

}  // namespace

TEST_CASE("Parser: a full operation with variables, directives, aliases, arguments and fragments") {
    const std::string source =
        "query Products($sku: ID!, $first: Int = 5, $tags: [String!]! = [\"a\"]) @skip(if: false) {\n"
        "  main: product(id: $sku) {\n"
        "    name\n"
        "    ...Details @include(if: true)\n"
        "    ... on Product { brand }\n"
        "    ... @skip(if: $flag) { url }\n"
        "  }\n"
        "}\n"
        "fragment Details on Product { modelId }\n";
    Document document = parseOk(source);
    REQUIRE(document.operations.size() == 1);
    const auto& operation = document.operations[0];
    CHECK(operation.operation == "query");
    CHECK(operation.name == "Products");
    CHECK(location(operation.location) == "1:1");
    REQUIRE(operation.variables.size() == 3);
    CHECK(operation.variables[0].name == "sku");
    CHECK(operation.variables[0].type.toString() == "ID!");
    CHECK(operation.variables[0].defaultValue == nullptr);
    CHECK(location(operation.variables[0].location) == "1:16");
    CHECK(operation.variables[1].type.toString() == "Int");
    CHECK(show(operation.variables[1].defaultValue) == "Int:5");
    CHECK(operation.variables[2].type.toString() == "[String!]!");
    CHECK(operation.variables[2].type.kind == TypeReference::Kind::NonNull);
    CHECK(operation.variables[2].type.ofType->kind == TypeReference::Kind::List);
    CHECK(show(operation.variables[2].defaultValue) == "[\"a\"]");
    REQUIRE(operation.directives.size() == 1);
    CHECK(operation.directives[0].name == "skip");

    REQUIRE(operation.selectionSet.size() == 1);
    const auto& main = operation.selectionSet[0];
    REQUIRE(main.kind == Selection::Kind::Field);
    CHECK(main.field.alias == "main");
    CHECK(main.field.name == "product");
    CHECK(main.field.responseKey() == "main");
    CHECK(location(main.field.location) == "2:3");
    REQUIRE(main.field.arguments.size() == 1);
    CHECK(main.field.arguments[0].name == "id");
    CHECK(show(main.field.arguments[0].value) == "$sku");
    CHECK(location(main.field.arguments[0].location) == "2:17");

    const auto& children = main.field.selectionSet;
    REQUIRE(children.size() == 4);
    CHECK(children[0].kind == Selection::Kind::Field);
    CHECK(children[0].field.responseKey() == "name");
    CHECK(children[0].field.alias.empty());
    CHECK(children[1].kind == Selection::Kind::FragmentSpread);
    CHECK(children[1].spread.name == "Details");
    CHECK(location(children[1].spread.location) == "4:5");
    REQUIRE(children[1].spread.directives.size() == 1);
    CHECK(children[1].spread.directives[0].name == "include");
    CHECK(show(children[1].spread.directives[0].arguments[0].value) == "Bool:true");
    CHECK(children[2].kind == Selection::Kind::InlineFragment);
    CHECK(children[2].inlineFragment.typeCondition == "Product");
    CHECK(children[2].inlineFragment.selectionSet.at(0).field.name == "brand");
    CHECK(children[3].kind == Selection::Kind::InlineFragment);
    CHECK(children[3].inlineFragment.typeCondition == "");
    CHECK(show(children[3].inlineFragment.directives.at(0).arguments.at(0).value) == "$flag");

    REQUIRE(document.fragments.size() == 1);
    CHECK(document.fragments[0].name == "Details");
    CHECK(document.fragments[0].typeCondition == "Product");
    CHECK(location(document.fragments[0].location) == "9:1");
    CHECK(document.fragments[0].selectionSet.at(0).field.name == "modelId");
}

TEST_CASE("Parser: values") {
    struct ValueCase {
        std::string literal;
        std::string shown;
    };
    const std::vector<ValueCase> cases{
        {"1", "Int:1"},
        {"-2.5e3", "Float:-2.5e3"},
        {"\"s\"", "\"s\""},
        {"\"\"\"  block\n  text\"\"\"", "\"  block\ntext\""},
        {"true", "Bool:true"},
        {"false", "Bool:false"},
        {"null", "null"},
        {"RED", "Enum:RED"},
        {"$v", "$v"},
        {"[]", "[]"},
        {"[1 [2, 3] {a: 4}]", "[Int:1 [Int:2 Int:3] {a:Int:4}]"},
        {"{b: \"x\", a: [$v], c: {}}", "{b:\"x\" a:[$v] c:{}}"},  // source order kept
    };
    for (const auto& c : cases) {
        CAPTURE(c.literal);
        Document document = parseOk("{ f(x: " + c.literal + ") }");
        CHECK(show(document.operations.at(0).selectionSet.at(0).field.arguments.at(0).value) == c.shown);
    }
}

TEST_CASE("Parser: shorthand and several operations") {
    Document document = parseOk("{ a } query Named { b } subscription { c } mutation M { d }");
    REQUIRE(document.operations.size() == 4);
    CHECK(document.operations[0].operation == "query");
    CHECK(document.operations[0].name == "");
    CHECK(document.operations[1].name == "Named");
    CHECK(document.operations[2].operation == "subscription");
    CHECK(document.operations[3].operation == "mutation");
    CHECK(document.operations[3].name == "M");
}

TEST_CASE("Parser: syntax errors with exact message and location") {
    struct ErrorCase {
        std::string source;
        std::string message;
        std::string at;
    };
    const std::vector<ErrorCase> cases{
        {"", "the document contains no operation", "1:1"},
        {"  # only a comment\n", "the document contains no operation", "2:1"},
        {"{ a", "offending token <EOF>, expected a name", "1:4"},
        {"{ }", "offending token '}', expected a name", "1:3"},
        {"{ a(b: ) }", "offending token ')', expected a value", "1:8"},
        {"{ a(b 1) }", "offending token '1', expected ':'", "1:7"},
        {"{ a(s: 1 \"y\") }", "offending token '\"y\"', expected a name", "1:10"},
        {"query Q($x Int) { a }", "offending token 'Int', expected ':'", "1:12"},
        {"query Q(x: Int) { a }", "offending token 'x', expected '$'", "1:9"},
        {"query ($v: Int = $w) { a }", "offending token '$', variables are not allowed here", "1:18"},
        {"query ($v: [Int) { a }", "offending token ')', expected ']'", "1:16"},
        {"query Q", "offending token <EOF>, expected '{'", "1:8"},
        {"fragment on on T { a }", "offending token 'on', expected a fragment name", "1:10"},
        {"fragment F T { a }", "offending token 'T', expected 'on'", "1:12"},
        {"fragment F on T", "offending token <EOF>, expected '{'", "1:16"},
        {"{ a }\n  { b } }", "offending token '}', expected an operation or fragment", "2:9"},
        {"{ a }}", "offending token '}', expected an operation or fragment", "1:6"},
        {"a { b }", "offending token 'a', expected an operation or fragment", "1:1"},
        {"{ ... on }", "offending token '}', expected a name", "1:10"},
        {"{ a @ }", "offending token '}', expected a name", "1:7"},
        {"{ a(x: [1, 2) }", "offending token ')', expected a value", "1:13"},
        {"{ a(x: [1", "offending token <EOF>, expected ']'", "1:10"},
        {"{ a(x: {k 1}) }", "offending token '1', expected ':'", "1:11"},
        // Lexer errors keep their own location.
        {"{ a ? }", "unexpected character '?'", "1:5"},
        {"{\n  a(s: \"abc\n\") }", "unterminated string", "2:12"},
        {"{ a(s: \"\\x\") }", "invalid character escape sequence", "1:9"},  // at the backslash, as graphql-js
        {"{ a(n: 01) }", "invalid number, unexpected digit after 0", "1:9"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.source);
        Parser parser(c.source);
        auto document = parser.parseDocument();
        REQUIRE_FALSE(document.ok());
        CHECK(document.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(document.error().message == c.message);
        CHECK(parser.lastError().message == c.message);
        CHECK(location(parser.lastError().location) == c.at);
    }
}

TEST_CASE("Parser: nesting is bounded, deep documents fail with an error instead of exhausting the stack") {
    auto nestedSelections = [](int depth) {
        std::string source;
        for (int i = 0; i < depth; ++i) source += "{a";
        for (int i = 0; i < depth; ++i) source += "}";
        return source;
    };
    SUBCASE("selection sets: the limit is exact") {
        // The parser reads a view of the source: keep the strings alive.
        const std::string atLimitSource = nestedSelections(Parser::kMaxNesting);
        const std::string overLimitSource = nestedSelections(Parser::kMaxNesting + 1);
        Parser atLimit(atLimitSource);
        CHECK(atLimit.parseDocument().ok());
        Parser overLimit(overLimitSource);
        auto document = overLimit.parseDocument();
        REQUIRE_FALSE(document.ok());
        CHECK(document.error().message == "document nesting is too deep");
    }
    struct DeepCase {
        const char* name;
        std::string source;
    };
    const int deep = 100000;
    const std::vector<DeepCase> cases{
        {"selection sets", nestedSelections(deep)},
        {"list values", "{ a(x: " + std::string(deep, '[') + std::string(deep, ']') + ") }"},
        {"object values", [&] {
             std::string source = "{ a(x: ";
             for (int i = 0; i < deep; ++i) source += "{k: ";
             return source + std::string(deep, '}') + ") }";
         }()},
        {"list types", "query ($v: " + std::string(deep, '[') + "Int" + std::string(deep, ']') + ") { a }"},
        {"unclosed selection sets", nestedSelections(deep).substr(0, 2 * deep)},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            Parser parser(c.source);
            auto document = parser.parseDocument();
            REQUIRE_FALSE(document.ok());
            CHECK(document.error().message == "document nesting is too deep");
        }
    }
}

TEST_CASE("parseTypeReference and TypeReference::toString round trip") {
    for (const std::string text : {"Int", "ID!", "[String]", "[String!]", "[String]!", "[[Int!]!]!"}) {
        CAPTURE(text);
        CHECK(svc::graphql::parseTypeReference(text).toString() == text);
    }
    auto type = svc::graphql::parseTypeReference("[Product!]!");
    CHECK(svc::graphql::namedType(type) == "Product");
    CHECK(type.kind == TypeReference::Kind::NonNull);
    CHECK(type.ofType->kind == TypeReference::Kind::List);
    CHECK(type.ofType->ofType->kind == TypeReference::Kind::NonNull);
    CHECK(type.ofType->ofType->ofType->kind == TypeReference::Kind::Named);
}
