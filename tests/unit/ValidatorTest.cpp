// Unit tests of graphql/Validator against the test schema of GraphqlTestSchema.hpp.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "GraphqlTestSchema.hpp"
#include "graphql/Parser.hpp"
#include "graphql/Validator.hpp"

using svc::graphql::GraphqlError;
using svc::graphql::Parser;
using svc::graphql::Validator;
using svc::graphql::testing::testSchema;

namespace {

// Each error as "<message> (line:column)".
std::vector<std::string> validate(const std::string& query) {
    Parser parser(query);
    auto document = parser.parseDocument();
    REQUIRE_MESSAGE(document.ok(), (document.ok() ? std::string() : document.error().message));
    std::vector<std::string> shown;
    for (const GraphqlError& error : Validator(testSchema()).validate(*document)) {
        CHECK(error.errorType == "ValidationError");
        CHECK_FALSE(error.path.has_value());
        REQUIRE(!error.locations.empty());
        std::string where;
        for (const auto& location : error.locations) {
            where += (where.empty() ? "" : " ") + std::to_string(location.line) + ":" + std::to_string(location.column);
        }
        shown.push_back(error.message + " (" + where + ")");
    }
    return shown;
}

}  // namespace

TEST_CASE("Validator: valid documents give no errors") {
    const std::vector<std::string> valid{
        "{ hello }",
        "{ __typename hello count sort tags }",
        "{ a: hello b: hello }",
        "{ product(sku: \"A\") { sku name price { amount cents } related { sku } } }",
        "query Q($s: String!) { product(sku: $s) { ...P } } fragment P on Product { name }",
        "query ($s: String!) { ...Root } fragment Root on Query { product(sku: $s) { sku } }",  // used inside a fragment
        "query ($b: Boolean!) { hello @skip(if: $b) count @include(if: true) }",
        "{ node(id: 1) { sku ... on Product { name } } }",
        "{ greet(name: \"x\") }",                        // punctuation has a default
        "{ products { sku } }",                           // every argument optional
        "query ($f: Filter, $l: [Int], $s: Sort) { echo(filter: $f, list: $l, sort: $s) }",
        "query A { hello } query B { count }",
    };
    for (const auto& query : valid) {
        CAPTURE(query);
        CHECK(validate(query) == std::vector<std::string>{});
    }
}

TEST_CASE("Validator: each error type with its exact message and location") {
    struct ErrorCase {
        std::string query;
        std::vector<std::string> errors;
    };
    const std::vector<ErrorCase> cases{
        {"{ foo }", {"Validation error of type FieldUndefined: Field 'foo' in type 'Query' is undefined @ 'foo' (1:3)"}},
        {"{ product(sku: \"A\") { bogus } }",
         {"Validation error of type FieldUndefined: Field 'bogus' in type 'Product' is undefined @ 'product/bogus' (1:23)"}},
        {"{ p: product(sku: \"A\") {\n  x: nope } }",
         {"Validation error of type FieldUndefined: Field 'nope' in type 'Product' is undefined @ 'p/x' (2:3)"}},
        {"{ product { sku } }",
         {"Validation error of type MissingFieldArgument: Missing field argument sku @ 'product' (1:3)"}},
        {"{ greet(punctuation: \"?\") }",
         {"Validation error of type MissingFieldArgument: Missing field argument name @ 'greet' (1:3)"}},
        {"{ hello(x: 1) }", {"Validation error of type UnknownArgument: Unknown field argument x @ 'hello' (1:9)"}},
        {"{ product(sku: \"A\", sku: \"B\") { sku } }",
         {"Validation error of type DuplicateArgumentNames: There can be only one argument named sku @ 'product' (1:11 1:21)"}},
        {"{ product(sku: \"A\") }",
         {"Validation error of type SubSelectionRequired: Sub selection required for type Product of field product @ 'product' (1:3)"}},
        {"{ products }",
         {"Validation error of type SubSelectionRequired: Sub selection required for type [Product!]! of field products @ 'products' (1:3)"}},
        {"{ hello { x } }",
         {"Validation error of type SubSelectionNotAllowed: Sub selection not allowed on leaf type String of field hello @ 'hello' (1:9)"}},
        {"{ product(sku: \"A\") { sku { x } } }",
         {"Validation error of type SubSelectionNotAllowed: Sub selection not allowed on leaf type ID! of field sku @ 'product/sku' (1:27)"}},
        {"{ __typename { x } }",
         {"Validation error of type SubSelectionNotAllowed: Sub selection not allowed on leaf type String! of field __typename @ '__typename' (1:14)"}},
        {"{ ...F }", {"Validation error of type UndefinedFragment: Undefined fragment F (1:6)"}},
        {"{ product(sku: \"A\") { ...Missing } }",
         {"Validation error of type UndefinedFragment: Undefined fragment Missing @ 'product' (1:26)"}},
        {"{ ... on Nope { hello } }", {"Validation error of type UnknownType: Unknown type Nope (1:10)"}},
        {"{ ...F } fragment F on Nope { hello }", {"Validation error of type UnknownType: Unknown type Nope (1:24)"}},
        {"query ($v: Nope) { hello }",
         {"Validation error of type UnknownType: Unknown type Nope (1:8)", "Validation error of type UnusedVariable: Unused variable v (1:8)"}},
        {"query ($p: Product) { node(id: $p) { sku } }",
         {"Validation error of type NonInputTypeOnVariable: Input variable p type Product is not an input type (1:8)",
          "Validation error of type VariableTypeMismatch: Variable type 'Product' doesn't match expected type 'ID!' (1:8 1:32)"}},
        {"{ product(sku: $s) { sku } }", {"Validation error of type UndefinedVariable: Undefined variable s (1:16 1:1)"}},
        {"{ echo(list: [1, $x], filter: {brand: $y}) }",
         {"Validation error of type UndefinedVariable: Undefined variable x (1:18 1:1)",
          "Validation error of type UndefinedVariable: Undefined variable y (1:39 1:1)"}},
        {"query Q($s: String!, $unused: Int) { product(sku: $s) { sku } }",
         {"Validation error of type UnusedVariable: Unused variable unused (1:22)"}},
        {"{ hello @foo }", {"Validation error of type UnknownDirective: Unknown directive foo @ 'hello' (1:9)"}},
        {"{ hello @skip }", {"Validation error of type MissingDirectiveArgument: Missing directive argument if @ 'hello' (1:9)"}},
        {"{ hello @include(if: true, unless: false) }",
         {"Validation error of type UnknownDirective: Unknown directive argument unless @ 'hello' (1:28)"}},
        {"{ hello } query Q { count }",
         {"Validation error of type LoneAnonymousOperation: Anonymous operation with other operations (1:1)"}},
        {"query Q { hello }\nquery Q { count }",
         {"Validation error of type DuplicateOperationName: There can be only one operation named 'Q' (1:7 2:7)"}},
        {"mutation { hello }",
         {"Validation error of type UnknownOperation: The schema does not support operation type 'mutation' (1:1)"}},
        {"{ hello } fragment F on Query { count }", {"Validation error of type UnusedFragment: Unused fragment F (1:11)"}},
        {"{ ...F } fragment F on Query { count } fragment F on Query { hello }",
         {"Validation error of type DuplicateFragmentName: There can be only one fragment named 'F' (1:19 1:49)"}},
        // ValuesOfCorrectType: literals of the argument's type, also in lists, input objects and defaults.
        {"{ echo(value: \"3\") }",
         {"Validation error of type WrongType: argument 'value' with value '\"3\"' is not a valid 'Int' @ 'echo' (1:15)"}},
        {"{ echo(value: 3000000000) }",
         {"Validation error of type WrongType: argument 'value' with value '3000000000' is not a valid 'Int' @ 'echo' (1:15)"}},
        {"{ echo(ratio: 1, list: 2, sort: PRICE, filter: {brand: \"b\"}) }", {}},
        {"{ echo(list: [1, 1.5]) }",
         {"Validation error of type WrongType: argument 'list' with value '1.5' is not a valid 'Int' @ 'echo' (1:18)"}},  // at the item
        {"{ echo(sort: SIZE) }", {"Validation error of type WrongType: argument 'sort' with value 'SIZE' is not a valid 'Sort' @ 'echo' (1:14)"}},
        {"{ echo(filter: {limit: 1}) }",
         {"Validation error of type WrongType: argument 'filter' with field 'brand' of type 'Filter' is required @ 'echo' (1:16)"}},
        {"{ echo(filter: {brand: \"b\", size: 1}) }",
         {"Validation error of type WrongType: argument 'filter' with field 'size' is not defined by type 'Filter' @ 'echo' (1:29)"}},  // at the field
        // Every problem of an input object, each where it is; a repeated field names both places.
        {"{ echo(list: [1.5, true], filter: {size: 1, brand: 2, brand: \"b\"}) }",
         {"Validation error of type WrongType: argument 'list' with value '1.5' is not a valid 'Int' @ 'echo' (1:15)",
          "Validation error of type WrongType: argument 'list' with value 'true' is not a valid 'Int' @ 'echo' (1:20)",
          "Validation error of type WrongType: argument 'filter' with field 'size' is not defined by type 'Filter' @ 'echo' (1:36)",
          "Validation error of type WrongType: argument 'filter' with value '2' is not a valid 'String' @ 'echo' (1:52)",
          "Validation error of type DuplicateInputField: There can be only one input field named 'brand' @ 'echo' (1:45 1:55)"}},
        {"{ product(sku: null) { sku } }",
         {"Validation error of type WrongType: argument 'sku' with null is not a valid 'String!' @ 'product' (1:16)"}},
        {"{ hello @include(if: \"yes\") }",
         {"Validation error of type WrongType: argument 'if' with value '\"yes\"' is not a valid 'Boolean' @ 'hello' (1:22)"}},
        {"query ($n: Int = \"four\") { echo(value: $n) }",
         {"Validation error of type WrongType: variable 'n' default value: value '\"four\"' is not a valid 'Int' (1:18)"}},
        // VariablesInAllowedPosition; a default (the variable's or the argument's) lets a nullable variable through.
        {"query ($s: String) { product(sku: $s) { sku } }",
         {"Validation error of type VariableTypeMismatch: Variable type 'String' doesn't match expected type 'String!' (1:8 1:35)"}},
        {"query ($s: String = \"A\") { product(sku: $s) { sku } }", {}},
        {"query ($n: String) { products(first: $n) { sku } }",
         {"Validation error of type VariableTypeMismatch: Variable type 'String' doesn't match expected type 'Int' (1:8 1:38)"}},
        {"query ($n: Int!, $l: [Int!]!) { echo(value: $n, list: $l) }", {}},
        {"query ($b: String) { echo(filter: {brand: $b}) }",
         {"Validation error of type VariableTypeMismatch: Variable type 'String' doesn't match expected type 'String!' (1:8 1:43)"}},
        // Unique names and directives in their places.
        {"query ($n: Int, $n: Int) { echo(value: $n) }",
         {"Validation error of type DuplicateVariableName: There can be only one variable named n (1:9 1:18)"}},
        {"{ hello @skip(if: false) @skip(if: true) }",
         {"Validation error of type DuplicateDirectiveName: Directive skip may only be used once per location @ 'hello' (1:9 1:26)"}},
        {"query @skip(if: true) { hello }", {"Validation error of type MisplacedDirective: Directive skip not allowed here (1:7)"}},
        {"{ ...F } fragment F on Query @include(if: true) { hello }",
         {"Validation error of type MisplacedDirective: Directive include not allowed here (1:30)"}},
        // Fragments: on composite types, and only where the object can be of their type.
        {"{ product(sku: \"A\") { ...F } } fragment F on Price { cents }",
         {"Validation error of type InvalidFragmentType: Fragment F cannot be spread here as objects of type Product can never be of type Price @ 'product' (1:23)"}},
        {"{ product(sku: \"A\") { ... on Price { cents } } }",
         {"Validation error of type InvalidFragmentType: Fragment cannot be spread here as objects of type Product can never be of type Price @ 'product' (1:23)"}},
        {"{ node(id: \"A\") { ... on Product { name } ...P } } fragment P on Product { sku }", {}},
        {"{ ...F } fragment F on String { length }",
         {"Validation error of type InvalidFragmentType: Fragment F cannot condition on non composite type String (1:24)"}},
        {"{ ... on String { length } }",
         {"Validation error of type InlineFragmentTypeConditionInvalid: Fragment cannot condition on non composite type String (1:10)"}},
        // OverlappingFieldsCanBeMerged: one response key, one field with one set of arguments;
        // sub-selections of the same field merge, also across fragments.
        {"{ hello: count hello }",
         {"Validation error of type FieldsConflict: hello: count and hello are different fields (1:3 1:16)"}},
        {"{ products(first: 1) { sku } products(first: 2) { sku } }",
         {"Validation error of type FieldsConflict: products: they have differing arguments (1:3 1:30)"}},
        {"{ product(sku: \"A\") { name } ...F } fragment F on Query { product(sku: \"A\") { name: sku } }",
         {"Validation error of type FieldsConflict: product: subfields name: name and sku are different fields (1:3 1:23 1:59 1:79)"}},
        {"{ product(sku: \"A\") { name } product(sku: \"A\") { sku } a: greet(name: \"x\") a: greet(name: \"x\") }", {}},
        // A fragment cycle with fields under it: conflict checks end (a fuzzer found them nesting without end).
        {"{ ...A } fragment A on Query { products { sku ...B } ...A } fragment B on Query { products { name } }",
         {"Validation error of type InvalidFragmentType: Fragment B cannot be spread here as objects of type Product can never be of type Query @ 'products' (1:47)",
          "Validation error of type FragmentCycle: Fragment cycles not allowed (1:54)"}},
        // Several errors in one document, in document order.
        {"{ foo product { bar } }",
         {"Validation error of type FieldUndefined: Field 'foo' in type 'Query' is undefined @ 'foo' (1:3)",
          "Validation error of type MissingFieldArgument: Missing field argument sku @ 'product' (1:7)",
          "Validation error of type FieldUndefined: Field 'bar' in type 'Product' is undefined @ 'product/bar' (1:17)"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        CHECK(validate(c.query) == c.errors);
    }
}

TEST_CASE("Validator: a fragment spread is checked against the fragment's type where it is used") {
    CHECK(validate("{ product(sku: \"A\") { ...P } } fragment P on Product { name nope }") ==
          std::vector<std::string>{
              "Validation error of type FieldUndefined: Field 'nope' in type 'Product' is undefined @ 'product/nope' (1:61)"});
}

TEST_CASE("Validator: a fragment that spreads itself terminates") {
    // Whatever is reported, validation must return rather than recurse forever.
    std::vector<std::string> errors = validate("{ ...A } fragment A on Query { hello ...B } fragment B on Query { ...A }");
    for (const auto& error : errors) CHECK(error.find("Validation error of type") == 0);
}

// Regression test (bug found and fixed): graphql/Validator.cpp does not report fragment cycles (the GraphQL rule "Fragments
// must not form cycles"): "{ ...A } fragment A on Query { hello ...A }" validates with no
// error, and graphql/Executor.cpp collectFields then follows the spread forever and crashes
// the process with a stack overflow (SIGSEGV). A hostile query kills svc-server.
TEST_CASE("Validator: fragment cycles are refused") {
    for (const std::string query : {"{ ...A } fragment A on Query { hello ...A }",
                                    "{ ...A } fragment A on Query { ...B } fragment B on Query { hello ...A }",
                                    "{ product(sku: \"A\") { ...P } } fragment P on Product { related { ...P } ... on Product { ...P } }"}) {
        CAPTURE(query);
        CHECK_FALSE(validate(query).empty());
    }
}
