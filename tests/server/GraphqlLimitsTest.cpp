// GraphQL's limits through HTTP (issue 18, docs/adr/0053): a real server on a real port,
// real SQLite, two tenants with the same catalog.
#include <doctest/doctest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

// Twelve jeans: every product's similar list holds the eleven others.
std::string jeansFeed() {
    std::vector<std::vector<std::string>> rows{kHeader};
    for (int i = 0; i < 12; ++i) {
        std::string id = "J" + std::to_string(i);
        rows.push_back({id + "-M", id, "M" + std::to_string(i), "5", "Jeans " + id, "5000", "5000", "https://shop.example/" + id,
                        "https://shop.example/" + id + ".jpg", "Women > Jeans", "Brand", i % 2 ? "Blue" : "Black"});
    }
    return test::feedCsv(rows);
}

struct Shops {
    test::TempDir dir;
    test::RunningServer server;
    Tenant first, second;

    explicit Shops(ServerOptions options = {}, int threads = 4) : server(dir.path(), nullptr, std::move(options), threads) {
        for (Tenant* tenant : {&first, &second}) {
            auto created = TenantService(server.storage->tenants()).create("Shop");
            REQUIRE(created);
            *tenant = created->tenant;
            REQUIRE(test::importFeedFile(*server.storage, *tenant, dir.path(), dir.file("jeans.csv", jeansFeed())));
        }
    }

    httplib::Result post(const std::string& query, const Tenant* tenant, const std::string& accept = "application/json",
                         json variables = json::object()) {
        auto client = server.client();
        httplib::Headers headers{{"Accept", accept}};
        if (tenant) headers.emplace("x-api-id", tenant->apiId);
        return client.Post("/graphql", headers, json{{"query", query}, {"variables", variables}}.dump(), "application/json");
    }
};

std::string nestedSimilar(int depth) {
    std::string inner = "id";
    for (int i = 0; i < depth; ++i) inner = "similarProducts(first:100){edges{node{" + inner + "}}}";
    return "{product(id:\"J0\"){" + inner + "}}";
}

}  // namespace

// Regression test (issue 18): this query, 5 deep, grew the server to 14 GB.
TEST_CASE("GraphQL over HTTP: a query over the cost limit is refused before it runs, in both media types") {
    Shops shops;
    auto json200 = shops.post(nestedSimilar(5), &shops.first);
    REQUIRE(json200);
    CHECK(json200->status == 200);
    auto body = json::parse(json200->body);
    CHECK(body["data"].is_null());
    CHECK(body["errors"][0]["errorType"] == "LimitExceeded");
    CHECK(body["errors"][0]["errorInfo"]["limit"] == "maxCost");
    CHECK(body["errors"][0]["message"].get<std::string>().rfind("query cost 20303030303 exceeds the limit of 500000", 0) == 0);

    auto graphql400 = shops.post(nestedSimilar(5), &shops.first, "application/graphql-response+json");
    REQUIRE(graphql400);
    CHECK(graphql400->status == 400);
    CHECK_FALSE(json::parse(graphql400->body).contains("data"));

    // Two levels of full pages are within the limit: 1 + 2 + 100 * (1 + 2 + 100 * 2) = 20,303.
    auto twoDeep = json::parse(shops.post(nestedSimilar(2), &shops.first)->body);
    CHECK_FALSE(twoDeep.contains("errors"));
    CHECK(twoDeep["data"]["product"]["similarProducts"]["edges"].size() == 11);
}

// Regression test (issue 18): a cursor named only its list, so one tenant's cursor paged
// another tenant's list (and one product's cursor another product's).
TEST_CASE("GraphQL over HTTP: a cursor from another tenant's or another product's list is refused, naming after") {
    Shops shops;
    const std::string query = "query ($id: ID!, $after: String) { product(id: $id) { similarProducts(first: 2, after: $after) "
                              "{ edges { node { id } } pageInfo { endCursor } } } }";
    auto firstPage = json::parse(shops.post(query, &shops.first, "application/json", {{"id", "J0"}, {"after", nullptr}})->body);
    std::string cursor = firstPage["data"]["product"]["similarProducts"]["pageInfo"]["endCursor"];
    auto own = json::parse(shops.post(query, &shops.first, "application/json", {{"id", "J0"}, {"after", cursor}})->body);
    CHECK_FALSE(own.contains("errors"));
    CHECK(own["data"]["product"]["similarProducts"]["edges"].size() == 2);
    struct Foreign {
        const Tenant* tenant;
        std::string product;
    };
    for (const Foreign& foreign : {Foreign{&shops.second, "J0"}, Foreign{&shops.first, "J1"}}) {
        CAPTURE(foreign.product);
        auto refused = json::parse(shops.post(query, foreign.tenant, "application/json", {{"id", foreign.product}, {"after", cursor}})->body);
        CHECK(refused["data"]["product"].is_null());
        CHECK(refused["errors"][0]["message"] == "after: not a cursor of this similarProducts list");
        CHECK(refused["errors"][0]["errorType"] == "BadRequest");
    }
}

TEST_CASE("GraphQL over HTTP: the deadline stops a request and answers an error naming it") {
    ServerOptions options;
    options.graphql.deadline = std::chrono::milliseconds(0);  // passed as soon as it is first looked at
    Shops shops(options);
    std::string fields;
    for (int i = 0; i < 100; ++i) fields += " f" + std::to_string(i) + ": name";
    for (const std::string accept : {"application/json", "application/graphql-response+json"}) {
        CAPTURE(accept);
        auto response = shops.post("{ product(id: \"J0\") {" + fields + " } }", &shops.first, accept);
        REQUIRE(response);
        CHECK(response->status == 200);  // it ran: `data` is there, null
        CHECK(response->body ==
              R"({"data":null,"errors":[{"path":null,"data":null,"errorType":"LimitExceeded","errorInfo":{"limit":"deadline"},)"
              R"("locations":[],"message":"the request ran past its deadline of 0 ms","extensions":{"code":"LIMIT_EXCEEDED"}}],"extensions":{"version":"2.3.0"}})");
    }
    // A request that resolves fewer fields than the check's interval finishes.
    auto small = json::parse(shops.post("{ product(id: \"J0\") { id } }", &shops.first)->body);
    CHECK(small["data"]["product"]["id"] == "J0");
}

// Issue 18: a client that left kept a core busy for the rest of its query. One worker thread:
// /healthz waits for the GraphQL request until that stops.
TEST_CASE("GraphQL over HTTP: a request whose client closed the connection stops at once") {
    ServerOptions options;
    options.graphql.limits.maxCost = uint64_t{1} << 60;
    options.graphql.limits.maxResponseBytes = size_t{1} << 32;
    options.graphql.deadline = std::chrono::milliseconds(1500);
    Shops shops(options, 1);
    // 11^6 products, each with ten fields: several seconds to answer in full.
    std::string leaf = "id";
    for (int i = 0; i < 10; ++i) leaf += " n" + std::to_string(i) + ": name";
    std::string nested = nestedSimilar(6);
    const std::string query = json{{"query", nested.replace(nested.find("{id}"), 4, "{" + leaf + "}")}}.dump();

    // Connected, the query runs until its deadline: it is long enough to tell.
    auto connected = shops.server.client();
    auto started = std::chrono::steady_clock::now();
    auto ran = connected.Post("/graphql", {{"x-api-id", shops.first.apiId}}, query, "application/json");
    REQUIRE(ran);
    CHECK(json::parse(ran->body)["errors"][0]["errorInfo"]["limit"] == "deadline");
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(1500));

    // The client leaves after 100 ms; the worker is free again well before the deadline.
    auto leaving = shops.server.client();
    leaving.set_read_timeout(0, 100'000);
    started = std::chrono::steady_clock::now();
    CHECK_FALSE(leaving.Post("/graphql", {{"x-api-id", shops.first.apiId}}, query, "application/json"));
    leaving.stop();
    auto health = shops.server.client().Get("/healthz");
    auto freed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    REQUIRE(health);
    CHECK(health->status == 200);
    MESSAGE("the worker was free " << freed.count() << " ms after the request started (its client left at 100 ms)");
    CHECK(freed < std::chrono::milliseconds(600));
}

TEST_CASE("GraphQL over HTTP: the response size limit, set in ServerOptions") {
    ServerOptions options;
    options.graphql.limits.maxResponseBytes = 2000;
    Shops shops(options);
    auto response = shops.post(nestedSimilar(2), &shops.first);
    REQUIRE(response);
    CHECK(response->status == 200);
    auto body = json::parse(response->body);
    CHECK(body["data"].is_null());
    CHECK(body["errors"][0]["errorInfo"].dump() == R"({"limit":"maxResponseBytes","maximum":2000})");
}

// Regression test (issue 18): F0 spreads F1 twice, F1 F2 twice, ... 24 levels: one GET without
// an API ID took 24 s of CPU to validate.
TEST_CASE("GraphQL over HTTP: a fragment bomb over GET without an API ID is answered at once") {
    Shops shops;
    std::string document = "{...F0}";
    for (int i = 0; i < 24; ++i) document += " fragment F" + std::to_string(i) + " on Query{...F" + std::to_string(i + 1) + " ...F" + std::to_string(i + 1) + "}";
    document += " fragment F24 on Query{__typename}";
    auto client = shops.server.client();
    auto start = std::chrono::steady_clock::now();
    auto response = client.Get("/graphql?query=" + httplib::detail::encode_query_param(document), httplib::Headers{{"Accept", "application/json"}});
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(response);
    CHECK(seconds < 1.0);
    auto body = json::parse(response->body);
    CHECK(body["errors"][0]["errorInfo"]["limit"] == "maxCost");  // 2^24 spreads of the one field
}
