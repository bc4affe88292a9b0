// Findings 1 and 2 of issue 18 against the real svc-server with an operator's defaults
// (docs/adr/0057). Slow clients: 200 connections sending one header byte a second kept /healthz
// from answering for the whole minute, since each held one of the 64 worker threads; slow small
// bodies held them the same way. Request smuggling: routes that answered before reading the
// body left it on the connection, where it was parsed as the next request.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "hostile/HostileSupport.hpp"

using namespace svc::hostile;
using namespace std::chrono_literals;

namespace {

std::string address(int block, int host) { return "127.0." + std::to_string(block) + "." + std::to_string(host); }

// The head padded to 4096 bytes, so a server reading 4096 bytes at a time sees the body as a read of its own.
std::string paddedHead(const std::string& requestLine, const std::string& headers) {
    std::string head = requestLine + "\r\nHost: svc\r\n" + headers;
    size_t pad = 4096 - head.size() - std::string("X-Pad: \r\n\r\n").size();
    return head + "X-Pad: " + std::string(pad, 'p') + "\r\n\r\n";
}

const std::string kSecondRequest = "GET /metrics HTTP/1.1\r\nHost: svc\r\n\r\n";

}  // namespace

TEST_CASE("Connections: 200 connections sending a header byte a second leave everyone else served; one address holds at most 256") {
    AttackWindow window;
    int port = window.server().port();
    const std::string head = "GET /healthz HTTP/1.1\r\nHost: svc\r\nX-Slow: " + std::string(100, 'a');
    std::vector<std::unique_ptr<RawClient>> slow;
    for (int i = 0; i < 200; ++i) {
        slow.push_back(std::make_unique<RawClient>(port, address(1, 1 + i % 4)));  // 50 from each of 4 addresses
        REQUIRE(slow.back()->connected());
        slow.back()->send(head.substr(0, 1));
    }
    for (size_t byte = 1; byte <= 3; ++byte) {
        std::this_thread::sleep_for(1s);
        for (auto& client : slow) CHECK(client->send(head.substr(byte, 1)));  // still open: within the 10 s head deadline
    }

    std::vector<std::unique_ptr<RawClient>> oneAddress;
    for (int i = 0; i < 256; ++i) {
        oneAddress.push_back(std::make_unique<RawClient>(port, address(1, 5)));
        oneAddress.back()->send("G");
    }
    RawClient refused(port, address(1, 5));
    std::string answer = refused.receive(2s);
    CHECK(answer.rfind("HTTP/1.1 503", 0) == 0);
    CHECK(answer.find("too many open connections from this address") != std::string::npos);
    window.requireOthersServed();
}

TEST_CASE("Connections: small bodies sent slowly from many connections hold no worker thread") {
    AttackWindow window;
    int port = window.server().port();
    std::string body = R"({"query":"{ __typename }"})";
    body.insert(1, 1000 - body.size(), ' ');
    std::vector<std::unique_ptr<RawClient>> slow;
    for (int i = 0; i < 120; ++i) {  // more than the 64 workers, from two addresses
        slow.push_back(std::make_unique<RawClient>(port, address(2, 1 + i % 2)));
        REQUIRE(slow.back()->connected());
        slow.back()->send("POST /graphql HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, 1));
    }
    for (size_t byte = 1; byte <= 3; ++byte) {
        std::this_thread::sleep_for(1s);
        for (auto& client : slow) client->send(body.substr(byte, 1));
    }
    // Whoever finishes the body is served.
    REQUIRE(slow.front()->send(body.substr(4)));
    std::string answer = slow.front()->receiveAnswers(1);
    CHECK(answer.rfind("HTTP/1.1 200", 0) == 0);
    window.requireOthersServed();
}

TEST_CASE("Smuggling: an early answer leaves no second request on the connection") {
    AttackWindow window;
    auto& server = window.server();
    const auto& tenant = server.tenantB();
    httplib::Client client("127.0.0.1", server.port());
    std::string uploadRequest = R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})";
    auto upload = client.Post("/feeds/uploads", {{"x-api-id", tenant.apiId}, {"x-api-secret", tenant.apiSecret}}, uploadRequest,
                              "application/json");
    REQUIRE(upload);
    REQUIRE(upload->status == 200);
    auto uploadJson = nlohmann::json::parse(upload->body);
    std::string url = uploadJson["url"];
    std::string target = url.substr(url.find("/feeds/uploads/"));
    target = target.substr(0, target.find("&signature=")) + "&signature=" + std::string(64, '0');
    std::string headers;
    for (const auto& [name, value] : uploadJson["headers"].items()) headers += name + ": " + value.get<std::string>() + "\r\n";

    struct Case {
        std::string name;
        std::string head;
    };
    std::string length = "Content-Length: " + std::to_string(kSecondRequest.size()) + "\r\n";
    std::vector<Case> cases{
        {"an upload with a bad signature", paddedHead("PUT " + target + " HTTP/1.1", headers + length)},
        {"feed validation without credentials", paddedHead("POST /feeds/validate?identifier=sku HTTP/1.1", length)},
        {"a GET with a body", paddedHead("GET /healthz HTTP/1.1", length)},
        {"a body above the limit, refused before routing", paddedHead("POST /graphql HTTP/1.1", "Content-Length: 9437184\r\n")},
    };
    int host = 1;
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        RawClient attacker(server.port(), address(3, host++));
        REQUIRE(attacker.connected());
        attacker.send(testCase.head);
        std::this_thread::sleep_for(50ms);  // the body arrives as a read of its own
        attacker.send(kSecondRequest);
        std::string received = attacker.receive(1s);
        CHECK(RawClient::completeAnswers(received) == 1);
        CHECK(received.find("svc_http_requests_total") == std::string::npos);
        CHECK(attacker.closedByServer());
    }
    window.requireOthersServed();
}

// "Test all routes": the rule is the gate's, whatever answers, so every route family (one path
// each, shaped like the registrations in native-server/http) is sent every method with a body
// holding a second request. Most answer before reading it (401, 404, 405, 400); none may
// answer the body as a request of its own.
TEST_CASE("Smuggling: every route and method, answered early or not, answers one request per request") {
    AttackWindow window;
    auto& server = window.server();
    const std::string apiId = server.tenantB().apiId;
    const std::string tenantApi = "/operator/api/tenants/" + apiId;
    const std::vector<std::string> paths{
        "/healthz", "/metrics", "/" + apiId + "/loader.js", "/" + apiId + "/content", "/" + apiId + "/widgets.css",
        "/sdk/svc-sdk.js", "/graphql", "/imagebot", "/demo", "/demo/index.html", "/events", "/feeds/uploads",
        "/feeds/uploads/0123abcd", "/feeds/imports", "/feeds/imports/7", "/feeds/imports/7/confirm", "/feeds/imports/7/discard",
        "/feeds/validate", "/operator/api/operators", "/operator/api/operators/3", "/operator/api/me/password",
        "/operator/api/feeds", tenantApi + "/feeds", tenantApi + "/pull-sources", tenantApi + "/pull-sources/1",
        tenantApi + "/pull-sources/1/pull", tenantApi + "/imports", tenantApi + "/catalog-size", tenantApi + "/performance",
        tenantApi + "/performance/ledger.csv", "/operator/api/session", "/operator/api/me", "/operator/api/tenants", tenantApi,
        tenantApi + "/secret", tenantApi + "/disable", tenantApi + "/enable", tenantApi + "/widgets", tenantApi + "/widgets/preview",
        tenantApi + "/imports/4/errors.csv", tenantApi + "/imports/4/confirm", tenantApi + "/imports/4/discard",
        "/operator/api/shops", "/console", "/console/index.html", tenantApi + "/sets/custom", "/events/validate", "/set-preview/tok/", "/set-preview/tok/config.js",
        tenantApi + "/sets/photo/s1", tenantApi + "/sets/photos", tenantApi + "/sets/previews", tenantApi + "/catalog/search",
        "/operator/api/templates", "/operator/api/templates/t1", "/" + apiId + "/photos/p1.jpg", "/operator/preview/widget.html",
        "/reports/summary", "/reports/ledger", "/orders/EVIL-1", "/orders/EVIL-1/returns", "/sets/custom",
        "/sets/photo/s1", "/sets/import", "/content-pool/templates", "/content-pool/templates/t1",
        "/content-pool/import", "/shops/plugin/shop-1", "/" + apiId + "/thumbs/t1.jpg", "/no/such/route"};
    const std::vector<std::string> methods{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
    const std::string length = "Content-Length: " + std::to_string(kSecondRequest.size()) + "\r\n";

    struct Attempt {
        std::string request;
        std::unique_ptr<RawClient> client;
    };
    std::vector<Attempt> attempts;
    int block = 10;
    for (const auto& method : methods) {
        int host = 1;
        for (const auto& path : paths) {
            Attempt attempt{method + " " + path, std::make_unique<RawClient>(server.port(), address(block, host++))};
            REQUIRE(attempt.client->connected());
            attempt.client->send(method + " " + path + " HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\n" + length + "\r\n");
            attempt.client->send(kSecondRequest);
            attempts.push_back(std::move(attempt));
        }
        ++block;
    }
    std::this_thread::sleep_for(1500ms);
    int early = 0;
    for (auto& attempt : attempts) {
        CAPTURE(attempt.request);
        std::string received = attempt.client->receive(20ms);
        CHECK(RawClient::completeAnswers(received) == 1);
        if (attempt.client->closedByServer()) ++early;
    }
    MESSAGE(attempts.size() << " requests with a second request as their body; " << early << " closed after an early answer");
    window.requireOthersServed();
}
