// Issue 18: a JSON body nested 200,000 levels deep crashed svc-server (the GraphQL service copied
// `variables` recursively; the operator's widget texts were dumped recursively). Every HTTP entry
// point that reads JSON now goes through BoundedJson (docs/adr/0054): each row below sends a deeply
// nested but otherwise plausible body to the real server and expects a 400 naming the depth, and
// the server must still answer afterwards. The CLI's JSON files are read by the same reader.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"
#include "tenant/TenantService.hpp"

using namespace svc;

namespace {

std::string deep(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

// Brackets and braces as %-escapes, so that the text survives as one query parameter.
std::string urlEncoded(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '[': out += "%5B"; break;
            case ']': out += "%5D"; break;
            case '{': out += "%7B"; break;
            case '}': out += "%7D"; break;
            case '"': out += "%22"; break;
            default: out += c;
        }
    }
    return out;
}

struct DeepFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant tenant;
    std::string secret;
    const std::string key = "operator-key-for-deep-json-tests";

    DeepFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(key)}));
    }
};

}  // namespace

TEST_CASE("deep JSON: every HTTP entry point refuses a deeply nested body with 400 naming the depth, and the server stays up") {
    DeepFixture fixture;
    const Tenant& tenant = fixture.tenant;
    const size_t big = 200000;    // 400 KB: under the 8 MiB request limit
    const size_t small = 30000;   // 60 KB: under the 64 KiB limit of events and shop registrations
    httplib::Headers tenantAuth{{"x-api-id", tenant.apiId}, {"x-api-secret", fixture.secret}};
    httplib::Headers operatorAuth{{"Authorization", "Bearer " + fixture.key}};
    httplib::Headers shopHeaders{{"svc-com-tid", tenant.apiId}, {"svc-com-fid", tenant.feedId}};
    const std::string operatorTenant = "/operator/api/tenants/" + tenant.apiId;
    const std::string depth64 = "nesting deeper than 64";

    struct Case {
        std::string method, path;
        httplib::Headers headers;
        std::string body;
        int status;
        std::string message;  // a part of the error message
    };
    const std::vector<Case> cases{
        {"POST", "/graphql", {}, R"({"query":"{__typename}","variables":{"x":)" + deep(big) + "}}", 400,
         "body: line 1, column 104: " + depth64},
        {"GET", "/graphql?query=%7B__typename%7D&variables=" + urlEncoded(R"({"x":)" + deep(100) + "}"), {}, "", 400,
         "variables: line 1, column 69: " + depth64},
        {"GET", "/graphql?query=%7B__typename%7D&extensions=" + urlEncoded(R"({"x":)" + deep(100) + "}"), {}, "", 400,
         "extensions: line 1, column 69: " + depth64},
        // Events check their structure first, with their own tighter limit (EventLimits::maxDepth).
        {"POST", "/events?apiId=" + tenant.apiId, {}, R"({"type":"view","x":)" + deep(small) + "}", 400, "at most 16 levels of nesting"},
        {"POST", "/events/validate?apiId=" + tenant.apiId, {}, R"({"type":"view","x":)" + deep(small) + "}", 400,
         "at most 16 levels of nesting"},
        {"PUT", "/shops/" + tenant.apiId + "/" + tenant.feedId, shopHeaders, R"({"plugin":{"config":{"x":)" + deep(small) + "}}}", 400,
         "body: line 1, column 87: " + depth64},
        {"POST", "/feeds/uploads", tenantAuth, R"({"identifier":"sku","format":{"type":"csv"},"x":)" + deep(big) + "}", 400,
         "body: line 1, column 112: " + depth64},
        {"POST", "/orders/o1/returns", tenantAuth, R"({"returnId":"r1","lines":)" + deep(big) + "}", 400, "body: line 1, column 89: " + depth64},
        {"PUT", "/sets/custom/s1", tenantAuth, R"({"title":"T","skus":)" + deep(big) + "}", 400, "body: line 1, column 84: " + depth64},
        {"POST", "/sets/import", tenantAuth, R"({"customSets":)" + deep(big) + "}", 400, "body: line 1, column 78: " + depth64},
        {"PUT", "/content-pool/templates/t1", operatorAuth, R"({"title":"T","slots":)" + deep(big) + "}", 400,
         "body: line 1, column 85: " + depth64},
        {"POST", "/content-pool/import", operatorAuth, R"({"templates":)" + deep(big) + "}", 400, "body: line 1, column 77: " + depth64},
        {"POST", "/operator/api/tenants", operatorAuth, R"({"name":"N","x":)" + deep(big) + "}", 400, "body: line 1, column 80: " + depth64},
        {"PATCH", operatorTenant, operatorAuth, R"({"name":"Shop","x":)" + deep(big) + "}", 400, "body: line 1, column 83: " + depth64},
        {"PUT", operatorTenant + "/widgets", operatorAuth, R"({"texts":{"de":)" + deep(big) + "}}", 400, "body: line 1, column 78: " + depth64},
        {"POST", operatorTenant + "/pull-sources", operatorAuth, R"({"feed":"f","x":)" + deep(big) + "}", 400,
         "body: line 1, column 80: " + depth64},
        {"PUT", operatorTenant + "/sets/custom/s1", operatorAuth, R"({"title":"T","skus":)" + deep(big) + "}", 400,
         "body: line 1, column 84: " + depth64},
        {"PUT", "/operator/api/templates/t1", operatorAuth, R"({"title":"T","slots":)" + deep(big) + "}", 400,
         "body: line 1, column 85: " + depth64},
        {"POST", "/operator/api/session", {}, R"({"email":"a@b.example","x":)" + deep(big) + "}", 400, "body: line 1, column 91: " + depth64},
    };
    for (const auto& c : cases) {
        CAPTURE(c.method);
        CAPTURE(c.path.substr(0, 80));
        auto client = fixture.server.client();
        httplib::Request request;
        request.method = c.method;
        request.path = c.path;
        request.headers = c.headers;
        request.headers.emplace("Content-Type", "application/json");
        request.headers.emplace("Origin", "http://127.0.0.1:" + std::to_string(fixture.server.server->port()));
        request.body = c.body;
        auto response = client.send(request);
        REQUIRE(response);
        CHECK(response->status == c.status);
        CHECK(response->body.find(c.message) != std::string::npos);
        if (response->body.find(c.message) == std::string::npos) MESSAGE(response->body.substr(0, 300));
    }
    auto health = fixture.server.client().Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 200);
}

TEST_CASE("deep JSON: a CLI input file is refused naming the file, the place and the depth") {
    test::TempDir dir;
    std::string path = dir.file("sets.json", R"({"customSets":)" + deep(200000) + "}");
    std::string err = dir.path() + "/stderr.txt";
    test::ChildProcess child({"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"" + err + "\"", SVC_SERVER_BINARY, "content-pool", "import",
                              "--data-dir", dir.path(), path});
    CHECK(child.wait() == 1);
    std::ifstream file(err);
    std::stringstream text;
    text << file.rdbuf();
    CHECK(text.str() == "svc-server: error: " + path + ": file: line 1, column 78: nesting deeper than 64\n");
}
