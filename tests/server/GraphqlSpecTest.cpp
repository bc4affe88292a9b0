// The GraphQL API as the interface specification describes it (issue 20, points 9-11): what an
// unauthorised request answers for each top-level field, which fields are deprecated, and which
// API version answered (docs/api/CHANGELOG.md, docs/adr/0072).
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "text/StringUtil.hpp"

using namespace svc;
using nlohmann::json;

namespace {

struct GraphqlFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant tenant;
    GraphqlFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
    }
    httplib::Result post(const std::string& body, const std::string& apiId, const std::string& accept = "",
                         const std::string& contentType = "application/json") const {
        auto client = server.client();
        httplib::Headers headers;
        if (!apiId.empty()) headers.emplace("x-api-id", apiId);
        if (!accept.empty()) headers.emplace("Accept", accept);
        return client.Post("/graphql", headers, body, contentType.c_str());
    }
    json graphql(const std::string& query, const std::string& apiId) const {
        auto response = post(json{{"query", query}}.dump(), apiId);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    }
};

// One row per top-level field of Query: a selection that would run for an authorised tenant.
struct TopLevelField {
    std::string name;
    std::string selection;
};

const std::vector<TopLevelField> kTopLevelFields = {
    {"product", R"(product(id: "A") { id })"},
    {"productSets", R"(productSets(input: {queryType: SKU, value: "A"}) { edges { node { id } } })"},
    {"setPhoto", R"(setPhoto(input: {queryType: TAGS, value: {include: ["summer"]}}) { edges { node { id } } })"},
    {"customSet", R"(customSet(id: "look") { id })"},
    {"setCompose", R"(setCompose(input: {queryType: SKU, value: "A"}) { edges { node { id } } })"},
};

json unauthorizedError(const std::string& field, int line) {
    return {{"path", json::array({field})},
            {"data", nullptr},
            {"errorType", "Unauthorized"},
            {"errorInfo", nullptr},
            {"locations", json::array({{{"line", line}, {"column", 3}, {"sourceName", nullptr}}})},
            {"message", "Not Authorized to access " + field + " on type Query"},
            {"extensions", {{"code", "UNAUTHENTICATED"}}}};
}

// The version rows of docs/api/CHANGELOG.md's table, in order: {version, the rest of the row}.
std::vector<std::pair<std::string, std::string>> changelogVersions() {
    std::ifstream file(std::string(SVC_SOURCE_DIR) + "/docs/api/CHANGELOG.md");
    REQUIRE(file);
    std::vector<std::pair<std::string, std::string>> rows;
    static const std::regex row(R"(^\| (\d+\.\d+\.\d+) \| (.*)$)");
    std::string line;
    while (std::getline(file, line)) {
        std::smatch match;
        if (std::regex_match(line, match, row)) rows.emplace_back(match[1], match[2]);
    }
    return rows;
}

std::vector<int> versionNumbers(const std::string& version) {
    std::vector<int> numbers;
    for (const auto& part : splitList(version, '.')) numbers.push_back(std::stoi(part));
    return numbers;
}

// A POST body holding just this query; the media type GraphQL over HTTP answers with.
std::string post(const std::string& query) { return json{{"query", query}}.dump(); }
const std::string graphqlJson = "application/graphql-response+json";

}  // namespace

TEST_CASE("GraphQL without a valid x-api-id: each top-level field is null with one Unauthorized error, field by field") {
    GraphqlFixture api;
    // Every field of Query has a row, and none is non-null: a non-null field would turn the
    // whole `data` into null, against the spec's "all top-level fields are null in data".
    json query = api.graphql(R"({ __type(name: "Query") { fields(includeDeprecated: true) { name type { kind } } } })", "");
    std::set<std::string> served, listed;
    for (const auto& field : query["data"]["__type"]["fields"]) {
        CAPTURE(field["name"]);
        served.insert(field["name"].get<std::string>());
        CHECK(field["type"]["kind"] != "NON_NULL");
    }
    for (const auto& field : kTopLevelFields) listed.insert(field.name);
    CHECK(served == listed);

    for (const std::string& apiId : {std::string(), std::string("not-a-tenant"), std::string("00000000-0000-4000-8000-000000000000")}) {
        CAPTURE(apiId);
        for (const auto& field : kTopLevelFields) {
            CAPTURE(field.name);
            json body = api.graphql("{\n  " + field.selection + "\n}", apiId);
            body.erase("extensions");  // the version: its own test
            CHECK(body == json{{"data", {{field.name, nullptr}}}, {"errors", json::array({unauthorizedError(field.name, 2)})}});
        }
        // All of them in one request: each null, one error each, in the document's order.
        std::string document = "{";
        json data = json::object(), errors = json::array();
        for (size_t i = 0; i < kTopLevelFields.size(); ++i) {
            document += "\n  " + kTopLevelFields[i].selection;
            data[kTopLevelFields[i].name] = nullptr;
            errors.push_back(unauthorizedError(kTopLevelFields[i].name, static_cast<int>(i) + 2));
        }
        json body = api.graphql(document + "\n}", apiId);
        CHECK(body["data"] == data);
        CHECK(body["errors"] == errors);
    }
}

TEST_CASE("GraphQL deprecations follow the spec's history: setCompose only (2.0.0), the classic queries are not deprecated") {
    GraphqlFixture api;
    json body = api.graphql(R"({ __schema { types {
        name
        fields(includeDeprecated: true) { name isDeprecated deprecationReason args(includeDeprecated: true) { name isDeprecated } }
        inputFields(includeDeprecated: true) { name isDeprecated }
        enumValues(includeDeprecated: true) { name isDeprecated }
    } } })", "");
    REQUIRE_FALSE(body.contains("errors"));
    std::map<std::string, json> deprecated;
    std::set<std::string> notDeprecated;
    for (const auto& type : body["data"]["__schema"]["types"]) {
        std::string typeName = type["name"];
        if (typeName.rfind("__", 0) == 0) continue;
        auto note = [&](const json& members, const std::string& prefix) {
            if (!members.is_array()) return;
            for (const auto& member : members) {
                std::string name = prefix + member["name"].get<std::string>();
                if (member["isDeprecated"] == true) deprecated[name] = member.value("deprecationReason", json());
                else notDeprecated.insert(name);
                if (member.contains("args")) {
                    for (const auto& argument : member["args"]) {
                        if (argument["isDeprecated"] == true) deprecated[name + "(" + argument["name"].get<std::string>() + ")"] = nullptr;
                    }
                }
            }
        };
        note(type["fields"], typeName + ".");
        note(type["inputFields"], typeName + ".");
        note(type["enumValues"], typeName + ".");
    }
    std::string deprecatedNames;
    for (const auto& [name, reason] : deprecated) deprecatedNames += (deprecatedNames.empty() ? "" : ", ") + name;
    CHECK(deprecatedNames == "Query.setCompose");
    CHECK(deprecated["Query.setCompose"] == "use matchingProductClusters on product");
    for (const std::string classic : {"Product.customSets", "Product.matchingProductClusters", "Query.customSet"}) {
        CAPTURE(classic);
        CHECK(notDeprecated.count(classic) == 1);
    }
}

TEST_CASE("GraphQL versions: the changelog's table starts with the spec's versions, svc's own follow in order") {
    auto rows = changelogVersions();
    REQUIRE(rows.size() > 5);
    // The interface specification's Versioning table, as it gives it.
    const std::vector<std::pair<std::string, std::string>> spec = {
        {"1.0.0", "2021-03-12"}, {"1.0.1", "2021-04-27"}, {"2.0.0", "2024-07-25"}, {"2.1.0", "2025-09-04"}, {"2.2.0", "2025-12-03"}};
    for (size_t i = 0; i < spec.size(); ++i) {
        CAPTURE(i);
        CHECK(rows[i].first == spec[i].first);
        CHECK(rows[i].second.rfind(spec[i].second + " |", 0) == 0);
    }
    for (size_t i = spec.size(); i < rows.size(); ++i) {
        CAPTURE(rows[i].first);
        CHECK(rows[i].second.find("svc") != std::string::npos);
    }
    for (size_t i = 1; i < rows.size(); ++i) {
        CAPTURE(rows[i].first);
        CHECK(versionNumbers(rows[i - 1].first) < versionNumbers(rows[i].first));
    }
}

TEST_CASE("GraphQL versions: every answer names the API version that answered, and so does the schema's description") {
    GraphqlFixture api;
    const std::string current = changelogVersions().back().first;
    const json extensions = {{"version", current}};
    struct Case {
        std::string name;
        std::string apiId;
        std::string accept;
        std::string contentType;
        std::string body;
        int status;
    };
    const std::string tenant = api.tenant.apiId;
    const std::vector<Case> cases = {
        {"data", tenant, "", "application/json", post(R"({ product(id: "A") { id } })"), 200},
        {"introspection without an API ID", "", "", "application/json", post("{ __typename }"), 200},
        {"unauthorised", "", "", "application/json", post(R"({ product(id: "A") { id } })"), 200},
        {"a field error", tenant, "", "application/json", post(R"({ product(id: "A") { id } productSets(input: {queryType: SKU, value: "A"}, first: 101) { edges { cursor } } })"), 200},
        {"validation error", tenant, "", "application/json", post("{ product { id } }"), 200},
        {"validation error, GraphQL media type", tenant, graphqlJson, "application/json", post("{ product { id } }"), 400},
        {"syntax error", tenant, "", "application/json", post("{ product("), 200},
        {"variables that do not coerce", tenant, graphqlJson, "application/json",
         json{{"query", "query($id: ID!) { product(id: $id) { id } }"}, {"variables", {{"id", json::array()}}}}.dump(), 400},
        {"a limit", tenant, "", "application/json", post("{ " + std::string(40000, ' ') + "__typename }"), 200},
        {"not a GraphQL request", tenant, "", "application/json", "{nope", 400},
        {"unsupported Accept", tenant, "application/xml", "application/json", post("{ __typename }"), 406},
        {"unsupported content type", tenant, "", "text/plain", post("{ __typename }"), 415},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        auto response = api.post(c.body, c.apiId, c.accept, c.contentType);
        REQUIRE(response);
        CHECK(response->status == c.status);
        json body = json::parse(response->body);
        CHECK(body["extensions"] == extensions);
    }
    auto client = api.server.client();
    auto get = client.Get("/graphql?query=" + urlEncode("{ __typename }"));
    REQUIRE(get);
    CHECK(json::parse(get->body)["extensions"] == extensions);

    json schema = api.graphql("{ __schema { description } }", "");
    std::string description = schema["data"]["__schema"]["description"].is_string() ? schema["data"]["__schema"]["description"].get<std::string>() : "";
    CAPTURE(description);
    CHECK(description.find("version " + current + " ") != std::string::npos);
    CHECK(description.find("CHANGELOG.md") != std::string::npos);
}

TEST_CASE("GraphQL errors carry extensions.code beside the spec's errorType, one code per errorType") {
    GraphqlFixture api;
    const std::string tenant = api.tenant.apiId;
    struct Case {
        std::string name;
        std::string apiId;
        std::string accept;
        std::string contentType;
        std::string body;  // POST body; "GET ..." for a GET with this query string
        std::string errorType;
        std::string code;
    };
    const std::vector<Case> cases = {
        {"unauthorised", "", "", "application/json", post(R"({ product(id: "A") { id } })"), "Unauthorized", "UNAUTHENTICATED"},
        {"a bad argument", tenant, "", "application/json", post(R"({ productSets(input: {queryType: SKU, value: "A"}, first: 101) { edges { cursor } } })"),
         "BadRequest", "BAD_USER_INPUT"},
        {"syntax error", tenant, "", "application/json", post("{ product("), "InvalidSyntax", "GRAPHQL_PARSE_FAILED"},
        {"validation error", tenant, graphqlJson, "application/json", post("{ product { id } }"), "ValidationError", "GRAPHQL_VALIDATION_FAILED"},
        {"variables that do not coerce", tenant, "", "application/json",
         json{{"query", "query($id: ID!) { product(id: $id) { id } }"}, {"variables", {{"id", json::array()}}}}.dump(), "ValidationError",
         "GRAPHQL_VALIDATION_FAILED"},
        {"a limit", tenant, "", "application/json", post("{ " + std::string(40000, ' ') + "__typename }"), "LimitExceeded", "LIMIT_EXCEEDED"},
        {"a mutation over GET", tenant, "", "", "GET query=" + urlEncode("mutation { product(id: \"A\") { id } }"), "InvalidRequest", "BAD_REQUEST"},
        {"not a GraphQL request", tenant, "", "application/json", "{nope", "InvalidRequest", "BAD_REQUEST"},
        {"unsupported Accept", tenant, "application/xml", "application/json", post("{ __typename }"), "InvalidRequest", "BAD_REQUEST"},
        {"unsupported content type", tenant, "", "text/plain", post("{ __typename }"), "InvalidRequest", "BAD_REQUEST"},
        {"a persisted query not registered", tenant, "", "application/json",
         json{{"extensions", {{"persistedQuery", {{"version", 1}, {"sha256Hash", std::string(64, '0')}}}}}}.dump(), "PersistedQueryNotFound",
         "PERSISTED_QUERY_NOT_FOUND"},
    };
    std::map<std::string, std::string> codeOfType;
    for (const auto& c : cases) {
        CAPTURE(c.name);
        httplib::Result response = c.body.rfind("GET ", 0) == 0 ? api.server.client().Get("/graphql?" + c.body.substr(4))
                                                                 : api.post(c.body, c.apiId, c.accept, c.contentType);
        REQUIRE(response);
        json body = json::parse(response->body);
        REQUIRE(body["errors"].size() >= 1);
        for (const auto& error : body["errors"]) {
            CHECK(error["errorType"] == c.errorType);
            CHECK(error["extensions"] == json{{"code", c.code}});
        }
        auto known = codeOfType.emplace(c.errorType, c.code).first;
        CHECK(known->second == c.code);  // one mapping: an errorType has one code
    }
    // The order of an error's keys as written: the spec's six, then extensions.
    auto raw = api.post(post(R"({ product(id: "A") { id } })"), "");
    REQUIRE(raw);
    CHECK(raw->body.find(R"("errorType":"Unauthorized","errorInfo":null,"locations":[{"line":1,"column":3,"sourceName":null}],)"
                         R"("message":"Not Authorized to access product on type Query","extensions":{"code":"UNAUTHENTICATED"}})") != std::string::npos);
}

TEST_CASE("GraphQL CORS: a preflight allows the request headers GraphQL clients send, from any origin") {
    GraphqlFixture api;
    auto client = api.server.client();
    const std::string requested = "accept, content-type, x-api-id, apollographql-client-name, apollographql-client-version, traceparent";
    auto preflight = client.Options("/graphql", {{"Origin", "https://shop.example"},
                                                 {"Access-Control-Request-Method", "POST"},
                                                 {"Access-Control-Request-Headers", requested}});
    REQUIRE(preflight);
    CHECK(preflight->status == 204);
    CHECK(preflight->get_header_value("Access-Control-Allow-Origin") == "*");
    std::set<std::string> allowed;
    for (const auto& header : splitList(preflight->get_header_value("Access-Control-Allow-Headers"), ',')) allowed.insert(toLower(header));
    for (const auto& header : splitList(requested, ',')) {
        CAPTURE(header);
        CHECK(allowed.count(toLower(header)) == 1);
    }
}
