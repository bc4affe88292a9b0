// The connection gate (issue 18, docs/adr/0057) on a real svc-server: slow request heads and
// bodies, idle keep-alive connections and one greedy client address no longer keep the server
// from answering others; framing that two parsers could read differently is refused. The
// server runs with 4 worker threads (RunningServer), so a handful of bad connections would
// have taken every one of them before the gate.
#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "RawHttpConnection.hpp"
#include "ServerFixture.hpp"
#include "http/ClientConnection.hpp"
#include "http/GatedServer.hpp"
#include "net/TrustedProxies.hpp"

using namespace svc;
using namespace std::chrono_literals;
using test::RawHttpConnection;

namespace {

struct GateFixture {
    test::TempDir dir;
    test::RunningServer server;
    explicit GateFixture(ConnectionLimits limits = {}) : server(dir.path(), nullptr, withLimits(limits)) {}
    int port() const { return server.server->port(); }

    static ServerOptions withLimits(ConnectionLimits limits) {
        ServerOptions options;
        options.connections = limits;
        return options;
    }
};

double millisecondsSince(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

// /healthz from a client address of its own: how long the answer took, or -1 when none came in 3 s.
double healthzMilliseconds(int port, const std::string& from = "127.0.0.1") {
    auto started = std::chrono::steady_clock::now();
    RawHttpConnection probe(port, from);
    if (!probe.connected() || !probe.send("GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n")) return -1;
    auto answer = probe.answer(3s);
    if (!answer || answer->status != 200) return -1;
    return millisecondsSince(started);
}

std::string graphqlHead(size_t contentLength) {
    return "POST /graphql HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(contentLength) +
           "\r\n\r\n";
}

// A GraphQL body padded with spaces to exactly `size` bytes.
std::string graphqlBody(size_t size) {
    std::string body = R"({"query":"{ __typename }"})";
    body.insert(1, size - body.size(), ' ');
    return body;
}

}  // namespace

TEST_CASE("200 connections sending a header byte every 250 ms do not keep /healthz from answering; each gets 408 at the head deadline") {
    ConnectionLimits limits;
    limits.headTimeout = 2s;
    GateFixture fixture(limits);
    const std::string head = "GET /healthz HTTP/1.1\r\nHost: svc\r\nX-Slow: " + std::string(100, 'a');
    std::vector<std::unique_ptr<RawHttpConnection>> slow;
    for (int i = 0; i < 200; ++i) {
        // Four client addresses: the 64 connections one address may hold are not what this tests.
        slow.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0." + std::to_string(10 + i % 4)));
        REQUIRE(slow.back()->connected());
    }
    auto attackStarted = std::chrono::steady_clock::now();
    std::vector<double> latencies;
    for (size_t byte = 0; millisecondsSince(attackStarted) < 1500; ++byte) {
        for (auto& connection : slow) connection->send(head.substr(byte, 1));
        latencies.push_back(healthzMilliseconds(fixture.port()));
        std::this_thread::sleep_for(250ms);
    }
    for (double latency : latencies) {
        INFO("healthz during the attack: " << latency << " ms (-1: no answer in 3 s)");
        CHECK(latency >= 0);
        CHECK(latency < 500);
    }
    // The head deadline: none of them completed its head in 2 s.
    int refused = 0;
    for (auto& connection : slow) {
        auto answer = connection->answer(3s);
        if (answer && answer->status == 408 && connection->next(1s) == RawHttpConnection::Next::Closed) ++refused;
    }
    CHECK(refused == 200);
    CHECK(millisecondsSince(attackStarted) < 6000);
}

TEST_CASE("idle keep-alive connections hold no worker thread and stay usable") {
    GateFixture fixture;
    std::vector<std::unique_ptr<RawHttpConnection>> idle;
    for (int i = 0; i < 8; ++i) {  // twice the server's 4 workers
        idle.push_back(std::make_unique<RawHttpConnection>(fixture.port()));
        REQUIRE(idle.back()->send("GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n"));
        auto answer = idle.back()->answer();
        REQUIRE(answer);
        CHECK(answer->status == 200);
        CHECK(answer->header("keep-alive") == "timeout=30, max=100000");
    }
    std::this_thread::sleep_for(50ms);
    double latency = healthzMilliseconds(fixture.port());
    INFO("healthz with 8 idle keep-alive connections open: " << latency << " ms");
    CHECK(latency >= 0);
    CHECK(latency < 500);
    std::this_thread::sleep_for(1s);
    for (auto& connection : idle) {
        REQUIRE(connection->send("GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n"));
        auto again = connection->answer();
        REQUIRE(again);
        CHECK(again->status == 200);
    }
}

TEST_CASE("a request body that trickles is cut off at its deadline with 408; one at the minimum rate is served") {
    ConnectionLimits limits;
    limits.bodyTimeout = 1s;
    limits.minBodyBytesPerSecond = 1000;
    GateFixture fixture(limits);

    RawHttpConnection trickle(fixture.port());
    REQUIRE(trickle.send(graphqlHead(100000)));
    auto started = std::chrono::steady_clock::now();
    std::optional<test::RawAnswer> answer;
    // 100 bytes a second: the allowance (1 s plus 1 s per 1000 bytes) runs out after about 1.1 s.
    while (!answer && millisecondsSince(started) < 4000) {
        trickle.send(std::string(10, ' '));
        answer = trickle.answer(100ms);
    }
    REQUIRE(answer);
    CHECK(answer->status == 408);
    CHECK(nlohmann::json::parse(answer->body)["error"]["message"].get<std::string>().find("too slowly") != std::string::npos);
    CHECK(millisecondsSince(started) < 2500);
    CHECK(trickle.next(3s) == RawHttpConnection::Next::Closed);

    // 3000 bytes in three parts half a second apart: slow, but within its allowance.
    RawHttpConnection steady(fixture.port());
    std::string body = graphqlBody(3000);
    REQUIRE(steady.send(graphqlHead(body.size())));
    for (size_t part = 0; part < 3; ++part) {
        std::this_thread::sleep_for(500ms);
        REQUIRE(steady.send(body.substr(part * 1000, 1000)));
    }
    auto served = steady.answer();
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->body == R"({"data":{"__typename":"Query"},"extensions":{"version":"2.3.0"}})");
}

TEST_CASE("small bodies sent slowly are awaited without a worker and cut off at their deadline") {
    ConnectionLimits limits;
    limits.bodyTimeout = 1s;
    limits.minBodyBytesPerSecond = 1000;
    GateFixture fixture(limits);
    std::string body = graphqlBody(1000);
    std::vector<std::unique_ptr<RawHttpConnection>> slow;
    for (int i = 0; i < 20; ++i) {  // five times the server's 4 workers
        slow.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0." + std::to_string(50 + i % 2)));
        REQUIRE(slow.back()->send(graphqlHead(body.size()) + body.substr(0, 1)));
    }
    auto started = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(200ms);
    double latency = healthzMilliseconds(fixture.port());
    INFO("healthz with 20 small bodies arriving slowly: " << latency << " ms");
    CHECK(latency >= 0);
    CHECK(latency < 500);
    // One of them completes its body: it is served. The others get 408 after 1 s + 1000 bytes at 1000 B/s.
    REQUIRE(slow.front()->send(body.substr(1)));
    auto served = slow.front()->answer();
    REQUIRE(served);
    CHECK(served->status == 200);
    for (size_t i = 1; i < slow.size(); ++i) {
        auto answer = slow[i]->answer(5s);
        REQUIRE(answer);
        CHECK(answer->status == 408);
        CHECK(nlohmann::json::parse(answer->body)["error"]["message"].get<std::string>().find("1 of 1000 bytes arrived") != std::string::npos);
        CHECK(slow[i]->next(3s) == RawHttpConnection::Next::Closed);
    }
    double seconds = millisecondsSince(started) / 1000;
    CHECK(seconds > 1.8);
    CHECK(seconds < 3.5);
}

TEST_CASE("one client address gets a share of the workers: its slow bodies wait their turn, others are answered at once") {
    ConnectionLimits limits;
    limits.maxWorkersPerAddress = 2;
    limits.bodyTimeout = 30s;
    GateFixture fixture(limits);
    std::string body = graphqlBody(20000);  // above awaitedBodyBytes: read by the worker
    std::vector<std::unique_ptr<RawHttpConnection>> greedy;
    for (int i = 0; i < 6; ++i) {  // more than the server's 4 workers
        greedy.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0.20"));
        REQUIRE(greedy.back()->send(graphqlHead(body.size()) + body.substr(0, 1)));
    }
    std::this_thread::sleep_for(200ms);
    double latency = healthzMilliseconds(fixture.port());
    INFO("healthz while one address holds 6 slow bodies: " << latency << " ms");
    CHECK(latency >= 0);
    CHECK(latency < 500);
    // Every waiting request is served once its body is complete.
    for (auto& connection : greedy) REQUIRE(connection->send(body.substr(1)));
    for (auto& connection : greedy) {
        auto answer = connection->answer(5s);
        REQUIRE(answer);
        CHECK(answer->status == 200);
    }
}

TEST_CASE("a connection busy with back-to-back requests does not starve its address's other requests") {
    ConnectionLimits limits;
    limits.maxWorkersPerAddress = 1;
    GateFixture fixture(limits);
    std::atomic<bool> busy{true};
    std::atomic<int> served{0};
    std::thread hammer([&] {
        RawHttpConnection connection(fixture.port(), "127.0.0.40");
        while (busy && connection.send("GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n") && connection.answer()) ++served;
    });
    while (served < 20) std::this_thread::sleep_for(1ms);
    // The worker would serve the hammering connection's next request forever while this one waits its turn.
    double latency = healthzMilliseconds(fixture.port(), "127.0.0.40");
    busy = false;
    hammer.join();
    INFO("healthz from the busy address: " << latency << " ms");
    CHECK(latency >= 0);
    CHECK(latency < 500);
}

TEST_CASE("connections per client address are limited: idle ones make room, busy ones do not") {
    ConnectionLimits limits;
    limits.maxConnectionsPerAddress = 8;
    GateFixture fixture(limits);

    std::vector<std::unique_ptr<RawHttpConnection>> busy;
    for (int i = 0; i < 8; ++i) {
        busy.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0.30"));
        REQUIRE(busy.back()->send("GET /healthz HTTP/1.1\r\n"));  // a head on its way
    }
    std::this_thread::sleep_for(100ms);
    RawHttpConnection ninth(fixture.port(), "127.0.0.30");
    auto refused = ninth.answer(2s);
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(nlohmann::json::parse(refused->body)["error"]["code"] == "UNAVAILABLE");
    CHECK(ninth.next(1s) == RawHttpConnection::Next::Closed);
    CHECK(healthzMilliseconds(fixture.port(), "127.0.0.31") >= 0);  // another address is not affected

    std::vector<std::unique_ptr<RawHttpConnection>> idle;
    for (int i = 0; i < 8; ++i) {
        idle.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0.32"));
        REQUIRE(idle.back()->send("GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n"));
        REQUIRE(idle.back()->answer());
        std::this_thread::sleep_for(10ms);  // an order of idleness
    }
    CHECK(healthzMilliseconds(fixture.port(), "127.0.0.32") >= 0);  // the oldest idle one was closed for it
    CHECK(idle.front()->next(1s) == RawHttpConnection::Next::Closed);
    for (size_t i = 1; i < idle.size(); ++i) CHECK(idle[i]->next(10ms) == RawHttpConnection::Next::Silent);
}

TEST_CASE("a trusted proxy's connections and workers are not limited per address; other addresses still are") {
    ConnectionLimits limits;
    limits.maxConnectionsPerAddress = 8;
    limits.maxWorkersPerAddress = 1;
    auto proxies = TrustedProxies::parse({"127.0.0.40"});
    REQUIRE(proxies);
    ServerOptions options = GateFixture::withLimits(limits);
    options.trustedProxies = *proxies;  // as `serve --trusted-proxy 127.0.0.40` sets it
    test::TempDir dir;
    test::RunningServer server(dir.path(), nullptr, options);
    struct {
        test::RunningServer& server;
        int port() const { return server.server->port(); }
    } fixture{server};

    std::vector<std::unique_ptr<RawHttpConnection>> throughProxy;
    for (int i = 0; i < 24; ++i) {
        throughProxy.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0.40"));
        REQUIRE(throughProxy.back()->send("GET /healthz HTTP/1.1\r\n"));  // heads on their way, as slow shoppers' behind nginx
    }
    std::this_thread::sleep_for(100ms);
    for (auto& connection : throughProxy) REQUIRE(connection->send("Host: svc\r\n\r\n"));
    for (auto& connection : throughProxy) {
        auto answer = connection->answer(2s);
        REQUIRE(answer);
        CHECK(answer->status == 200);
    }

    std::vector<std::unique_ptr<RawHttpConnection>> direct;
    for (int i = 0; i < 8; ++i) {
        direct.push_back(std::make_unique<RawHttpConnection>(fixture.port(), "127.0.0.41"));
        REQUIRE(direct.back()->send("GET /healthz HTTP/1.1\r\n"));
    }
    std::this_thread::sleep_for(100ms);
    RawHttpConnection ninth(fixture.port(), "127.0.0.41");
    auto refused = ninth.answer(2s);
    REQUIRE(refused);
    CHECK(refused->status == 503);
}

TEST_CASE("a request head above the size limit gets 431 and the connection closes") {
    GateFixture fixture;
    RawHttpConnection connection(fixture.port());
    std::string head = "GET /healthz HTTP/1.1\r\nHost: svc\r\n";
    for (int i = 0; i < 40; ++i) head += "X-Filler-" + std::to_string(i) + ": " + std::string(1000, 'f') + "\r\n";
    connection.send(head + "\r\n");
    auto answer = connection.answer();
    REQUIRE(answer);
    CHECK(answer->status == 431);
    CHECK(connection.next(3s) == RawHttpConnection::Next::Closed);
}

TEST_CASE("framing that parsers could read differently is refused with 400 and the connection closes") {
    GateFixture fixture;
    const std::string smuggled = "GET /metrics HTTP/1.1\r\nHost: svc\r\n\r\n";
    const std::string post = "POST /graphql HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\n";
    struct Case {
        std::string name;
        std::string request;
        std::string message;  // part of the error's message
    };
    std::vector<Case> cases{
        {"Content-Length with Transfer-Encoding",
         post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled, "together with transfer-encoding"},
        {"two Content-Lengths", post + "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}" + smuggled, "given twice"},
        {"two Transfer-Encodings", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "given twice"},
        {"Content-Length with a sign", post + "Content-Length: +2\r\n\r\n{}", "not a byte count"},
        {"Content-Length in hex", post + "Content-Length: 0x2\r\n\r\n{}", "not a byte count"},
        {"Content-Length as a list", post + "Content-Length: 2, 2\r\n\r\n{}", "not a byte count"},
        {"Content-Length URL-encoded", post + "Content-Length: %32\r\n\r\n{}", "not a byte count"},
        {"a transfer coding other than chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "only chunked"},
        {"chunked URL-encoded", post + "Transfer-Encoding: %63hunked\r\n\r\n0\r\n\r\n", "only chunked"},
        {"whitespace before the colon", post + "Transfer-Encoding : chunked\r\nContent-Length: 2\r\n\r\n{}", "character a name cannot have"},
        {"a folded header line", post + "X-Folded: a\r\n b\r\nContent-Length: 2\r\n\r\n{}", "folded"},
        {"a bare LF inside the head", post + "Content-Length: 2\nTransfer-Encoding: chunked\r\n\r\n{}", "CR or LF alone"},
        {"a header line without a colon", post + "Content-Length 2\r\n\r\n{}", "without ':'"},
    };
    for (const auto& testCase : cases) {
        CAPTURE(testCase.name);
        RawHttpConnection connection(fixture.port());
        REQUIRE(connection.send(testCase.request));
        auto answer = connection.answer();
        REQUIRE(answer);
        CHECK(answer->status == 400);
        CHECK(nlohmann::json::parse(answer->body)["error"]["message"].get<std::string>().find(testCase.message) != std::string::npos);
        CHECK(connection.next(3s) == RawHttpConnection::Next::Closed);
    }
}

TEST_CASE("pipelined requests after a body are answered in order on one connection") {
    GateFixture fixture;
    RawHttpConnection connection(fixture.port());
    std::string body = R"({"query":"{ __typename }"})";
    std::string pipelined = "POST /graphql HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: " +
                            std::to_string(body.size()) + "\r\n\r\n" + body +
                            "GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n"
                            "\r\n"  // a stray line end between requests, as some clients send after a body
                            "HEAD /healthz HTTP/1.1\r\nHost: svc\r\n\r\n";
    REQUIRE(connection.send(pipelined));
    auto graphql = connection.answer();
    REQUIRE(graphql);
    CHECK(graphql->status == 200);
    CHECK(graphql->body == R"({"data":{"__typename":"Query"},"extensions":{"version":"2.3.0"}})");
    auto health = connection.answer();
    REQUIRE(health);
    CHECK(health->body == R"({"status":"ok"})");
    auto head = connection.answer(5s, true);
    REQUIRE(head);
    CHECK(head->status == 200);
    CHECK(connection.next(100ms) == RawHttpConnection::Next::Silent);  // still open
}

// The gate on its own, with handlers of the test's: chunked framing and "has the client gone?".
namespace {

struct BareGate {
    GatedServer server;
    std::thread thread;
    int port = 0;

    explicit BareGate(ConnectionLimits limits = {}) : server(limits, 4) {
        port = server.bind_to_any_port("127.0.0.1");
        thread = std::thread([this] { server.serve(); });
        while (!server.is_running()) std::this_thread::sleep_for(1ms);
    }
    ~BareGate() {
        server.stop();
        thread.join();
    }
};

}  // namespace

// A burst of connections before the accept loop runs (a restarted node that a balancer sends
// traffic to at once, an attack at start-up) waits in the kernel's queue: with cpp-httplib's
// backlog of 5 the rest of the burst's handshakes were dropped and retried a second later.
TEST_CASE("200 connections made between bind and serve all complete their handshake at once") {
    GatedServer server(ConnectionLimits{}, 4);
    int port = server.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    std::vector<int> sockets;
    for (int i = 0; i < 200; ++i) {
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in remote{};
        remote.sin_family = AF_INET;
        remote.sin_port = htons(static_cast<uint16_t>(port));
        ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
        (void)::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote);
        sockets.push_back(fd);
    }
    // A handshake on loopback takes microseconds; a dropped one is retried only after a second.
    int established = 0;
    for (int fd : sockets) {
        pollfd writable{fd, POLLOUT, 0};
        int error = -1;
        socklen_t length = sizeof error;
        if (::poll(&writable, 1, 300) == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) ++established;
        ::close(fd);
    }
    CHECK(established == 200);
}

TEST_CASE("a chunked body is read to its last chunk and the next request follows on the connection") {
    BareGate gate;
    gate.server.Post("/echo", [](const httplib::Request&, httplib::Response& response, const httplib::ContentReader& reader) {
        std::string received;
        bool whole = reader([&](const char* data, size_t size) {
            received.append(data, size);
            return true;
        });
        response.set_content(whole ? received : "broken", "text/plain");
    });
    gate.server.Get("/after", [](const httplib::Request&, httplib::Response& response) { response.set_content("after", "text/plain"); });
    RawHttpConnection connection(gate.port);
    REQUIRE(connection.send("POST /echo HTTP/1.1\r\nHost: gate\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n"
                            "GET /after HTTP/1.1\r\nHost: gate\r\n\r\n"));
    auto echoed = connection.answer();
    REQUIRE(echoed);
    CHECK(echoed->body == "hello, world");
    auto after = connection.answer();
    REQUIRE(after);
    CHECK(after->body == "after");
    CHECK(connection.next(100ms) == RawHttpConnection::Next::Silent);

    // A chunk size that is not hex: the body has no end to trust, so the connection closes.
    RawHttpConnection broken(gate.port);
    REQUIRE(broken.send("POST /echo HTTP/1.1\r\nHost: gate\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "zz\r\nhello\r\n0\r\n\r\nGET /after HTTP/1.1\r\nHost: gate\r\n\r\n"));
    auto refused = broken.answer();
    REQUIRE(refused);
    CHECK(refused->body == "broken");
    CHECK(refused->header("connection") == "close");
    CHECK(broken.next(3s) == RawHttpConnection::Next::Closed);
}

TEST_CASE("ClientConnection tells a handler that its client has gone") {
    BareGate gate;
    std::atomic<int> goneAfterMs{-1};
    std::atomic<bool> stayedBeforeClose{false};
    gate.server.Get("/work", [&](const httplib::Request&, httplib::Response& response) {
        ClientConnection client = ClientConnection::current();
        auto started = std::chrono::steady_clock::now();
        stayedBeforeClose = !client.gone();
        // Long work with checkpoints, as GraphQL execution would ask in its cancellation callback.
        while (!client.gone() && millisecondsSince(started) < 5000) std::this_thread::sleep_for(5ms);
        if (client.gone()) goneAfterMs = static_cast<int>(millisecondsSince(started));
        response.set_content("done", "text/plain");
    });
    {
        RawHttpConnection connection(gate.port);
        REQUIRE(connection.send("GET /work HTTP/1.1\r\nHost: gate\r\n\r\n"));
        std::this_thread::sleep_for(300ms);
    }  // the client gives up and closes
    for (int i = 0; i < 200 && goneAfterMs < 0; ++i) std::this_thread::sleep_for(10ms);
    CHECK(stayedBeforeClose);
    CHECK(goneAfterMs >= 250);
    CHECK(goneAfterMs < 1000);
    CHECK_FALSE(ClientConnection::current().gone());  // outside a request: never gone
}
