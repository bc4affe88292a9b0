// Unit tests of graphql/GraphqlService with svc's content schema (graphql/ContentSchema),
// over an in-memory CatalogStore double.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <optional>
#include <string>
#include <vector>

#include "ContentTestSupport.hpp"
#include "graphql/Cursor.hpp"
#include "graphql/GraphqlService.hpp"

using svc::RecommendationService;
using svc::Tenant;
using svc::graphql::GraphqlRequest;
using svc::graphql::GraphqlResponse;
using svc::graphql::GraphqlService;
using svc::testing::ProductContentSource;
using svc::testing::makeProduct;

namespace {

ProductContentSource contentStore() {
    ProductContentSource store;
    auto& products = store.products[1];
    auto withLook = [](svc::Product product, std::string color, std::string brand, std::string model) {
        product.color = std::move(color);
        product.brand = std::move(brand);
        product.model = std::move(model);
        return product;
    };
    products.push_back(withLook(makeProduct("A-S", "A", "Women > Jeans", 5000), "Blue", "Acme", "M-A"));
    products.push_back(withLook(makeProduct("B-S", "B", "Women > Jeans", 5000), "Blue", "Acme", "M-B"));  // score 8
    products.push_back(withLook(makeProduct("C-S", "C", "Women > Jeans", 5000), "Red", "Acme", "M-C"));   // score 6
    products.push_back(withLook(makeProduct("D-S", "D", "Women > Jeans", 5000), "Red", "Other", "M-D"));  // score 5
    products.push_back(withLook(makeProduct("E-S", "E", "Men > Shirts", 5000), "Blue", "Acme", "M-E"));   // other category
    products.push_back(withLook(makeProduct("F-S", "F", "Women > Jeans", 5000, 0), "Blue", "", ""));      // sold out
    return store;
}

Tenant tenant() {
    Tenant t;
    t.id = 1;
    return t;
}

GraphqlResponse run(ProductContentSource& store, const std::string& query, const nlohmann::json& variables = nlohmann::json::object(),
                    bool authorised = true) {
    RecommendationService recommendations(store);
    GraphqlService service(recommendations, svc::testing::testCursors());
    GraphqlRequest request;
    request.query = query;
    request.variables = variables;
    return service.execute(request, authorised ? std::optional<Tenant>(tenant()) : std::nullopt);
}

// Cursors of product A's similar products for tenant 1, as the service issues them.
std::string cursor(size_t index) { return svc::testing::testCursors().encode(index, {"similarProducts", "tenant 1 Product A"}); }

}  // namespace

TEST_CASE("GraphqlService::parseRequestBody reads query, operationName and variables") {
    auto full = GraphqlService::parseRequestBody(R"({"query":"{ a }","operationName":"Op","variables":{"x":1}})");
    REQUIRE(full.ok());
    CHECK(full->query == "{ a }");
    CHECK(full->operationName == "Op");
    CHECK(full->variables == nlohmann::json{{"x", 1}});
    auto minimal = GraphqlService::parseRequestBody(R"({"query":"{ a }","operationName":null,"variables":null})");
    REQUIRE(minimal.ok());
    CHECK(minimal->operationName == "");
    CHECK(minimal->variables == nlohmann::json::object());

    struct BodyCase {
        std::string body;
        std::string message;
    };
    const std::vector<BodyCase> cases{
        {"", "body: line 1, column 1: not valid JSON (syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal)"},
        {"{query}", "body: line 1, column 2: not valid JSON (syntax error while parsing object key - invalid literal)"},
        {"[]", "body: must be a JSON object"},
        {R"("{ a }")", "body: must be a JSON object"},
        {"{}", "query: must be a string"},
        {R"({"query":null})", "query: must be a string"},
        {R"({"query":{"a":1}})", "query: must be a string"},
        {R"({"query":"{ a }","operationName":5})", "operationName: must be a string or null"},
        {R"({"query":"{ a }","variables":[1]})", "variables: must be an object or null"},
        {R"({"query":"{ a }","variables":"{}"})", "variables: must be an object or null"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body);
        auto request = GraphqlService::parseRequestBody(c.body);
        REQUIRE_FALSE(request.ok());
        CHECK(request.error().code == svc::ErrorCode::InvalidArgument);
        CHECK(request.error().message == c.message);
    }
}

TEST_CASE("GraphqlService::execute: syntax and validation errors are document errors") {
    ProductContentSource store = contentStore();
    SUBCASE("syntax error") {
        GraphqlResponse response = run(store, "{ product(id: \"A\") { id }");
        CHECK(response.outcome == GraphqlResponse::Outcome::InvalidDocument);
        CHECK(response.body ==
              R"({"data":null,"errors":[{"path":null,"data":null,"errorType":"InvalidSyntax","errorInfo":null,)"
              R"("locations":[{"line":1,"column":26,"sourceName":null}],"message":"Invalid Syntax : offending token <EOF>, expected a name","extensions":{"code":"GRAPHQL_PARSE_FAILED"}}],"extensions":{"version":"2.3.0"}})");
    }
    SUBCASE("validation errors, all of them") {
        GraphqlResponse response = run(store, "{ product { nope } shop }");
        CHECK(response.outcome == GraphqlResponse::Outcome::InvalidDocument);
        CHECK(response.json()["data"].is_null());
        std::vector<std::string> messages;
        auto body = response.json();
        for (const auto& error : body["errors"]) {
            CHECK(error["errorType"] == "ValidationError");
            messages.push_back(error["message"].get<std::string>());
        }
        CHECK(messages == std::vector<std::string>{
                              "Validation error of type MissingFieldArgument: Missing field argument id @ 'product'",
                              "Validation error of type FieldUndefined: Field 'nope' in type 'Product' is undefined @ 'product/nope'",
                              "Validation error of type FieldUndefined: Field 'shop' in type 'Query' is undefined @ 'shop'",
                          });
        CHECK(store.calls.empty());
    }
}

TEST_CASE("GraphqlService::execute without a tenant: every field is Unauthorized") {
    ProductContentSource store = contentStore();
    GraphqlResponse response = run(store, "{ product(id: \"A\") { id } }", nlohmann::json::object(), false);
    CHECK(response.outcome == GraphqlResponse::Outcome::Executed);
    CHECK(response.body ==
          R"({"data":{"product":null},"errors":[{"path":["product"],"data":null,"errorType":"Unauthorized","errorInfo":null,)"
          R"("locations":[{"line":1,"column":3,"sourceName":null}],"message":"Not Authorized to access product on type Query","extensions":{"code":"UNAUTHENTICATED"}}],"extensions":{"version":"2.3.0"}})");
    CHECK(store.calls.empty());
}

TEST_CASE("GraphqlService::execute: a product and its similar products, page by page") {
    ProductContentSource store = contentStore();
    const std::string query =
        "query ($id: ID!, $after: String) { product(id: $id) { id name brand modelId url "
        "similarProducts(first: 2, after: $after) { edges { cursor node { id name } } pageInfo { endCursor hasNextPage } } } }";
    GraphqlResponse first = run(store, query, {{"id", "A-S"}});
    CHECK(first.outcome == GraphqlResponse::Outcome::Executed);
    CHECK(first.body ==
          R"({"data":{"product":{"id":"A","name":"Name of A","brand":"Acme","modelId":"M-A","url":"https://shop.example/A",)"
          R"("similarProducts":{"edges":[{"cursor":")" + cursor(0) + R"(","node":{"id":"B","name":"Name of B"}},)"
          R"({"cursor":")" + cursor(1) + R"(","node":{"id":"C","name":"Name of C"}}],)"
          R"("pageInfo":{"endCursor":")" + cursor(1) + R"(","hasNextPage":true}}}},"extensions":{"version":"2.3.0"}})");

    GraphqlResponse second = run(store, query, {{"id", "A"}, {"after", cursor(1)}});
    CHECK(second.json()["data"]["product"]["similarProducts"].dump() ==
          R"({"edges":[{"cursor":")" + cursor(2) + R"(","node":{"id":"D","name":"Name of D"}}],"pageInfo":{"endCursor":")" +
              cursor(2) + R"(","hasNextPage":false}})");

    GraphqlResponse past = run(store, query, {{"id", "A"}, {"after", cursor(2)}});
    CHECK(past.json()["data"]["product"]["similarProducts"].dump() == R"({"edges":[],"pageInfo":{"endCursor":null,"hasNextPage":false}})");
}

// Relay's PageInfo (docs/adr/0085): A's similar products are B, C, D (cursors 0..2); pages go forward only.
TEST_CASE("GraphqlService::execute: pageInfo's startCursor and hasPreviousPage, as Relay reads them") {
    ProductContentSource store = contentStore();
    const std::string query = "query ($after: String, $first: Int) { product(id: \"A\") { similarProducts(first: $first, after: $after) { "
                              "pageInfo { startCursor endCursor hasPreviousPage hasNextPage } } } }";
    struct Page {
        std::optional<size_t> after;
        int first;
        nlohmann::json startCursor, endCursor;
        bool hasPreviousPage, hasNextPage;
    };
    const Page pages[] = {
        {std::nullopt, 2, cursor(0), cursor(1), false, true},
        {0, 2, cursor(1), cursor(2), true, false},
        {1, 1, cursor(2), cursor(2), true, false},
        {std::nullopt, 0, nullptr, nullptr, false, true},
        {2, 5, nullptr, nullptr, true, false},  // past the end: items before it, none on the page
    };
    for (const Page& page : pages) {
        nlohmann::json variables{{"first", page.first}};
        if (page.after) variables["after"] = cursor(*page.after);
        CAPTURE(variables.dump());
        GraphqlResponse response = run(store, query, variables);
        CHECK(nlohmann::json::parse(response.json()["data"]["product"]["similarProducts"]["pageInfo"].dump()) ==
              nlohmann::json{{"startCursor", page.startCursor}, {"endCursor", page.endCursor},
                             {"hasPreviousPage", page.hasPreviousPage}, {"hasNextPage", page.hasNextPage}});
    }
}

TEST_CASE("GraphqlService::execute: null brand and model, unknown and sold-out products") {
    ProductContentSource store = contentStore();
    GraphqlResponse soldOut = run(store, "{ product(id: \"F\") { id } }");
    CHECK(soldOut.body == R"({"data":{"product":null},"extensions":{"version":"2.3.0"}})");
    GraphqlResponse unknown = run(store, "{ product(id: \"nope\") { id } }");
    CHECK(unknown.body == R"({"data":{"product":null},"extensions":{"version":"2.3.0"}})");
    store.products[1].push_back(makeProduct("G-S", "G", "Women > Jeans", 5000));
    GraphqlResponse bare = run(store, "{ product(id: \"G\") { brand modelId } }");
    CHECK(bare.body == R"({"data":{"product":{"brand":null,"modelId":null}},"extensions":{"version":"2.3.0"}})");
}

TEST_CASE("GraphqlService::execute: bad paging arguments are field errors naming the argument") {
    struct PagingCase {
        std::string arguments;
        std::string message;
    };
    const std::vector<PagingCase> cases{
        {"first: 101", "first: at most 100 items per page"},
        {"first: -1", "first: must not be negative"},
        {"after: \"bogus\"", "after: not a cursor of this similarProducts list"},
        {"after: \"" + svc::testing::testCursors().encode(0, {"otherList", "tenant 1 Product A"}) + "\"",
         "after: not a cursor of this similarProducts list"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.arguments);
        ProductContentSource store = contentStore();
        GraphqlResponse response = run(store, "{ product(id: \"A\") { similarProducts(" + c.arguments + ") { edges { cursor } } } }");
        CHECK(response.outcome == GraphqlResponse::Outcome::Executed);
        CHECK(response.json()["data"].dump() == R"({"product":null})");  // similarProducts is non-null
        REQUIRE(response.json()["errors"].size() == 1);
        CHECK(response.json()["errors"][0]["message"] == c.message);
        CHECK(response.json()["errors"][0]["errorType"] == "BadRequest");
        CHECK(response.json()["errors"][0]["path"].dump() == R"(["product","similarProducts"])");
    }
    SUBCASE("first: 100 is allowed, and the store is asked for one more than the page") {
        ProductContentSource store = contentStore();
        GraphqlResponse response = run(store, "{ product(id: \"A\") { similarProducts(first: 100) { pageInfo { hasNextPage } } } }");
        CHECK(response.body == R"({"data":{"product":{"similarProducts":{"pageInfo":{"hasNextPage":false}}}},"extensions":{"version":"2.3.0"}})");
    }
}

TEST_CASE("GraphqlService::execute: invalid variables are a request error") {
    ProductContentSource store = contentStore();
    GraphqlResponse response = run(store, "query ($id: ID!) { product(id: $id) { id } }");
    CHECK(response.outcome == GraphqlResponse::Outcome::RequestError);
    CHECK(response.json()["data"].is_null());
    CHECK(response.json()["errors"][0]["message"] == "Variable 'id' has an invalid value: it is required and was not provided");
    CHECK(response.json()["errors"][0]["path"].is_null());
    CHECK(store.calls.empty());
}

TEST_CASE("GraphqlService::execute: a store failure is a field error with its errorType") {
    ProductContentSource store = contentStore();
    store.failure = svc::Error::unavailable("database is locked");
    GraphqlResponse response = run(store, "{ product(id: \"A\") { id } }");
    CHECK(response.outcome == GraphqlResponse::Outcome::Executed);
    CHECK(response.json()["data"].dump() == R"({"product":null})");
    CHECK(response.json()["errors"][0]["message"] == "database is locked");
    CHECK(response.json()["errors"][0]["errorType"] == "ServiceUnavailable");
}

namespace {

// A service over the content store with the given limits, kept between requests.
struct LimitedService {
    ProductContentSource store = contentStore();
    RecommendationService recommendations{store};
    GraphqlService service;
    explicit LimitedService(svc::graphql::GraphqlLimits limits) : service(recommendations, svc::testing::testCursors(), limits) {}
    GraphqlResponse run(const std::string& query, nlohmann::json variables = nlohmann::json::object()) {
        GraphqlRequest request;
        request.query = query;
        request.variables = std::move(variables);
        return service.execute(request, tenant());
    }
};

}  // namespace

TEST_CASE("GraphqlService limits: document size and nesting depth are refused with a message naming the limit") {
    svc::graphql::GraphqlLimits limits;
    limits.maxDocumentBytes = 200;
    limits.maxDepth = 3;
    LimitedService limited(limits);
    auto runQuery = [&](const std::string& query) { return limited.run(query); };
    // product > similarProducts > edges > cursor: four levels, one more than allowed.
    auto atLimit = runQuery(R"({ product(id: "A-S") { similarProducts { edges { cursor } } } })");
    CHECK(atLimit.outcome == GraphqlResponse::Outcome::InvalidDocument);
    CHECK(atLimit.json()["errors"][0]["message"] ==
          "Validation error of type MaxQueryDepthExceeded: the query is nested 4 fields deep, more than the maximum of 3");
    // Fragments add no level of their own, but their fields count where they are spread.
    auto viaFragment = runQuery(R"({ product(id: "A-S") { ...P } } fragment P on Product { similarProducts { pageInfo { hasNextPage } } })");
    CHECK(viaFragment.outcome == GraphqlResponse::Outcome::InvalidDocument);
    auto shallow = runQuery(R"({ product(id: "A-S") { similarProducts { __typename } } })");
    CHECK(shallow.outcome == GraphqlResponse::Outcome::Executed);
    CHECK(shallow.json()["data"]["product"]["similarProducts"]["__typename"] == "ProductConnection");

    auto large = runQuery("{ product(id: \"A-S\") { id } }" + std::string(200, ' '));
    CHECK(large.outcome == GraphqlResponse::Outcome::InvalidDocument);
    CHECK(large.json()["errors"][0]["message"] == "query: the document has 229 bytes, more than the maximum of 200");
}

TEST_CASE("GraphqlService caches prepared documents by text: a repeat gives the same answer without a new entry") {
    svc::graphql::GraphqlLimits limits;
    limits.cachedDocuments = 2;
    LimitedService limited(limits);
    GraphqlService& service = limited.service;
    auto runQuery = [&](const std::string& query, nlohmann::json variables = nlohmann::json::object()) {
        return limited.run(query, std::move(variables)).json();
    };
    const std::string byVariable = "query($id: ID!) { product(id: $id) { id } }";
    auto first = runQuery(byVariable, {{"id", "A-S"}});
    auto second = runQuery(byVariable, {{"id", "B-S"}});  // the cached document, other variables
    CHECK(first["data"]["product"]["id"] == "A");
    CHECK(second["data"]["product"]["id"] == "B");
    CHECK(service.cachedDocumentCount() == 1);
    // Invalid documents are cached with their errors, and answer the same each time.
    auto invalid = runQuery("{ product { id } }");
    CHECK(runQuery("{ product { id } }") == invalid);
    CHECK(service.cachedDocumentCount() == 2);
    runQuery("{ __typename }");
    CHECK(service.cachedDocumentCount() == 2);  // bounded
}

TEST_CASE("DocumentCache keeps the most recently used documents") {
    svc::graphql::DocumentCache cache(2);
    auto prepared = [] { return std::make_shared<const svc::graphql::PreparedDocument>(); };
    cache.insert("a", prepared());
    cache.insert("b", prepared());
    CHECK(cache.find("a") != nullptr);  // a is now the most recent
    cache.insert("c", prepared());      // evicts b
    CHECK(cache.find("b") == nullptr);
    CHECK(cache.find("a") != nullptr);
    CHECK(cache.find("c") != nullptr);
    CHECK(cache.size() == 2);
    svc::graphql::DocumentCache off(0);
    off.insert("a", prepared());
    CHECK(off.find("a") == nullptr);
}

// Regression test (issue 18): cursors named only their list, so a cursor from tenant A's list,
// or from another product's list of the same name, was accepted on tenant B's or the other list.
TEST_CASE("GraphqlService: a cursor is refused by another tenant's list and by another product's list") {
    ProductContentSource store = contentStore();
    store.products[2] = store.products[1];  // the same product ids at a second tenant
    RecommendationService recommendations(store);
    GraphqlService service(recommendations, svc::testing::testCursors());
    auto page = [&](int64_t tenantId, const std::string& product, const std::string& after) {
        GraphqlRequest request;
        request.query = "query ($id: ID!, $after: String) { product(id: $id) { similarProducts(first: 1, after: $after) "
                        "{ edges { node { id } } pageInfo { endCursor } } } }";
        request.variables = {{"id", product}, {"after", after.empty() ? nlohmann::json(nullptr) : nlohmann::json(after)}};
        Tenant owner = tenant();
        owner.id = tenantId;
        return service.execute(request, owner).json();
    };
    std::string cursorOfA = page(1, "A", "")["data"]["product"]["similarProducts"]["pageInfo"]["endCursor"];
    CHECK(page(1, "A", cursorOfA)["data"]["product"]["similarProducts"]["edges"][0]["node"]["id"] == "C");  // its own list: the next page
    for (const auto& [tenantId, product] : std::vector<std::pair<int64_t, std::string>>{{2, "A"}, {1, "B"}}) {
        CAPTURE(tenantId);
        CAPTURE(product);
        auto refused = page(tenantId, product, cursorOfA);
        CHECK(refused["data"]["product"].is_null());
        CHECK(refused["errors"][0]["message"] == "after: not a cursor of this similarProducts list");
        CHECK(refused["errors"][0]["path"].dump() == R"(["product","similarProducts"])");
    }
}
