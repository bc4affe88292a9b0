// Request smuggling (issue 18, docs/adr/0057): an answer sent before a request's body was read
// whole must not leave that body on the connection to be parsed as the next request. Every
// route of both OpenAPI documents and every other route svc serves is sent, with every method,
// a request whose body is a complete second request (GET /metrics); the connection must carry
// exactly one answer to it: either it closes after that answer, or the next answer is the one
// to the request the test sends next. Then the early answers that need credentials to reach
// them: a bad upload signature, an unknown tenant, too large or chunked bodies refused before
// routing.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "RawHttpConnection.hpp"
#include "ServerFixture.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using namespace std::chrono_literals;
using test::RawHttpConnection;

namespace {

constexpr const char* kOperatorKey = "smuggling-test-operator-key";
const std::string kSmuggled = "GET /metrics HTTP/1.1\r\nHost: svc\r\n\r\n";
const std::string kProbe = "GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n";
constexpr size_t kReadSize = 4096;

struct SmugglingFixture {
    test::TempDir dir;
    test::RunningServer server{dir.path()};
    Tenant tenant;
    std::string secret;

    SmugglingFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"smuggling", SecretHasher::hash(kOperatorKey)}));
    }
    int port() const { return server.server->port(); }
};

// What the connection did with a request whose body held kSmuggled: answered the request once,
// and then either closed or answered the probe; never the smuggled request.
struct Outcome {
    int status = 0;
    bool smuggled = false;  // an answer to GET /metrics came back
    bool answered = false;
    std::string detail;
};

bool isMetrics(const test::RawAnswer& answer) { return answer.header("content-type").find("version=0.0.4") != std::string::npos; }

Outcome sendWithSecondRequestInBody(int port, const std::string& method, const std::string& target, const std::string& headers,
                                    const std::string& body) {
    Outcome outcome;
    RawHttpConnection connection(port);
    // The head is padded to 4096 bytes: cpp-httplib's own stream reads 4096 bytes at a time and
    // dropped what it read beyond a request, so the body must start a read of its own to be seen
    // as a request where the gate is missing.
    std::string head = method + " " + target + " HTTP/1.1\r\nHost: svc\r\n" + headers;
    const std::string padName = "X-Pad: ";
    head += padName + std::string(std::max<size_t>(1, kReadSize - std::min(kReadSize - 1, head.size() + padName.size() + 4)), 'p') + "\r\n\r\n";
    std::string request = head + body;
    if (!connection.send(request)) {
        outcome.detail = "the request could not be sent";
        return outcome;
    }
    auto first = connection.answer(5s, method == "HEAD");
    if (!first) {
        outcome.detail = "no answer";
        return outcome;
    }
    outcome.answered = true;
    outcome.status = first->status;
    if (connection.next(0ms) == RawHttpConnection::Next::Closed) return outcome;
    // Still open: the probe's answer must be the next one (HTTP answers in order).
    if (!connection.send(kProbe)) return outcome;  // closed meanwhile
    auto second = connection.answer(5s);
    if (!second) return outcome;  // closed without a second answer
    if (isMetrics(*second)) {
        outcome.smuggled = true;
        outcome.detail = "the body was answered as a request";
    } else if (second->body != R"({"status":"ok"})") {
        outcome.detail = "the next answer was not the probe's: " + std::to_string(second->status) + " " + second->body;
        outcome.smuggled = true;
    }
    return outcome;
}

// Every path of an OpenAPI document, with its path parameters filled in.
std::vector<std::string> openApiPaths(const std::string& file, const std::string& apiId) {
    std::ifstream in(std::string(SVC_SOURCE_DIR) + "/" + file);
    REQUIRE(in);
    std::vector<std::string> paths;
    std::regex pathLine(R"(^  (/[^:\s]*):\s*$)");
    std::string line;
    while (std::getline(in, line)) {
        std::smatch match;
        if (!std::regex_match(line, match, pathLine)) continue;
        std::string path = match[1];
        path = std::regex_replace(path, std::regex(R"(\{apiId\})"), apiId);
        path = std::regex_replace(path, std::regex(R"(\{kind\})"), "custom");
        path = std::regex_replace(path, std::regex(R"(\{(importId|operatorId)\})"), "1");
        path = std::regex_replace(path, std::regex(R"(\{[^}]+\})"), "x1");
        paths.push_back(path);
    }
    return paths;
}

}  // namespace

TEST_CASE("no route of any method answers a body that holds a second request as that request") {
    SmugglingFixture fixture;
    const std::string& apiId = fixture.tenant.apiId;
    std::vector<std::string> paths = openApiPaths("docs/api/openapi.yaml", apiId);
    std::vector<std::string> operatorPaths = openApiPaths("docs/api/operator.openapi.yaml", apiId);
    REQUIRE(paths.size() >= 25);
    REQUIRE(operatorPaths.size() >= 30);
    paths.insert(paths.end(), operatorPaths.begin(), operatorPaths.end());
    // The routes no OpenAPI document lists: GraphQL, files, pages, previews.
    for (std::string path : std::vector<std::string>{"/graphql", "/sdk/sdk.js", "/demo", "/demo/index.html", "/console", "/console/index.html",
                             "/operator/preview/widget.html", "/set-preview/x1/", "/set-preview/x1/config.js",
                             "/set-preview/x1/" + apiId + "/content", "/set-preview/x1/sdk/sdk.js", "/set-preview/x1/events",
                             "/" + apiId + "/photos/x1.jpg", "/no/such/route"}) {
        paths.push_back(path);
    }
    const std::vector<std::string> methods{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "BREW"};
    int requests = 0;
    std::set<int> statuses;
    for (const auto& path : paths) {
        for (const auto& method : methods) {
            CAPTURE(method);
            CAPTURE(path);
            auto outcome = sendWithSecondRequestInBody(fixture.port(), method, path,
                                                       "Content-Type: application/json\r\nContent-Length: " + std::to_string(kSmuggled.size()) + "\r\n",
                                                       kSmuggled);
            CAPTURE(outcome.detail);
            CHECK(outcome.answered);
            CHECK_FALSE(outcome.smuggled);
            statuses.insert(outcome.status);
            ++requests;
        }
    }
    MESSAGE(requests << " requests; answers with status " << [&] {
        std::ostringstream list;
        for (int status : statuses) list << status << " ";
        return list.str();
    }());
}

TEST_CASE("early answers that need credentials or limits to reach them leave no second request behind") {
    SmugglingFixture fixture;
    const std::string& apiId = fixture.tenant.apiId;
    const std::string tenantHeaders = "x-api-id: " + apiId + "\r\nx-api-secret: " + fixture.secret + "\r\n";
    const std::string operatorHeader = std::string("Authorization: Bearer ") + kOperatorKey + "\r\n";
    const std::string json = "Content-Type: application/json\r\n";
    auto length = [](size_t bytes) { return "Content-Length: " + std::to_string(bytes) + "\r\n"; };

    // A real upload URL, whose signature the bad-signature case then breaks.
    auto client = fixture.server.client();
    std::string uploadRequest = R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})";
    auto upload = client.Post("/feeds/uploads", {{"x-api-id", apiId}, {"x-api-secret", fixture.secret}}, uploadRequest, "application/json");
    REQUIRE(upload);
    REQUIRE(upload->status == 200);
    std::string url = nlohmann::json::parse(upload->body)["url"];
    std::string uploadTarget = url.substr(url.find("/feeds/uploads/"));
    std::string badSignature = uploadTarget.substr(0, uploadTarget.find("&signature=")) + "&signature=" + std::string(64, '0');
    std::string uploadHeaders;
    for (const auto& [name, value] : nlohmann::json::parse(upload->body)["headers"].items()) {
        uploadHeaders += name + ": " + value.get<std::string>() + "\r\n";
    }

    struct Case {
        std::string name;
        std::string method;
        std::string target;
        std::string headers;  // without the body's framing
        std::string framing;  // Content-Length or Transfer-Encoding
        int status;           // the early answer
    };
    const std::string chunked = "Transfer-Encoding: chunked\r\n";
    std::vector<Case> cases{
        {"upload with a bad signature", "PUT", badSignature, uploadHeaders, length(kSmuggled.size()), 403},
        {"upload with a bad signature, chunked", "PUT", badSignature, uploadHeaders, chunked, 403},
        {"feed validation without credentials", "POST", "/feeds/validate?identifier=sku", "", length(kSmuggled.size()), 401},
        {"feed validation with a wrong secret", "POST", "/feeds/validate?identifier=sku", "x-api-id: " + apiId + "\r\nx-api-secret: wrong\r\n",
         length(kSmuggled.size()), 401},
        {"console upload for an unknown tenant", "POST", "/operator/api/tenants/no-such-tenant/imports?identifier=sku", operatorHeader,
         length(kSmuggled.size()), 404},
        {"console upload without a session", "POST", "/operator/api/tenants/" + apiId + "/imports?identifier=sku", "",
         length(kSmuggled.size()), 401},
        {"events for an unknown API ID", "POST", "/events", json + "x-api-id: unknown\r\n", length(kSmuggled.size()), 401},
        {"events without an API ID", "POST", "/events/validate", json, length(kSmuggled.size()), 401},
        {"a body above the request limit (413 before routing)", "POST", "/graphql", json, length(size_t{9} << 20), 413},
        {"a shop registration above its limit (413 before routing)", "PUT", "/shops/" + apiId + "/default", json, length(size_t{1} << 20), 413},
        {"a chunked body where only feed uploads take one (411 before routing)", "POST", "/graphql", json, chunked, 411},
        {"a chunked set import (411 before routing)", "POST", "/sets/import", json + tenantHeaders, chunked, 411},
        {"an unknown method", "BREW", "/healthz", "", length(kSmuggled.size()), 400},
    };
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        // The body starts with the second request: a server that answers early and then reads
        // on would take it as the next request, whatever the declared length.
        auto outcome = sendWithSecondRequestInBody(fixture.port(), testCase.method, testCase.target, testCase.headers + testCase.framing, kSmuggled);
        CAPTURE(outcome.detail);
        REQUIRE(outcome.answered);
        CHECK(outcome.status == testCase.status);
        CHECK_FALSE(outcome.smuggled);
    }
}
