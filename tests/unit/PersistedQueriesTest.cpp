// Automatic persisted queries (docs/adr/0084): the SHA-256 that names a document, the per-tenant
// cache, and GraphqlService's side of Apollo's protocol.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>

#include "ContentTestSupport.hpp"
#include "graphql/GraphqlService.hpp"
#include "graphql/PersistedQueryCache.hpp"
#include "graphql/Sha256.hpp"

using svc::RecommendationService;
using svc::Tenant;
using svc::graphql::GraphqlRequest;
using svc::graphql::GraphqlService;
using svc::graphql::PersistedQueryCache;
using svc::graphql::sha256Hex;

TEST_CASE("sha256Hex: FIPS 180-4's examples and the block boundaries") {
    struct Vector {
        std::string text;
        std::string hex;
    };
    const Vector vectors[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {std::string(55, 'a'), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},  // padding fits one block
        {std::string(56, 'a'), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},  // padding needs a second
        {std::string(64, 'a'), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {std::string(1000000, 'a'), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    for (const Vector& vector : vectors) {
        CAPTURE(vector.text.size());
        CHECK(sha256Hex(vector.text) == vector.hex);
    }
}

TEST_CASE("PersistedQueryCache: each tenant's documents are bounded apart from the others'") {
    PersistedQueryCache cache({/*documentsPerTenant=*/3, /*bytesPerTenant=*/1000});
    cache.remember(1, "h1", "{ a }");
    for (int i = 0; i < 50; ++i) cache.remember(2, "x" + std::to_string(i), "{ b }");  // tenant 2 floods its own partition
    CHECK(cache.find(1, "h1") == std::optional<std::string>("{ a }"));
    CHECK(cache.documents(2) == 3);
    CHECK(cache.find(2, "x49").has_value());
    CHECK_FALSE(cache.find(2, "x0").has_value());  // least recently used out
    CHECK_FALSE(cache.find(2, "h1").has_value());  // another tenant's hash is not found

    SUBCASE("bytes bound a partition too, and a used document stays") {
        cache.remember(3, "big1", std::string(400, 'q'));
        cache.remember(3, "big2", std::string(400, 'q'));
        CHECK(cache.find(3, "big1").has_value());   // now the most recently used
        cache.remember(3, "big3", std::string(400, 'q'));
        CHECK(cache.find(3, "big1").has_value());
        CHECK_FALSE(cache.find(3, "big2").has_value());
        CHECK(cache.bytes(3) <= 1000);
        cache.remember(3, "huge", std::string(2000, 'q'));  // larger than the partition: not kept, nothing evicted
        CHECK_FALSE(cache.find(3, "huge").has_value());
        CHECK(cache.find(3, "big1").has_value());
    }
}

namespace {

svc::testing::ProductContentSource store() {
    svc::testing::ProductContentSource source;
    source.products[1].push_back(svc::testing::makeProduct("A-S", "A", "Women > Jeans", 5000));
    source.products[2].push_back(svc::testing::makeProduct("B-S", "B", "Women > Jeans", 5000));
    return source;
}

Tenant tenant(int64_t id) {
    Tenant t;
    t.id = id;
    return t;
}

std::string body(const std::string& query, const std::string& hash) {
    nlohmann::json json{{"extensions", {{"persistedQuery", {{"version", 1}, {"sha256Hash", hash}}}}}};
    if (!query.empty()) json["query"] = query;
    return json.dump();
}

}  // namespace

TEST_CASE("GraphqlService: Apollo's persisted queries - unknown hash, the text registered, then the hash alone") {
    auto source = store();
    RecommendationService recommendations(source);
    GraphqlService service(recommendations, svc::testing::testCursors());
    const std::string query = "{ product(id: \"A\") { id name } }";
    const std::string hash = sha256Hex(query);

    auto hashOnly = GraphqlService::parseRequestBody(body("", hash));
    REQUIRE(hashOnly);
    auto missing = service.execute(*hashOnly, tenant(1));
    CHECK(missing.outcome == svc::graphql::GraphqlResponse::Outcome::RequestError);
    CHECK(missing.json()["errors"][0]["message"] == "PersistedQueryNotFound");
    CHECK(missing.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND");

    auto withText = GraphqlService::parseRequestBody(body(query, hash));
    REQUIRE(withText);
    CHECK(service.execute(*withText, tenant(1)).json()["data"]["product"]["id"] == "A");
    CHECK(service.persistedQueryCount(1) == 1);

    auto again = service.execute(*hashOnly, tenant(1));
    CHECK(again.json()["data"]["product"]["id"] == "A");
    // Tenant 2 never registered it: its clients get the retry, not tenant 1's document.
    CHECK(service.execute(*hashOnly, tenant(2)).json()["errors"][0]["message"] == "PersistedQueryNotFound");
    CHECK(service.execute(*hashOnly, std::nullopt).json()["errors"][0]["message"] == "PersistedQueryNotFound");

    // A document that does not validate is answered, not remembered.
    const std::string invalid = "{ product(id: \"A\") { nope } }";
    auto invalidRequest = GraphqlService::parseRequestBody(body(invalid, sha256Hex(invalid)));
    REQUIRE(invalidRequest);
    CHECK(service.execute(*invalidRequest, tenant(1)).json()["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED");
    CHECK(service.persistedQueryCount(1) == 1);
}

TEST_CASE("GraphqlService::parseRequestBody: persistedQuery refusals name the member") {
    const std::string query = "{ __typename }";
    struct Case {
        std::string body;
        std::string message;
    };
    const Case cases[] = {
        {body(query, sha256Hex("{ other }")), "extensions.persistedQuery.sha256Hash: is not the SHA-256 of query"},
        {body("", "ABC"), "extensions.persistedQuery.sha256Hash: must be 64 lower-case hex digits"},
        {body("", std::string(64, 'A')), "extensions.persistedQuery.sha256Hash: must be 64 lower-case hex digits"},
        {R"({"extensions":{"persistedQuery":{"version":2,"sha256Hash":")" + sha256Hex(query) + R"("}}})",
         "extensions.persistedQuery.version: only version 1 is supported"},
        {R"({"extensions":{"persistedQuery":"x"}})", "extensions.persistedQuery: must be an object"},
        {R"({"extensions":{"persistedQuery":null}})", "query: must be a string"},
        {R"({"extensions":{}})", "query: must be a string"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.body);
        auto parsed = GraphqlService::parseRequestBody(c.body);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().message == c.message);
    }
    // Over GET, extensions is JSON text and the query may be left out.
    auto get = GraphqlService::parseQueryParameters({{"extensions", R"({"persistedQuery":{"version":1,"sha256Hash":")" + sha256Hex(query) + R"("}})"}});
    REQUIRE(get);
    CHECK_FALSE(get->hasQuery);
    CHECK(get->queriesOnly);
}
