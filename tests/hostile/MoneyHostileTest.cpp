// Findings 1 and 2 of issue 18 against the real binary with an operator's defaults
// (docs/adr/0055, 0056). One poisoned purchase (each field within its limit, price x amount x
// basis points beyond 64 bits) stopped commission booking and made every tenant's reports
// answer 500, for good; anyone with the public API ID could pre-claim the shop's next order
// number. Attacks come from their own loopback addresses, the shop's backend and reports from
// 127.0.0.1.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "hostile/HostileSupport.hpp"

using namespace svc::hostile;
using nlohmann::json;

namespace {

struct Answer {
    int status = 0;
    std::string head;
    std::string body;
    std::string header(const std::string& name) const {
        std::string lower;
        for (char c : head) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        size_t at = lower.find("\r\n" + name + ": ");
        if (at == std::string::npos) return "";
        size_t start = at + 4 + name.size();
        return head.substr(start, head.find("\r\n", start) - start);
    }
};

// One request from `from` on a connection of its own, as a browser on another network would.
Answer request(int port, const std::string& from, const std::string& method, const std::string& target, const std::string& apiId,
               const std::string& body, const std::string& secret = "") {
    RawClient client(port, from);
    REQUIRE(client.connected());
    std::string bytes = method + " " + target + " HTTP/1.1\r\nHost: svc\r\nConnection: close\r\nx-api-id: " + apiId + "\r\n";
    if (!secret.empty()) bytes += "x-api-secret: " + secret + "\r\n";
    bytes += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    REQUIRE(client.send(bytes));
    std::string received = client.receiveAnswers(1);
    Answer answer;
    size_t headEnd = received.find("\r\n\r\n");
    REQUIRE(headEnd != std::string::npos);
    answer.head = received.substr(0, headEnd);
    answer.body = received.substr(headEnd + 4);
    answer.status = std::stoi(received.substr(9, 3));
    return answer;
}

json purchase(const std::string& orderId, const std::string& cid, const json& products) {
    json body{{"customerid", "anonymous"}, {"orderid", orderId}, {"products", products}};
    if (!cid.empty()) body["cid"] = cid;
    return body;
}

json click(const std::string& cid, const std::string& sku) {
    return {{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", sku}};
}

json summaryOf(HostileServer& server) {
    const auto& b = server.tenantB();
    auto answer = request(server.port(), "127.0.0.1", "GET", "/reports/summary", b.apiId, "", b.apiSecret);
    REQUIRE_MESSAGE(answer.status == 200, answer.body);
    return json::parse(answer.body);
}

}  // namespace

TEST_CASE("Money: the poisoned purchase is refused naming the line and the limit; booking and every report go on") {
    AttackWindow window;
    auto& server = window.server();
    const std::string b = server.tenantB().apiId;
    const std::string attacker = "127.0.0.40";
    REQUIRE(request(server.port(), attacker, "POST", "/events", b, click("evil-1", "ANY").dump()).status == 200);
    json poisoned = purchase("EVIL-1", "evil-1", {{{"sku", "ANY"}, {"amount", 1'000'000}, {"price", 1'000'000'000'000}}});
    auto refused = request(server.port(), attacker, "POST", "/events", b, poisoned.dump());
    CHECK(refused.status == 400);
    json problem = json::parse(refused.body)["error"]["problems"][0];
    CHECK(problem["path"] == "products[0]");
    CHECK(problem["expected"] == "price x amount of at most 1000000000000 cents");
    // The demo tenant's shoppers and B's own go on being booked; B's report answers at once.
    REQUIRE(request(server.port(), "127.0.0.41", "POST", "/events", server.demo().apiId,
                    purchase("DEMO-MONEY-1", "demo-shopper", {{{"sku", server.firstSku()}, {"amount", 1}, {"price", 1999}}}).dump())
                .status == 200);
    REQUIRE(request(server.port(), "127.0.0.41", "POST", "/events", b, click("b-shopper-1", "SHOE").dump()).status == 200);
    REQUIRE(request(server.port(), "127.0.0.41", "POST", "/events", b,
                    purchase("B-MONEY-1", "b-shopper-1", {{{"sku", "SHOE"}, {"amount", 1}, {"price", 10000}}}).dump())
                .status == 200);
    auto started = std::chrono::steady_clock::now();
    json summary = summaryOf(server);
    MESSAGE("tenant B's /reports/summary: 200 in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() * 1000
                                                   << " ms");
    CHECK(summary["total"]["commission"].get<int64_t>() >= 500);  // B-MONEY-1: 5 % of 100.00
    CHECK(summary["notBooked"]["count"] == 0);
    window.requireOthersServed();
}

TEST_CASE("Money: a pre-claimed order id keeps the real order as a conflict; the shop's backend settles it with its secret") {
    AttackWindow window;
    auto& server = window.server();
    const auto& b = server.tenantB();
    REQUIRE(request(server.port(), "127.0.0.42", "POST", "/events", b.apiId, click("pre-claimer", "FAKE").dump()).status == 200);
    auto preClaim = request(server.port(), "127.0.0.42", "POST", "/events", b.apiId,
                            purchase("H-100046", "pre-claimer", {{{"sku", "FAKE"}, {"amount", 1}, {"price", 100000}}}).dump());
    CHECK(preClaim.status == 200);
    json real = purchase("H-100046", "real-shopper", {{{"sku", "SHOE"}, {"amount", 1}, {"price", 8999}}});
    auto realClaim = request(server.port(), "127.0.0.43", "POST", "/events", b.apiId, real.dump());
    CHECK(realClaim.status == 200);
    CHECK(json::parse(realClaim.body)["conflict"] == true);
    CHECK(json::parse(realClaim.body)["duplicate"] == false);
    // A browser cannot settle it: only the secret can.
    json confirm{{"status", "confirmed"}, {"products", real["products"]}};
    CHECK(request(server.port(), "127.0.0.42", "PUT", "/orders/H-100046", b.apiId, confirm.dump()).status == 401);
    auto settled = request(server.port(), "127.0.0.1", "PUT", "/orders/H-100046", b.apiId, confirm.dump(), b.apiSecret);
    REQUIRE_MESSAGE(settled.status == 200, settled.body);
    json order = json::parse(settled.body);
    CHECK(order["state"] == "confirmed");
    CHECK(order["claims"][0]["status"] == "conflict");
    CHECK(order["claims"][1]["status"] == "agrees");
    CHECK(summaryOf(server)["conflicts"].get<int64_t>() >= 1);
    window.requireOthersServed();
}

TEST_CASE("Money: a flood of purchases from one address is refused with 429 and Retry-After past its burst of 60") {
    AttackWindow window;
    auto& server = window.server();
    std::vector<int> statuses;
    Answer last;
    for (int i = 0; i < 70; ++i) {
        last = request(server.port(), "127.0.0.44", "POST", "/events", server.tenantB().apiId,
                       purchase("FLOOD-" + std::to_string(i), "", {{{"sku", "X"}, {"amount", 1}, {"price", 100}}}).dump());
        statuses.push_back(last.status);
    }
    // 60 at once, and one more a second while the flood lasts.
    auto accepted = std::count(statuses.begin(), statuses.end(), 200);
    CHECK(accepted >= 60);
    CHECK(accepted < 60 + 1 + static_cast<long>(window.seconds()));
    CHECK(statuses.back() == 429);
    CHECK(std::stoi(last.header("retry-after")) >= 1);
    CHECK(json::parse(last.body)["error"]["message"].get<std::string>().rfind("[svc.limit.302] too many purchases from this address; retry after ", 0) == 0);
    // Another address is not affected.
    CHECK(request(server.port(), "127.0.0.45", "POST", "/events", server.tenantB().apiId,
                  purchase("FLOOD-OTHER", "", {{{"sku", "X"}, {"amount", 1}, {"price", 100}}}).dump())
              .status == 200);
    window.requireOthersServed();
}
