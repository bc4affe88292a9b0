// Unit tests of graphql/Executor, with the test schema of GraphqlTestSchema.hpp and
// resolvers written here.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "GraphqlTestSchema.hpp"
#include "graphql/Executor.hpp"
#include "graphql/GraphqlError.hpp"
#include "graphql/Parser.hpp"

using svc::Error;
using svc::Result;
using svc::graphql::ArgumentValues;
using svc::graphql::ExecutionResult;
using svc::graphql::Executor;
using svc::graphql::ObjectPtr;
using svc::graphql::ObjectResolver;
using svc::graphql::Parser;
using svc::graphql::ResolvedValue;
using svc::graphql::testing::testSchema;

namespace {

struct CatalogEntry {
    std::string name;
    int64_t cents;
    std::vector<std::string> related;  // "" stands for a null entry
};

const std::map<std::string, CatalogEntry>& catalog() {
    static const std::map<std::string, CatalogEntry> entries{
        {"A", {"Jeans", 1999, {"B", ""}}},
        {"B", {"Shirt", 2500, {}}},
        {"C", {"Dress", 9900, {"A"}}},
    };
    return entries;
}

class PriceResolver : public ObjectResolver {
public:
    explicit PriceResolver(int64_t cents) : cents_(cents) {}
    std::string_view typeName() const override { return "Price"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "amount") return ResolvedValue::scalar(std::to_string(cents_ / 100) + "." + std::to_string(cents_ % 100));
        if (field == "cents") return ResolvedValue::scalar(cents_);
        return Error::internal("Price has no field " + field);
    }

private:
    int64_t cents_;
};

ObjectPtr productFor(const std::string& sku);

class ProductResolver : public ObjectResolver {
public:
    explicit ProductResolver(std::string sku) : sku_(std::move(sku)) {}
    std::string_view typeName() const override { return "Product"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        const CatalogEntry& entry = catalog().at(sku_);
        if (field == "sku") return ResolvedValue::scalar(sku_);
        if (field == "name") return ResolvedValue::scalar(entry.name);
        if (field == "price") return ResolvedValue::object(std::make_shared<PriceResolver>(entry.cents));
        if (field == "brokenName") return Error::notFound("name of " + sku_ + " is gone");
        if (field == "nullName") return ResolvedValue::null();
        if (field == "brokenNullable") return Error::unavailable("backend down for " + sku_);
        if (field == "related") {
            std::vector<ResolvedValue> items;
            for (const auto& sku : entry.related) items.push_back(ResolvedValue::object(productFor(sku)));
            return ResolvedValue::list(std::move(items));
        }
        return Error::internal("Product has no field " + field);
    }

private:
    std::string sku_;
};

ObjectPtr productFor(const std::string& sku) {
    if (!catalog().count(sku)) return nullptr;
    return std::make_shared<ProductResolver>(sku);
}

// The root; remembers the arguments each field was resolved with.
class QueryResolver : public ObjectResolver {
public:
    mutable std::vector<std::string> calls;  // "field(arguments as JSON)"

    std::string_view typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        calls.push_back(field + arguments.dump());
        if (field == "hello") return ResolvedValue::scalar("world");
        if (field == "count") return ResolvedValue::scalar(42);
        if (field == "sort") return ResolvedValue::scalar("PRICE");
        if (field == "tags") return ResolvedValue::list({ResolvedValue::scalar("new"), ResolvedValue::null(), ResolvedValue::scalar("sale")});
        if (field == "greet") {
            return ResolvedValue::scalar("Hello, " + arguments.at("name").get<std::string>() + arguments.at("punctuation").get<std::string>());
        }
        if (field == "product" || field == "requiredProduct") {
            return ResolvedValue::object(productFor(arguments.at("sku").get<std::string>()));
        }
        if (field == "node") {
            const auto& id = arguments.at("id");
            return ResolvedValue::object(productFor(id.is_string() ? id.get<std::string>() : id.dump()));
        }
        if (field == "products") {
            std::vector<ResolvedValue> items;
            int64_t first = arguments.at("first").get<int64_t>();
            for (const auto& [sku, entry] : catalog()) {
                if (static_cast<int64_t>(items.size()) >= first) break;
                items.push_back(ResolvedValue::object(productFor(sku)));
            }
            return ResolvedValue::list(std::move(items));
        }
        if (field == "maybeProducts") {
            return ResolvedValue::list({ResolvedValue::object(productFor("A")), ResolvedValue::null(), ResolvedValue::object(productFor("B"))});
        }
        if (field == "secret") return Error::permissionDenied("secret is secret");
        if (field == "echo") return ResolvedValue::scalar(arguments.dump());
        return Error::internal("Query has no field " + field);
    }
};

struct Run {
    ExecutionResult result;
    std::shared_ptr<QueryResolver> root;

    std::string data() const { return result.data; }
    // Each error as "message | errorType | path | line:column".
    std::vector<std::string> errors() const {
        std::vector<std::string> shown;
        for (const auto& error : result.errors) {
            std::string location;
            for (const auto& at : error.locations) location += std::to_string(at.line) + ":" + std::to_string(at.column);
            shown.push_back(error.message + " | " + error.errorType + " | " + (error.path ? error.path->dump() : "-") + " | " + location);
        }
        return shown;
    }
};

Run execute(const std::string& query, const nlohmann::json& variables = nlohmann::json::object(),
            const std::string& operationName = "") {
    Parser parser(query);
    auto document = parser.parseDocument();
    REQUIRE_MESSAGE(document.ok(), (document.ok() ? std::string() : document.error().message));
    Run run;
    run.root = std::make_shared<QueryResolver>();
    run.result = Executor(testSchema()).execute(*document, operationName, variables, run.root);
    return run;
}

using Errors = std::vector<std::string>;

}  // namespace

TEST_CASE("Executor: selections, aliases, fragments and __typename; key order follows the query") {
    struct DataCase {
        std::string query;
        std::string data;
        size_t errorCount = 0;
    };
    const std::vector<DataCase> cases{
        {"{ hello }", R"({"hello":"world"})"},
        {"{ b: hello a: hello hello }", R"({"b":"world","a":"world","hello":"world"})"},
        {"{ count hello }", R"({"count":42,"hello":"world"})"},
        {"{ product(sku: \"A\") { name sku } count }", R"({"product":{"name":"Jeans","sku":"A"},"count":42})"},
        {"{ product(sku: \"Z\") { name } }", R"({"product":null})"},
        {"{ first: product(sku: \"A\") { name } second: product(sku: \"B\") { name } }",
         R"({"first":{"name":"Jeans"},"second":{"name":"Shirt"}})"},
        // The same response key twice: one entry, the sub-selections merged in order.
        {"{ product(sku: \"A\") { sku } product(sku: \"A\") { name sku } }", R"({"product":{"sku":"A","name":"Jeans"}})"},
        {"{ product(sku: \"A\") { ...P sku } } fragment P on Product { name price { amount cents } }",
         R"({"product":{"name":"Jeans","price":{"amount":"19.99","cents":1999},"sku":"A"}})"},
        {"{ ...Root } fragment Root on Query { hello }", R"({"hello":"world"})"},
        // Inline fragments apply when the object's type matches, directly or through an interface.
        {"{ node(id: \"B\") { ... on Product { name } ... on Price { cents } ... { sku } ...N } } fragment N on Node { __typename }",
         R"({"node":{"name":"Shirt","sku":"B","__typename":"Product"}})"},
        {"{ product(sku: \"A\") { ...X } } fragment X on Price { cents }", R"({"product":{}})"},
        {"{ node(id: 7) { sku } }", R"({"node":null})"},  // ID given as an integer reaches the resolver as 7
        {"{ __typename product(sku: \"C\") { __typename t: __typename } }",
         R"({"__typename":"Query","product":{"__typename":"Product","t":"Product"}})"},
        {"{ sort tags }", R"({"sort":"PRICE","tags":["new",null,"sale"]})"},
        {"{ products { sku } }", R"({"products":[{"sku":"A"},{"sku":"B"}]})"},
        {"{ products(first: 3) { sku } }", R"({"products":[{"sku":"A"},{"sku":"B"},{"sku":"C"}]})"},
        {"{ product(sku: \"C\") { related { sku related { name } } } }", R"({"product":{"related":[{"sku":"A","related":null}]}})", 1},
        {"{ maybeProducts { name } }", R"({"maybeProducts":[{"name":"Jeans"},null,{"name":"Shirt"}]})"},
        {"{ greet(name: \"Ann\") }", R"({"greet":"Hello, Ann!"})"},
        {"{ greet(name: \"Ann\", punctuation: \"?\") }", R"({"greet":"Hello, Ann?"})"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        Run run = execute(c.query);
        CHECK(run.data() == c.data);
        CHECK(run.errors().size() == c.errorCount);
    }
}

TEST_CASE("Executor: @skip and @include with literals and variables") {
    struct DirectiveCase {
        std::string query;
        nlohmann::json variables;
        std::string data;
    };
    const std::string both = R"({"hello":"world","count":42})";
    const std::string countOnly = R"({"count":42})";
    const std::vector<DirectiveCase> cases{
        {"{ hello @skip(if: true) count }", {}, countOnly},
        {"{ hello @skip(if: false) count }", {}, both},
        {"{ hello @include(if: false) count }", {}, countOnly},
        {"{ hello @include(if: true) count }", {}, both},
        {"{ hello @include(if: true) @skip(if: true) count }", {}, countOnly},
        {"{ hello @include(if: false) @skip(if: false) count }", {}, countOnly},
        {"{ ...F @skip(if: true) count } fragment F on Query { hello }", {}, countOnly},
        {"{ ...F @include(if: true) count } fragment F on Query { hello }", {}, both},
        {"{ ... @include(if: false) { hello } count }", {}, countOnly},
        {"{ ... on Query @skip(if: false) { hello } count }", {}, both},
        {"query ($s: Boolean!) { hello @skip(if: $s) count }", {{"s", true}}, countOnly},
        {"query ($s: Boolean!) { hello @skip(if: $s) count }", {{"s", false}}, both},
        {"query ($i: Boolean = false) { hello @include(if: $i) count }", {}, countOnly},
        {"query ($i: Boolean = false) { hello @include(if: $i) count }", {{"i", true}}, both},
        // The same key, skipped in one place and included in another, is included.
        {"{ hello @skip(if: true) hello count }", {}, both},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        CAPTURE(c.variables.dump());
        Run run = execute(c.query, c.variables.is_null() ? nlohmann::json::object() : c.variables);
        CHECK(run.data() == c.data);
        CHECK(run.errors() == Errors{});
    }
}

TEST_CASE("Executor: a skipped field is not resolved at all") {
    Run run = execute("{ secret @skip(if: true) hello }");
    CHECK(run.data() == R"({"hello":"world"})");
    CHECK(run.root->calls == std::vector<std::string>{"hello{}"});
}

TEST_CASE("Executor: variables, their defaults and argument defaults reach the resolver") {
    struct ArgumentCase {
        std::string query;
        nlohmann::json variables;
        std::string call;  // what the resolver was called with
    };
    const std::vector<ArgumentCase> cases{
        {"query ($sku: String = \"B\") { product(sku: $sku) { name } }", nlohmann::json::object(), R"(product{"sku":"B"})"},
        {"query ($sku: String = \"B\") { product(sku: $sku) { name } }", {{"sku", "C"}}, R"(product{"sku":"C"})"},
        {"{ products { sku } }", nlohmann::json::object(), R"(products{"first":2})"},  // absent nullable `after` stays absent
        {"query ($n: Int) { products(first: $n) { sku } }", nlohmann::json::object(), R"(products{"first":2})"},
        {"query ($n: Int) { products(first: $n) { sku } }", {{"n", 1}}, R"(products{"first":1})"},
        {"{ greet(name: \"x\") }", nlohmann::json::object(), R"(greet{"name":"x","punctuation":"!"})"},
        {"{ echo(value: 1, ratio: 2, list: [1, 2], sort: NAME, filter: {brand: \"Acme\", limit: 4}) }", nlohmann::json::object(),
         R"(echo{"filter":{"brand":"Acme","limit":4},"list":[1,2],"ratio":2,"sort":"NAME","value":1})"},
        {"query ($f: Filter) { echo(filter: $f) }", {{"f", {{"brand", "B"}, {"limit", 5}}}}, R"(echo{"filter":{"brand":"B","limit":5}})"},
        {"{ echo(value: null) }", nlohmann::json::object(), R"(echo{"value":null})"},
        {"{ echo(ratio: 1.5) }", nlohmann::json::object(), R"(echo{"ratio":1.5})"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        Run run = execute(c.query, c.variables);
        CHECK(run.errors() == Errors{});
        REQUIRE(run.root->calls.size() >= 1);
        CHECK(run.root->calls.front() == c.call);
    }
}

// Regression test (bug found and fixed): graphql/Executor.cpp inputValueFits accepts a single value for a list type ("input
// coercion of a single item"), but neither coerceArguments nor coerceVariables wraps it:
// the resolver receives 4 instead of [4] (GraphQL spec 3.11, List input coercion).
TEST_CASE("Executor: a single value given for a list argument is coerced to a list of one") {
    Run literal = execute("{ echo(list: 4) }");
    CHECK(literal.data() == R"({"echo":"{\"list\":[4]}"})");
    Run variable = execute("query ($l: [Int]) { echo(list: $l) }", {{"l", 4}});
    CHECK(variable.data() == R"({"echo":"{\"list\":[4]}"})");
}

// Regression test (bug found and fixed): graphql/Executor.cpp applies no defaults inside input objects: inputValueFits skips
// a missing input field that has a default, but the value handed to the resolver lacks it, so
// echo(filter: {brand: "Acme"}) arrives as {"brand":"Acme"} instead of {"brand":"Acme","limit":3}
// (GraphQL spec 3.10, Input Object coercion).
TEST_CASE("Executor: input object fields get their defaults") {
    Run literal = execute("{ echo(filter: {brand: \"Acme\"}) }");
    CHECK(literal.data() == R"({"echo":"{\"filter\":{\"brand\":\"Acme\",\"limit\":3}}"})");
    Run variable = execute("query ($f: Filter) { echo(filter: $f) }", {{"f", {{"brand", "Acme"}}}});
    CHECK(variable.data() == R"({"echo":"{\"filter\":{\"brand\":\"Acme\",\"limit\":3}}"})");
}

TEST_CASE("Executor: a resolver error on a nullable field gives null and an error with path and errorType") {
    Run run = execute("{ secret hello }");
    CHECK(run.data() == R"({"secret":null,"hello":"world"})");
    CHECK(run.errors() == Errors{"secret is secret | Unauthorized | [\"secret\"] | 1:3"});
    // The response as sent: error members in the documented order.
    CHECK(run.result.toJsonText() ==
          R"({"data":{"secret":null,"hello":"world"},"errors":[{"path":["secret"],"data":null,"errorType":"Unauthorized",)"
          R"("errorInfo":null,"locations":[{"line":1,"column":3,"sourceName":null}],"message":"secret is secret","extensions":{"code":"UNAUTHENTICATED"}}]})");
}

TEST_CASE("Executor: errors inside lists carry the item index in their path") {
    Run run = execute("{ products(first: 2) {\n  sku\n  brokenNullable\n} }");
    CHECK(run.data() == R"({"products":[{"sku":"A","brokenNullable":null},{"sku":"B","brokenNullable":null}]})");
    CHECK(run.errors() == Errors{
                              "backend down for A | ServiceUnavailable | [\"products\",0,\"brokenNullable\"] | 3:3",
                              "backend down for B | ServiceUnavailable | [\"products\",1,\"brokenNullable\"] | 3:3",
                          });
}

TEST_CASE("Executor: an error on a non-null field nulls the nearest nullable parent") {
    SUBCASE("resolver error") {
        Run run = execute("{ product(sku: \"A\") { sku brokenName } hello }");
        CHECK(run.data() == R"({"product":null,"hello":"world"})");
        CHECK(run.errors() == Errors{"name of A is gone | NotFound | [\"product\",\"brokenName\"] | 1:27"});
    }
    SUBCASE("null from the resolver") {
        Run run = execute("{ product(sku: \"A\") { nullName } }");
        CHECK(run.data() == R"({"product":null})");
        CHECK(run.errors() ==
              Errors{"Cannot return null for non-nullable type: 'String' within parent | InternalFailure | [\"product\",\"nullName\"] | 1:23"});
    }
    SUBCASE("null item in a list of non-null items nulls the (nullable) list") {
        Run run = execute("{ product(sku: \"A\") { sku related { sku } } }");
        CHECK(run.data() == R"({"product":{"sku":"A","related":null}})");
        CHECK(run.errors() ==
              Errors{"Cannot return null for non-nullable type: 'Product' within parent | InternalFailure | [\"product\",\"related\",1] | 1:27"});
    }
    SUBCASE("a non-null root field nulls all data") {
        Run run = execute("{ hello requiredProduct(sku: \"Z\") { sku } }");
        CHECK(run.result.dataIsNull());
        CHECK(run.errors() ==
              Errors{"Cannot return null for non-nullable type: 'Product' within parent | InternalFailure | [\"requiredProduct\"] | 1:9"});
    }
    SUBCASE("through a non-null object up to the root") {
        Run run = execute("{ hello requiredProduct(sku: \"A\") { brokenName } }");
        CHECK(run.result.dataIsNull());
        REQUIRE_FALSE(run.errors().empty());
        CHECK(run.errors().front() == "name of A is gone | NotFound | [\"requiredProduct\",\"brokenName\"] | 1:37");
    }
}

// Regression test (bug found and fixed): graphql/Executor.cpp completeValue: when a non-null field's value is an object (or a
// list) that became null because a non-null child failed, the object/list branch swallows the
// child's propagation flag, so the enclosing NonNull branch adds a second error "Cannot return
// null for non-nullable type: 'Product' within parent" for a null that was already reported.
// The GraphQL spec (6.4.4) allows only one error per field error.
TEST_CASE("Executor: a propagated null adds no second error") {
    Run run = execute("{ hello requiredProduct(sku: \"A\") { brokenName } }");
    CHECK(run.result.dataIsNull());
    CHECK(run.errors() == Errors{"name of A is gone | NotFound | [\"requiredProduct\",\"brokenName\"] | 1:37"});
    Run list = execute("{ products(first: 1) { brokenName } }");
    CHECK(list.result.dataIsNull());
    CHECK(list.errors() == Errors{"name of A is gone | NotFound | [\"products\",0,\"brokenName\"] | 1:24"});
}

TEST_CASE("Executor: invalid variables stop the request before execution") {
    struct VariableCase {
        std::string type;
        nlohmann::json variables;
        std::string message;
    };
    const std::vector<VariableCase> cases{
        {"Int!", nlohmann::json::object(), "Variable 'v' has an invalid value: it is required and was not provided"},
        {"Int!", {{"v", nullptr}}, "Variable 'v' has an invalid value: null for non-null type Int!"},
        {"Int", {{"v", "x"}}, "Variable 'v' has an invalid value: Int cannot represent \"x\""},
        {"Int", {{"v", 1.5}}, "Variable 'v' has an invalid value: Int cannot represent 1.5"},
        {"Int", {{"v", 3000000000LL}}, "Variable 'v' has an invalid value: Int cannot represent 3000000000"},
        {"Float", {{"v", "1"}}, "Variable 'v' has an invalid value: Float cannot represent \"1\""},
        {"String", {{"v", 1}}, "Variable 'v' has an invalid value: String cannot represent 1"},
        {"Boolean", {{"v", "true"}}, "Variable 'v' has an invalid value: Boolean cannot represent \"true\""},
        {"ID", {{"v", 1.5}}, "Variable 'v' has an invalid value: ID cannot represent 1.5"},
        {"Sort", {{"v", "SIZE"}}, "Variable 'v' has an invalid value: value \"SIZE\" is not in enum Sort"},
        {"[Int!]", {{"v", {1, nullptr}}}, "Variable 'v' has an invalid value: null for non-null type Int!"},
        {"Filter", {{"v", 5}}, "Variable 'v' has an invalid value: Filter must be an object"},
        {"Filter", {{"v", {{"limit", 1}}}}, "Variable 'v' has an invalid value: field 'brand': null for non-null type String!"},
        {"Filter", {{"v", {{"brand", "x"}, {"color", "y"}}}}, "Variable 'v' has an invalid value: field 'color' is not defined by type Filter"},
        {"Filter", {{"v", {{"brand", "x"}, {"limit", "many"}}}}, "Variable 'v' has an invalid value: field 'limit': Int cannot represent \"many\""},
        {"Nope", {{"v", 1}}, "Variable 'v' has an invalid value: unknown type Nope"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.type);
        CAPTURE(c.variables.dump());
        Run run = execute("query ($v: " + c.type + ") { count }", c.variables);
        CHECK(run.result.dataIsNull());
        CHECK(run.errors() == Errors{c.message + " | ValidationError | - | 1:8"});
        CHECK(run.root->calls.empty());
    }
}

TEST_CASE("Executor: valid variables of every kind are accepted") {
    struct VariableCase {
        std::string type;
        nlohmann::json value;
    };
    const std::vector<VariableCase> cases{
        {"Int", 2147483647}, {"Int", -2147483648LL}, {"Int", nullptr}, {"Float", 1}, {"Float", 1.5}, {"String", "s"},
        {"Boolean", false}, {"ID", "x"}, {"ID", 7}, {"Sort", "NAME"}, {"[Int!]", {1, 2}}, {"[Int]", {1, nullptr}},
        {"Filter", {{"brand", "x"}}}, {"Filter!", {{"brand", "x"}, {"limit", nullptr}}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.type);
        CAPTURE(c.value.dump());
        Run run = execute("query ($v: " + c.type + ") { count }", {{"v", c.value}});
        CHECK(run.data() == R"({"count":42})");
        CHECK(run.errors() == Errors{});
    }
}

TEST_CASE("Executor: an argument of the wrong type is a field error") {
    SUBCASE("on a nullable field") {
        Run run = execute("{ product(sku: 5) { sku } hello }");
        CHECK(run.data() == R"({"product":null,"hello":"world"})");
        CHECK(run.errors() ==
              Errors{"Validation error of type WrongType: argument 'sku': String cannot represent 5 | ValidationError | [\"product\"] | 1:3"});
    }
    SUBCASE("a missing required argument of a non-null field nulls the data") {
        Run run = execute("{ greet }");
        CHECK(run.result.dataIsNull());
        CHECK(run.errors() ==
              Errors{"Validation error of type WrongType: argument 'name' of type String! is required | ValidationError | [\"greet\"] | 1:3"});
        CHECK(run.root->calls.empty());
    }
    SUBCASE("an enum value that is not in the enum") {
        Run run = execute("{ echo(sort: SIZE) }");
        CHECK(run.data() == R"({"echo":null})");
        CHECK(run.errors() ==
              Errors{"Validation error of type WrongType: argument 'sort': value \"SIZE\" is not in enum Sort | ValidationError | [\"echo\"] | 1:3"});
    }
}

TEST_CASE("Executor: choosing the operation") {
    const std::string twoOperations = "query A { hello } query B { count }";
    SUBCASE("by name") {
        CHECK(execute(twoOperations, nlohmann::json::object(), "B").data() == R"({"count":42})");
        CHECK(execute(twoOperations, nlohmann::json::object(), "A").data() == R"({"hello":"world"})");
    }
    struct OperationCase {
        std::string query;
        std::string name;
        std::string message;
    };
    const std::vector<OperationCase> cases{
        {twoOperations, "", "Must provide operation name if query contains multiple operations | ValidationError | - | "},
        {twoOperations, "C", "Unknown operation named 'C' | ValidationError | - | "},
        {"{ hello }", "X", "Unknown operation named 'X' | ValidationError | - | "},
    };
    for (const auto& c : cases) {
        CAPTURE(c.query);
        CAPTURE(c.name);
        Run run = execute(c.query, nlohmann::json::object(), c.name);
        CHECK(run.result.dataIsNull());
        CHECK(run.errors() == Errors{c.message});
        CHECK(run.result.toJsonText().find("\"data\":null") == 1);
    }
}

TEST_CASE("ExecutionResult::toJsonText leaves out errors when there are none") {
    CHECK(execute("{ hello }").result.toJsonText() == R"({"data":{"hello":"world"}})");
}

TEST_CASE("errorTypeFor maps every ErrorCode") {
    using svc::ErrorCode;
    const std::vector<std::pair<ErrorCode, std::string>> cases{
        {ErrorCode::InvalidArgument, "BadRequest"},   {ErrorCode::NotFound, "NotFound"},
        {ErrorCode::Unauthenticated, "Unauthorized"}, {ErrorCode::PermissionDenied, "Unauthorized"},
        {ErrorCode::AlreadyExists, "Conflict"},       {ErrorCode::ResourceExhausted, "LimitExceeded"},
        {ErrorCode::Unavailable, "ServiceUnavailable"}, {ErrorCode::Internal, "InternalFailure"},
    };
    for (const auto& [code, type] : cases) {
        CAPTURE(type);
        CHECK(svc::graphql::errorTypeFor(code) == type);
    }
}

namespace {

// Objects of two types behind one interface, for selection sets completed for more than one type.
class NamedThing : public ObjectResolver {
public:
    NamedThing(std::string type, std::string id) : type_(std::move(type)), id_(std::move(id)) {}
    std::string_view typeName() const override { return type_; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "id") return ResolvedValue::scalar(id_);
        if (field == "onlyA") return ResolvedValue::scalar("a-" + id_);
        if (field == "onlyB") return ResolvedValue::scalar("b-" + id_);
        return Error::internal("no field " + field);
    }

private:
    std::string type_, id_;
};

class ThingsRoot : public ObjectResolver {
public:
    std::string_view typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string&, const ArgumentValues&) const override {
        std::vector<ResolvedValue> things;
        for (const auto& [type, id] : std::vector<std::pair<std::string, std::string>>{{"A", "1"}, {"B", "2"}, {"A", "3"}}) {
            things.push_back(ResolvedValue::object(std::make_shared<NamedThing>(type, id)));
        }
        return ResolvedValue::list(std::move(things));
    }
};

}  // namespace

// The executor collects a selection set's fields once per run and object type; a list whose
// items differ in type must still get each type's own fields.
TEST_CASE("Executor: one selection set completed for objects of different types") {
    using namespace svc::graphql;
    Schema schema;
    schema.addType(objectType("Query", {fieldDef("things", "[Thing!]!")}));
    TypeDefinition thing = objectType("Thing", {fieldDef("id", "ID!")});
    thing.kind = TypeDefinition::Kind::Interface;
    thing.possibleTypes = {"A", "B"};
    schema.addType(thing);
    for (const std::string& name : {"A", "B"}) {
        TypeDefinition type = objectType(name, {fieldDef("id", "ID!"), fieldDef("only" + name, "String")});
        type.interfaces = {"Thing"};
        schema.addType(type);
    }
    Parser parser("{ things { __typename id ... on A { onlyA } ... on B { onlyB } } }");
    auto document = parser.parseDocument();
    REQUIRE(document.ok());
    auto result = Executor(schema).execute(*document, "", nlohmann::json::object(), std::make_shared<ThingsRoot>());
    CHECK(result.errors.empty());
    CHECK(result.data ==
          R"({"things":[{"__typename":"A","id":"1","onlyA":"a-1"},{"__typename":"B","id":"2","onlyB":"b-2"},)"
          R"({"__typename":"A","id":"3","onlyA":"a-3"}]})");
}
