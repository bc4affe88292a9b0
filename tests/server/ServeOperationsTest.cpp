// `svc-server serve` as an operator runs it (issue 19): the real binary. What it logs and whom
// it believes (docs/adr/0069: --log-format json --access-log - --log-level debug --trusted-proxy,
// requests from several loopback addresses, its whole output read back: every line one JSON
// object with a request id, forwarding headers believed from the trusted proxy only, no secret
// in it); /readyz while starting, ready and draining; one server per port.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "OperatorCliRun.hpp"
#include "RawHttpConnection.hpp"
#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::string kProxy = "127.0.0.2";
const std::string kPassword = "correct horse battery staple 19";

std::string readFile(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string runForOutput(const std::vector<std::string>& arguments, const std::string& path) {
    test::ChildProcess child(arguments, path);
    REQUIRE(child.wait() == 0);
    return readFile(path);
}

struct LoggedServer {
    test::TempDir dir;
    std::string out = dir.path() + "/serve.log";
    std::string apiId, apiSecret;
    std::unique_ptr<test::ChildProcess> process;
    int port = 0;

    // The tenant, the operator and the server on the data dir's stores (TestStorage.hpp).
    explicit LoggedServer(std::vector<std::string> extra, const std::string& listen = "127.0.0.1:0") {
        std::string data = dir.path() + "/data";
        auto created = json::parse(runForOutput(test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "tenant", "create", "--data-dir", data,
                                                                                     "--name", "Logged shop"}),
                                                dir.path() + "/tenant.json"));
        apiId = created["apiId"];
        apiSecret = created["apiSecret"];
        REQUIRE(test::runOperatorCli("create", data, "ops@example.com", kPassword).first == 0);
        std::vector<std::string> command{"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", SVC_SERVER_BINARY, "serve", "--data-dir", data,
                                         "--listen", listen, "--no-image-bot"};
        command.insert(command.end(), extra.begin(), extra.end());
        process = std::make_unique<test::ChildProcess>(test::TestStorage::withDatabaseUrl(command), out);
        std::regex listening("listening on http://127\\.0\\.0\\.1:([0-9]+)");
        for (int i = 0; i < 1000 && port == 0; ++i) {
            std::smatch match;
            std::string text = readFile(out);
            if (std::regex_search(text, match, listening)) port = std::stoi(match[1]);
            else std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        REQUIRE(port != 0);
    }
    ~LoggedServer() {
        if (!stopped) {
            process->kill(SIGTERM);
            process->wait();
        }
    }
    bool stopped = false;

    test::RawAnswer send(const std::string& from, const std::string& requestLine, const std::string& headers = "",
                         const std::string& body = "", const std::string& contentType = "application/json") {
        test::RawHttpConnection connection(port, from);
        REQUIRE(connection.connected());
        std::string request = requestLine + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + headers;
        if (!body.empty()) request += "Content-Type: " + contentType + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
        connection.send(request + "\r\n" + body);
        auto answer = connection.answer();
        REQUIRE(answer);
        return *answer;
    }

    // The log as written so far, once it contains `needle`: the server writes a request's access
    // line after answering it, so the answer can arrive first (a fixed pause here failed on a busy
    // machine). The deadline only ends a wait that would never end.
    std::string logOnceItHas(const std::string& needle) const {
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        std::string text = readFile(out);
        while (text.find(needle) == std::string::npos && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            text = readFile(out);
        }
        return text;
    }

    // The server's JSON log lines so far (the listening banner on stdout is not one); a last line
    // still being written (no newline yet) is not one either.
    std::vector<json> entries() const {
        std::vector<json> lines;
        std::string written = readFile(out);
        written.erase(written.rfind('\n') == std::string::npos ? 0 : written.rfind('\n') + 1);
        std::istringstream text(written);
        for (std::string line; std::getline(text, line);) {
            if (line.find("listening on") != std::string::npos || line.find("svc-server: stopping") != std::string::npos) continue;
            auto parsed = json::parse(line, nullptr, false);
            CAPTURE(line);
            REQUIRE_FALSE(parsed.is_discarded());
            lines.push_back(parsed);
        }
        return lines;
    }

    // The request's access line, once written (see logOnceItHas).
    std::optional<json> accessEntryFor(const std::string& requestId) const {
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        do {
            for (const auto& entry : entries()) {
                if (entry.value("message", "") == "request" && entry.value("request_id", "") == requestId) return entry;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        } while (std::chrono::steady_clock::now() < until);
        return std::nullopt;
    }
};

bool isGeneratedId(const std::string& id) { return std::regex_match(id, std::regex("[0-9a-f]{32}")); }

}  // namespace

TEST_CASE("serve: request ids and client addresses, believed from a trusted proxy only, in every answer and access entry") {
    LoggedServer server({"--log-format", "json", "--access-log", "-", "--trusted-proxy", kProxy});
    const std::string forwarded = "X-Forwarded-For: 203.0.113.7\r\nX-Request-Id: edge-abc.123\r\n";

    auto direct = server.send("127.0.0.1", "GET /healthz HTTP/1.1", forwarded);
    CHECK(direct.status == 200);
    CHECK(isGeneratedId(direct.header("x-request-id")));

    auto proxied = server.send(kProxy, "GET /healthz HTTP/1.1", forwarded);
    CHECK(proxied.header("x-request-id") == "edge-abc.123");

    auto badId = server.send(kProxy, "GET /healthz HTTP/1.1", "X-Request-Id: " + std::string(200, 'a') + "\r\n");
    CHECK(isGeneratedId(badId.header("x-request-id")));
    auto spacedId = server.send(kProxy, "GET /healthz HTTP/1.1", "X-Request-Id: a\"b\r\n");
    CHECK(isGeneratedId(spacedId.header("x-request-id")));

    auto directEntry = server.accessEntryFor(direct.header("x-request-id"));
    REQUIRE(directEntry);
    CHECK((*directEntry)["client"] == "127.0.0.1");
    CHECK((*directEntry)["method"] == "GET");
    CHECK((*directEntry)["path"] == "/healthz");
    CHECK((*directEntry)["status"] == 200);
    CHECK((*directEntry)["level"] == "info");
    CHECK((*directEntry)["time"].get<std::string>().size() == 24);
    auto proxiedEntry = server.accessEntryFor("edge-abc.123");
    REQUIRE(proxiedEntry);
    CHECK((*proxiedEntry)["client"] == "203.0.113.7");
}

TEST_CASE("serve: rate limits count the client a trusted proxy names, and a client cannot name itself") {
    LoggedServer server({"--events-rate-limit", "1", "--trusted-proxy", kProxy});
    const std::string event = R"({"type":"click","cid":"c1","widget":"SIMILAR","touchpoint":"product","sku":"A-S"})";
    auto post = [&](const std::string& from, const std::string& client) {
        return server.send(from, "POST /events HTTP/1.1", "x-api-id: " + server.apiId + "\r\nX-Forwarded-For: " + client + "\r\n", event).status;
    };
    // A burst of 4 for one address, then 429.
    int limitedAt = 0;
    for (int i = 1; i <= 8 && !limitedAt; ++i) {
        if (post(kProxy, "198.51.100.1") == 429) limitedAt = i;
    }
    CHECK(limitedAt >= 4);
    CHECK(post(kProxy, "198.51.100.2") != 429);  // another shopper behind the same proxy
    // Directly, a made-up X-Forwarded-For changes nothing: every request counts against 127.0.0.3.
    int directLimitedAt = 0;
    for (int i = 1; i <= 8 && !directLimitedAt; ++i) {
        if (post("127.0.0.3", "198.51.100." + std::to_string(10 + i)) == 429) directLimitedAt = i;
    }
    CHECK(directLimitedAt >= 4);
    CHECK(directLimitedAt <= 6);
}

TEST_CASE("serve: nothing secret reaches the log, at debug level with the access log on") {
    LoggedServer server({"--log-format", "text", "--log-level", "debug", "--access-log", "-"});
    const std::string credentials = "x-api-id: " + server.apiId + "\r\nx-api-secret: " + server.apiSecret + "\r\n";

    auto upload = server.send("127.0.0.1", "POST /feeds/uploads HTTP/1.1", credentials,
                              R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})");
    REQUIRE(upload.status == 200);
    std::string url = json::parse(upload.body)["url"];
    std::string signature = url.substr(url.find("signature=") + 10);
    REQUIRE(signature.size() >= 32);
    std::string target = url.substr(url.find("/feeds/uploads/"));
    std::string uploadHeaders;
    std::string uploadType = "text/csv";
    const json uploadAnswer = json::parse(upload.body);
    for (const auto& [name, value] : uploadAnswer["headers"].items()) {
        if (name == "Content-Type" || name == "content-type") uploadType = value;
        else uploadHeaders += name + ": " + value.get<std::string>() + "\r\n";
    }
    const std::string feed = "sku;name\nA-1;Shirt\n";
    auto uploaded = server.send("127.0.0.1", "PUT " + target + " HTTP/1.1", uploadHeaders, feed, uploadType);
    CAPTURE(uploaded.body);
    CHECK(uploaded.status / 100 == 2);
    server.send("127.0.0.1", "PUT " + target.substr(0, target.find("signature=")) + "signature=" + std::string(64, '0') + " HTTP/1.1",
                "Content-Length: 0\r\n");

    auto wrong = server.send("127.0.0.1", "POST /operator/api/session HTTP/1.1", "",
                             json{{"email", "ops@example.com"}, {"password", kPassword + "-wrong"}}.dump());
    CHECK(wrong.status == 401);
    auto signedIn = server.send("127.0.0.1", "POST /operator/api/session HTTP/1.1", "",
                                json{{"email", "ops@example.com"}, {"password", kPassword}}.dump());
    REQUIRE(signedIn.status == 200);
    std::string cookie = signedIn.header("set-cookie");
    std::string session = cookie.substr(0, cookie.find(';'));
    std::string csrf = json::parse(signedIn.body)["csrfToken"];
    auto rotated = server.send("127.0.0.1", "POST /operator/api/tenants/" + server.apiId + "/secret HTTP/1.1",
                               "Cookie: " + session + "\r\nX-CSRF-Token: " + csrf + "\r\n", "{}");
    REQUIRE(rotated.status == 200);
    std::string newSecret = json::parse(rotated.body).value("apiSecret", "");
    REQUIRE_FALSE(newSecret.empty());

    // The last request's line is written after its answer: the whole log is there once it is.
    std::string log = server.logOnceItHas("POST /operator/api/tenants/" + server.apiId + "/secret 200");
    CHECK(log.find("POST /operator/api/session 200") != std::string::npos);  // the access log was on
    std::string sessionToken = session.substr(session.find('=') + 1);
    for (const std::string& secret : {server.apiSecret, newSecret, kPassword, signature, sessionToken, csrf}) {
        CAPTURE(secret);
        CHECK(log.find(secret) == std::string::npos);
    }
}

TEST_CASE("serve: a log line cannot be forged through a request path, and bad log options are refused naming them") {
    LoggedServer server({"--access-log", "-"});
    server.send("127.0.0.1", "GET /x%0a2026-01-01T00:00:00.000Z%20error%20forged HTTP/1.1");
    std::string log = server.logOnceItHas("/x\\n2026-01-01T00:00:00.000Z error forged");
    CHECK(log.find("\n2026-01-01T00:00:00.000Z error forged") == std::string::npos);
    CHECK(log.find("/x\\n2026-01-01T00:00:00.000Z error forged") != std::string::npos);

    test::TempDir dir;
    for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
             {"--log-level", "loud"}, {"--log-format", "xml"}, {"--trusted-proxy", "10.0.0.0/33"}, {"--access-log", "/nonexistent/dir/access.log"}}) {
        CAPTURE(option);
        std::string out = dir.path() + "/refused.txt";
        test::ChildProcess child({"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", SVC_SERVER_BINARY, "serve", "--data-dir", dir.path() + "/d",
                                  "--listen", "127.0.0.1:0", option, value},
                                 out);
        CHECK(child.wait() != 0);
        CHECK(readFile(out).find(option) != std::string::npos);
    }
}

TEST_CASE("serve: /readyz is 503 while starting, 200 once content is loaded, 503 draining after SIGTERM while requests are served") {
    LoggedServer server({"--drain-seconds", "3"});
    bool ready = false;
    auto startUntil = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!ready && std::chrono::steady_clock::now() < startUntil) {
        auto answer = server.send("127.0.0.1", "GET /readyz HTTP/1.1");
        if (answer.status == 200) {
            ready = true;
            CHECK(json::parse(answer.body)["status"] == "ready");
        } else {
            CHECK(answer.status == 503);
            CHECK(json::parse(answer.body)["status"] == "starting");
            CHECK(answer.header("retry-after") == "1");
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    REQUIRE(ready);

    auto stopAsked = std::chrono::steady_clock::now();
    server.process->kill(SIGTERM);
    // Ready until the signal is handled, then draining (a fixed pause here could ask before the
    // signal was handled on a busy machine); the drain lasts 3 s from then.
    test::RawAnswer draining = server.send("127.0.0.1", "GET /readyz HTTP/1.1");
    while (draining.status == 200 && std::chrono::steady_clock::now() - stopAsked < std::chrono::seconds(3)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        draining = server.send("127.0.0.1", "GET /readyz HTTP/1.1");
    }
    CHECK(draining.status == 503);
    CHECK(json::parse(draining.body)["status"] == "draining");
    CHECK(server.send("127.0.0.1", "GET /healthz HTTP/1.1").status == 200);
    CHECK(server.process->wait() == 0);
    server.stopped = true;
    CHECK(std::chrono::steady_clock::now() - stopAsked >= std::chrono::seconds(3));
}

TEST_CASE("serve: a second server on a port in use fails with a message naming it, the first keeps serving") {
    LoggedServer first({});
    test::TempDir other;
    std::string out = other.path() + "/second.txt";
    std::string listen = "127.0.0.1:" + std::to_string(first.port);
    test::ChildProcess second({"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", SVC_SERVER_BINARY, "serve", "--data-dir", other.path() + "/d",
                               "--listen", listen, "--no-image-bot"},
                              out);
    CHECK(second.wait() != 0);
    CHECK(readFile(out).find("cannot listen on " + listen) != std::string::npos);
    for (int i = 0; i < 20; ++i) CHECK(first.send("127.0.0.1", "GET /healthz HTTP/1.1").status == 200);
}
