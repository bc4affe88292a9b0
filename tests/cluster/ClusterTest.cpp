// The cluster suite (issue 24, docs/adr/0091): three real svc-server nodes on one PostgreSQL
// database, haproxy in front of them with the shipped configuration. Each test case builds a
// cluster of its own on a database of its own.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <thread>
#include <tuple>

#include "app/LeaderElection.hpp"
#include "operator/OperatorAccounts.hpp"
#include "cluster/Cluster.hpp"
#include "server/LoopbackImageServer.hpp"
#include "server/LoopbackFeedServer.hpp"
#include "support/TestImages.hpp"
#include "support/Skip.hpp"

namespace svc::cluster {
namespace {

using nlohmann::json;

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it)";
const char* const kNoHaproxy = "haproxy is not installed (scripts/install-deps.sh installs it)";
const char* const kNoS3rver = "node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs node and runs npm ci in e2e/)";
constexpr const char* kOperatorEmail = "ops@example.com";
constexpr const char* kOperatorPassword = "correct horse battery staple";

struct Session {
    std::string cookie;
    std::string csrf;
    httplib::Headers headers() const { return {{"Cookie", cookie}, {"X-CSRF-Token", csrf}}; }
};

Session signIn(httplib::Client client) {
    auto response = client.Post("/operator/api/session", json{{"email", kOperatorEmail}, {"password", kOperatorPassword}}.dump(), "application/json");
    REQUIRE(response);
    INFO(response->body);
    REQUIRE(response->status == 200);
    std::string setCookie = response->get_header_value("Set-Cookie");
    return Session{setCookie.substr(0, setCookie.find(';')), json::parse(response->body)["csrfToken"]};
}

json createTenant(Cluster& cluster, const std::string& name) { return json::parse(cluster.run({"tenant", "create", "--name", name})); }

}  // namespace

TEST_CASE("cluster: three nodes started at once on an empty database migrate it once and all become ready" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    Cluster cluster({.nodes = 3, .balancer = false});
    // The keys come from the first node's data dir, made by a CLI command (which also migrates);
    // then the database is emptied, so the three nodes meet an empty one.
    cluster.run({"operator-key", "list"});
    auto migratedByCli = queryRows(cluster.databaseUrl(), "SELECT count(*) FROM svc_migrations")[0][0].get<std::string>();
    CHECK(std::stoi(migratedByCli) >= 1);
    queryRows(cluster.databaseUrl(), "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    cluster.shareKeys();
    // A migration run twice would fail its CREATE TABLE and stop that node: all three ready means
    // each version ran once, under the advisory lock.
    cluster.start();
    auto applied = queryRows(cluster.databaseUrl(), "SELECT count(*), count(DISTINCT version) FROM svc_migrations");
    CHECK(applied[0][0] == migratedByCli);
    CHECK(applied[0][1] == migratedByCli);
    for (int node = 0; node < 3; ++node) CHECK(cluster.node(node).Get("/readyz")->status == 200);
}

TEST_CASE("cluster: an operator signs in through the balancer, works on every node, disables a tenant everywhere at once, signs out on A and is out on B" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, haproxyInstalled(), kNoHaproxy)) {
    Cluster cluster;
    cluster.run({"operator", "create", "--email", kOperatorEmail}, {{"SVC_OPERATOR_PASSWORD", kOperatorPassword}});
    json tenant = createTenant(cluster, "Shop A");
    cluster.shareKeys();
    cluster.start();

    Session session = signIn(cluster.balancer());
    for (int node = 0; node < 3; ++node) {
        CAPTURE(node);
        auto me = cluster.node(node).Get("/operator/api/me", session.headers());
        REQUIRE(me);
        CHECK(me->status == 200);
        CHECK(json::parse(me->body)["email"] == kOperatorEmail);
    }
    // A set preview made on A (a draft, never saved) opens on B.
    std::string feed = "sku;main-sku;name;stock;retail-price;deeplink;image;category-path\n"
                       "TEE-M;TEE;Tee;5;1990;https://shop.example/tee;https://shop.example/tee.jpg;Men > Shirts\n"
                       "JEANS-32;JEANS;Jeans;5;5990;https://shop.example/jeans;https://shop.example/jeans.jpg;Men > Jeans\n";
    std::string feedPath = cluster.nodeDir(0) + "/feed.csv";
    {
        std::ofstream file(feedPath, std::ios::binary);
        file << feed;
    }
    cluster.run({"feed", "import", feedPath, "--api-id", tenant["apiId"]});
    std::string apiId = tenant["apiId"];
    auto preview = cluster.node(0).Post("/operator/api/tenants/" + apiId + "/sets/previews", session.headers(),
                                        json{{"title", "Draft look"}, {"skus", {"TEE-M", "JEANS-32"}}}.dump(), "application/json");
    REQUIRE(preview);
    INFO(preview->body);
    REQUIRE(preview->status == 201);
    std::string url = json::parse(preview->body)["url"];
    auto page = cluster.node(1).Get(url);
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("data-svc-widget-id=\"SET-Custom\"") != std::string::npos);
    auto content = cluster.node(2).Get(url + apiId + "/content?w=SET-Custom&t=content&s=&i=preview");
    REQUIRE(content);
    CHECK(content->status == 200);
    CHECK(content->body.find("TEE-M") != std::string::npos);

    // A tenant disabled on A is refused by B and C at once, and taken back at once when enabled: the
    // change notice drops their cached tenant (ADR 0088), which would otherwise answer for up to 2 s.
    auto eventStatus = [&](int node) {
        json batch{{"events", json::array({json{{"type", "view"}, {"cid", "c-1"}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", "TEE-M"}}})}};
        auto response = cluster.node(node).Post("/events/validate", {{"x-api-id", apiId}}, batch.dump(), "application/json");
        return response ? response->status : -1;
    };
    for (const auto& [action, expected] : {std::pair<std::string, int>{"disable", 403}, std::pair<std::string, int>{"enable", 200}}) {
        CAPTURE(action);
        for (int node = 1; node < 3; ++node) CHECK(eventStatus(node) == (expected == 403 ? 200 : 403));  // the tenant as it was, cached
        auto changed = cluster.node(0).Post("/operator/api/tenants/" + apiId + "/" + action, session.headers(), "", "application/json");
        REQUIRE(changed);
        REQUIRE(changed->status == 200);
        auto changedAt = std::chrono::steady_clock::now();
        bool seenEverywhere = false;
        while (!seenEverywhere && std::chrono::steady_clock::now() - changedAt < std::chrono::seconds(1)) {
            seenEverywhere = eventStatus(1) == expected && eventStatus(2) == expected;
            if (!seenEverywhere) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        CHECK_MESSAGE(seenEverywhere, "B and C still answered with the cached tenant 1 s after the change");
    }

    auto signOut = cluster.node(0).Delete("/operator/api/session", session.headers());
    REQUIRE(signOut);
    CHECK(signOut->status == 204);
    for (int node = 0; node < 3; ++node) {
        CAPTURE(node);
        CHECK(cluster.node(node).Get("/operator/api/me", session.headers())->status == 401);
    }
}

TEST_CASE("cluster: wrong passwords spread over the nodes lock the account on every node" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    Cluster cluster({.nodes = 3, .balancer = false});
    cluster.run({"operator", "create", "--email", kOperatorEmail}, {{"SVC_OPERATOR_PASSWORD", kOperatorPassword}});
    cluster.shareKeys();
    cluster.start();
    std::map<int, int> statuses;
    for (int attempt = 0; attempt < 20; ++attempt) {
        auto response = cluster.node(attempt % 3).Post("/operator/api/session", json{{"email", kOperatorEmail}, {"password", "wrong guess"}}.dump(),
                                                      "application/json");
        REQUIRE(response);
        ++statuses[response->status];
    }
    // Failures count in the shared store: the account locks after its limit, whichever node was asked.
    CHECK(statuses[401] <= 6);
    CHECK(statuses[429] >= 14);
    CHECK(statuses[200] == 0);
    for (int node = 0; node < 3; ++node) {
        CAPTURE(node);
        auto right = cluster.node(node).Post("/operator/api/session", json{{"email", kOperatorEmail}, {"password", kOperatorPassword}}.dump(),
                                             "application/json");
        REQUIRE(right);
        CHECK(right->status == 429);
    }
}

namespace {

// Shoppers' purchases and widget views, posted through the balancer by several client threads,
// and what each client was told.
struct EventLoad {
    std::mutex mutex;
    std::vector<std::string> acknowledgedOrders;
    std::vector<std::string> inDoubtOrders;  // sent, no 200: a node died under it, or haproxy answered 502/503
    int64_t acknowledgedViews = 0;
    int64_t inDoubtViews = 0;
};

json purchase(const std::string& orderId) {
    return {{"type", "purchase"},
            {"customerid", "anonymous"},
            {"orderid", orderId},
            {"products", {{{"sku", "A"}, {"amount", 1}, {"price", 1999}}, {{"sku", "B"}, {"amount", 3}, {"price", 500}}}}};
}

json view(int index) {
    return {{"type", "view"}, {"cid", "cid-" + std::to_string(index % 50)}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", "A"}};
}

}  // namespace

TEST_CASE("cluster: kill -9 of a node under event load through the balancer loses and doubles nothing; the others keep answering" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, haproxyInstalled(), kNoHaproxy)) {
    // Every client comes from the test's one address: the per-address limits, the nodes' and the
    // balancer's, would refuse most of this load.
    Cluster cluster({.nodes = 3, .balancer = true,
                     .extraServeArguments = {"--events-rate-limit", "0", "--purchase-rate-limit", "0", "--visitor-purchase-rate-limit", "0",
                                             "--no-image-bot"},
                     .balancerEnvironment = {{"SVC_LB_EVENTS_PER_4S", "1000000"}}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    cluster.shareKeys();
    cluster.start();

    EventLoad load;
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int thread = 0; thread < 6; ++thread) {
        clients.emplace_back([&, thread] {
            auto client = cluster.balancer();
            client.set_keep_alive(true);
            client.set_read_timeout(std::chrono::seconds(10));
            for (int request = 0; !stop; ++request) {
                std::vector<std::string> orders;
                json batch{{"events", json::array()}};
                for (int i = 0; i < 5; ++i) {
                    orders.push_back("t" + std::to_string(thread) + "-" + std::to_string(request) + "-" + std::to_string(i));
                    batch["events"].push_back(purchase(orders.back()));
                }
                for (int i = 0; i < 10; ++i) batch["events"].push_back(view(request * 10 + i));
                auto response = client.Post("/events", {{"x-api-id", apiId}}, batch.dump(), "application/json");
                std::lock_guard lock(load.mutex);
                bool acknowledged = response && response->status == 200;
                auto& into = acknowledged ? load.acknowledgedOrders : load.inDoubtOrders;
                into.insert(into.end(), orders.begin(), orders.end());
                (acknowledged ? load.acknowledgedViews : load.inDoubtViews) += 10;
            }
        });
    }
    auto acknowledgedSoFar = [&] {
        std::lock_guard lock(load.mutex);
        return load.acknowledgedOrders.size();
    };
    auto waitForMore = [&](size_t more) {
        size_t target = acknowledgedSoFar() + more;
        for (int wait = 0; wait < 300 && acknowledgedSoFar() < target; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return acknowledgedSoFar() >= target;
    };
    CHECK(waitForMore(200));
    cluster.killNode(1);
    // The other nodes keep taking events, and keep answering content, while node 1 is gone.
    CHECK(waitForMore(200));
    for (int node : {0, 2}) CHECK(cluster.node(node).Get("/" + apiId + "/loader.js")->status == 200);
    stop = true;
    for (auto& client : clients) client.join();

    auto stored = queryRows(cluster.databaseUrl(), "SELECT o.order_id, count(c.sequence), "
                                                   "(SELECT count(*) FROM order_lines l WHERE l.tenant_id = o.tenant_id AND l.claim = o.purchase) "
                                                   "FROM orders o JOIN order_claims c USING (tenant_id, order_id) GROUP BY o.tenant_id, o.order_id, o.purchase");
    std::map<std::string, std::pair<int, int>> claims;  // order id -> claims, lines of its purchase
    for (const auto& row : stored) claims[row[0]] = {std::stoi(row[1].get<std::string>()), std::stoi(row[2].get<std::string>())};
    MESSAGE("acknowledged " << load.acknowledgedOrders.size() << " orders, " << load.inDoubtOrders.size() << " in doubt (the kill's)");
    for (const auto& id : load.acknowledgedOrders) {
        CAPTURE(id);
        REQUIRE(claims.count(id) == 1);  // not lost
    }
    for (const auto& [id, counts] : claims) {
        CAPTURE(id);
        CHECK(counts.first == 1);   // stored once
        CHECK(counts.second == 2);  // never half an order
    }
    CHECK(claims.size() <= load.acknowledgedOrders.size() + load.inDoubtOrders.size());
    auto views = queryRows(cluster.databaseUrl(), "SELECT coalesce(sum(views), 0) FROM event_counts");
    int64_t counted = std::stoll(views[0][0].get<std::string>());
    CHECK(counted >= load.acknowledgedViews);
    CHECK(counted <= load.acknowledgedViews + load.inDoubtViews);
}

namespace {

// A shop's feed pushed as a shop does it (docs/api: POST /feeds/uploads, then PUT to the signed
// URL), all through one node; the import's id.
int64_t pushFeed(httplib::Client client, const json& tenant, const std::string& csv) {
    httplib::Headers credentials{{"x-api-id", tenant["apiId"].get<std::string>()}, {"x-api-secret", tenant["apiSecret"].get<std::string>()}};
    std::string request = json{{"identifier", "sku"}, {"format", {{"type", "csv"}, {"options", {{"delimiter", ";"}}}}}, {"delta", false}}.dump();
    auto upload = client.Post("/feeds/uploads", credentials, request, "application/json");
    REQUIRE(upload);
    INFO(upload->body);
    REQUIRE(upload->status == 200);
    json signed_ = json::parse(upload->body);
    std::string url = signed_["url"];
    httplib::Headers headers;
    std::string contentType;
    for (const auto& [name, value] : signed_["headers"].items()) {
        if (name == "content-type") contentType = value;
        else headers.emplace(name, value.get<std::string>());
    }
    auto put = client.Put(url.substr(url.find("/feeds/")), headers, csv, contentType.c_str());
    REQUIRE(put);
    INFO(put->body);
    REQUIRE(put->status == 200);
    return json::parse(put->body)["importId"].get<int64_t>();
}

// The import's record once it is no longer queued or running, read through `client`.
json finishedImport(httplib::Client client, const json& tenant, int64_t importId) {
    httplib::Headers credentials{{"x-api-id", tenant["apiId"].get<std::string>()}, {"x-api-secret", tenant["apiSecret"].get<std::string>()}};
    for (int attempt = 0; attempt < 600; ++attempt) {
        auto response = client.Get("/feeds/imports/" + std::to_string(importId), credentials);
        REQUIRE(response);
        REQUIRE(response->status == 200);
        json record = json::parse(response->body);
        if (record["status"] != "queued" && record["status"] != "running") return record;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    FAIL("import " << importId << " did not finish");
    return {};
}

std::string teeFeed(const std::vector<int>& tees) {
    std::string csv = "sku;main-sku;name;stock;retail-price;deeplink;image;category-path\n";
    for (int tee : tees) {
        std::string id = "TEE" + std::to_string(tee);
        csv += id + "-M;" + id + ";Tee " + std::to_string(tee) + ";5;1990;https://shop.example/" + id + ";https://shop.example/" + id +
               ".jpg;Men > Shirts\n";
    }
    return csv;
}

json graphqlProduct(httplib::Client client, const std::string& apiId, const std::string& id) {
    auto response = client.Post("/graphql", {{"x-api-id", apiId}}, json{{"query", "{ product(id: \"" + id + "\") { id name } }"}}.dump(),
                                "application/json");
    if (!response || response->status != 200) return nullptr;
    return json::parse(response->body)["data"]["product"];
}

// How long until `check` holds (polled every 50 ms), or nullopt after `limit`.
template <typename Check>
std::optional<double> secondsUntil(Check check, std::chrono::seconds limit = std::chrono::seconds(10)) {
    auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < limit) {
        if (check()) return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return std::nullopt;
}

}  // namespace

// One client's events are limited over the whole cluster by the balancer's stick table (the nodes'
// own limit off, as docs/operations.md says for a cluster): its requests spread over three nodes,
// yet no more than the balancer's budget is accepted, and another client is not held back by it.
TEST_CASE("cluster: the balancer limits one client's events over all nodes together; other clients go on" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, haproxyInstalled(), kNoHaproxy)) {
    constexpr int kBudget = 30;  // requests per 4 s per client address
    Cluster cluster({.nodes = 3, .balancer = true, .extraServeArguments = {"--events-rate-limit", "0", "--no-image-bot"},
                     .balancerEnvironment = {{"SVC_LB_EVENTS_PER_4S", std::to_string(kBudget)}}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    cluster.shareKeys();
    cluster.start();
    // As nginx forwards them: the shopper's address last in X-Forwarded-For.
    auto send = [&](const std::string& address, int index) {
        auto client = cluster.balancer();
        json batch{{"events", json::array({view(index)})}};
        return client.Post("/events", {{"x-api-id", apiId}, {"X-Forwarded-For", "10.9.8.7, " + address}}, batch.dump(), "application/json");
    };
    int accepted = 0, limited = 0;
    for (int request = 0; request < 3 * kBudget; ++request) {
        auto response = send("203.0.113.7", request);
        REQUIRE(response);
        if (response->status == 200) {
            ++accepted;
            continue;
        }
        CHECK(response->status == 429);
        CHECK(response->get_header_value("Retry-After") == "1");
        CHECK(response->get_header_value("Access-Control-Allow-Origin") == "*");
        CHECK(json::parse(response->body)["error"]["code"] == "RESOURCE_EXHAUSTED");
        ++limited;
    }
    MESSAGE("one address: " << accepted << " accepted, " << limited << " refused by the balancer");
    // Each node alone would have taken all of them (their own limit is off).
    CHECK(accepted == kBudget);
    CHECK(limited == 2 * kBudget);
    auto other = send("198.51.100.9", 0);
    REQUIRE(other);
    CHECK(other->status == 200);
    // The accepted ones were stored, and more than one node took them.
    auto views = queryRows(cluster.databaseUrl(), "SELECT coalesce(sum(views), 0) FROM event_counts");
    CHECK(std::stoll(views[0][0].get<std::string>()) == kBudget + 1);
    int nodesThatTookEvents = 0;
    for (int node = 0; node < 3; ++node) {
        auto metrics = cluster.node(node).Get("/metrics");
        REQUIRE(metrics);
        std::smatch took;
        if (std::regex_search(metrics->body, took, std::regex(R"(svc_http_requests_total\{route="POST /events",status="200"\} (\d+))")) &&
            std::stoi(took[1]) > 0) {
            ++nodesThatTookEvents;
        }
    }
    CHECK(nodesThatTookEvents >= 2);
}

// The limits a client must not multiply by the number of nodes (docs/adr/0094): each is asked of the
// three nodes in turn, straight (as haproxy's leastconn spreads them), from one client address.
TEST_CASE("cluster: purchases, shop registrations and failed sign-ins are limited per client over all nodes together" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    constexpr int kPurchasesPerAddress = 3;  // --purchase-rate-limit: a burst of 3, one more every 20 s
    Cluster cluster({.nodes = 3, .balancer = false,
                     .extraServeArguments = {"--purchase-rate-limit", std::to_string(kPurchasesPerAddress), "--no-image-bot"}});
    // One cluster for the four limits (each on addresses and keys of its own): a cluster takes seconds to start.
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    cluster.run({"operator", "create", "--email", kOperatorEmail}, {{"SVC_OPERATOR_PASSWORD", kOperatorPassword}});
    cluster.shareKeys();
    cluster.start();
    auto from = [](const std::string& address) { return httplib::Headers{{"X-Forwarded-For", address}}; };
    auto purchaseFrom = [&](int node, const std::string& address, const json& event) {
        auto headers = from(address);
        headers.emplace("x-api-id", apiId);
        return cluster.node(node).Post("/events", headers, json{{"events", json::array({event})}}.dump(), "application/json");
    };
    auto errorId = [](const httplib::Result& response) {
        std::string message = json::parse(response->body)["error"]["message"];
        return message.substr(0, message.find(']') + 1);
    };
    // Asks `total` times, node after node; counts the answers refused with `limitId`.
    auto spread = [&](int total, const std::function<httplib::Result(int node, int index)>& ask, const std::string& limitId) {
        std::map<std::string, int> outcomes;
        for (int index = 0; index < total; ++index) {
            auto response = ask(index % 3, index);
            REQUIRE(response);
            if (response->status == 429) {
                CHECK(errorId(response) == limitId);
                CHECK(std::stoi(response->get_header_value("Retry-After")) >= 1);
                ++outcomes["limited"];
            } else {
                ++outcomes[std::to_string(response->status)];
            }
        }
        return outcomes;
    };

    {
        INFO("purchases per client address");
        auto outcomes = spread(3 * kPurchasesPerAddress, [&](int node, int index) {
            json event = purchase("ADDRESS-" + std::to_string(index));
            return purchaseFrom(node, "203.0.113.7", event);
        }, "[svc.limit.302]");
        // Each node alone would have taken a burst of its own: 9 in all.
        CHECK(outcomes["200"] == kPurchasesPerAddress);
        CHECK(outcomes["limited"] == 2 * kPurchasesPerAddress);
        CHECK(purchaseFrom(0, "198.51.100.9", purchase("OTHER-ADDRESS"))->status == 200);
    }
    {
        INFO("purchases per visitor of a tenant, from ever new addresses");
        constexpr int kPerVisitor = 20;  // the default: 20 an hour
        auto outcomes = spread(kPerVisitor + 10, [&](int node, int index) {
            json event = purchase("VISITOR-" + std::to_string(index));
            event["cid"] = "visitor-1";
            return purchaseFrom(node, "10.1.0." + std::to_string(index + 1), event);
        }, "[svc.limit.303]");
        CHECK(outcomes["200"] == kPerVisitor);
        CHECK(outcomes["limited"] == 10);
        json other = purchase("OTHER-VISITOR");
        other["cid"] = "visitor-2";
        CHECK(purchaseFrom(0, "10.2.0.1", other)->status == 200);
    }
    {
        INFO("shop registrations per client address");
        constexpr int kBurst = 10;  // then one a second
        auto started = std::chrono::steady_clock::now();
        auto outcomes = spread(3 * kBurst, [&](int node, int) {
            auto headers = from("203.0.113.8");
            headers.emplace("svc-com-tid", apiId);
            headers.emplace("svc-com-fid", "not-the-feed-id");
            return cluster.node(node).Put("/shops/" + apiId + "/not-the-feed-id", headers, "{}", "application/json");
        }, "[svc.limit.304]");
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        MESSAGE("registrations: " << outcomes["limited"] << " of " << 3 * kBurst << " limited in " << seconds << " s");
        // Refused after the limit (404: no tenant has this feed ID) ...
        CHECK(outcomes["404"] >= kBurst);
        // ... but no more than the one burst, and the tokens that came back while the test ran, got that far.
        CHECK(outcomes["404"] <= kBurst + static_cast<int>(seconds) + 1);
        CHECK(outcomes["limited"] >= 3 * kBurst - (kBurst + static_cast<int>(seconds) + 1));
    }
    {
        INFO("failed sign-ins per client address");
        auto outcomes = spread(OperatorAccounts::kMaxFailuresPerAddress, [&](int node, int index) {
            json body{{"email", "guess" + std::to_string(index) + "@example.com"}, {"password", "wrong guess"}};
            return cluster.node(node).Post("/operator/api/session", from("203.0.113.9"), body.dump(), "application/json");
        }, "[svc.limit.305]");
        CHECK(outcomes["401"] == OperatorAccounts::kMaxFailuresPerAddress);
        json right{{"email", kOperatorEmail}, {"password", kOperatorPassword}};
        for (int node = 0; node < 3; ++node) {
            CAPTURE(node);
            auto locked = cluster.node(node).Post("/operator/api/session", from("203.0.113.9"), right.dump(), "application/json");
            REQUIRE(locked);
            CHECK(locked->status == 429);
            CHECK(errorId(locked) == "[svc.limit.305]");
        }
        // The account itself is not locked: from another address the right password signs in.
        auto elsewhere = cluster.node(1).Post("/operator/api/session", from("198.51.100.10"), right.dump(), "application/json");
        REQUIRE(elsewhere);
        CHECK(elsewhere->status == 200);
    }
}

// The nodes poll content versions only every 60 s here: within 5 s only the change notice
// (NOTIFY in the import's transaction, ADR 0088) can bring B and C up to date.
TEST_CASE("cluster: a feed pushed through node A is answered by B and C within 5 s; a held import is confirmed on B" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, s3rverInstalled(), kNoS3rver)) {
    Cluster cluster({.nodes = 3, .balancer = false, .sharedBlobs = true, .extraServeArguments = {"--no-image-bot", "--content-poll-seconds", "60"}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    cluster.shareKeys();
    cluster.start();
    // B and C have served the tenant before the push: they hold its (empty) content in memory.
    for (int node : {1, 2}) CHECK(graphqlProduct(cluster.node(node), apiId, "TEE2").is_null());

    int64_t first = pushFeed(cluster.node(0), tenant, teeFeed({1, 2, 3, 4}));
    auto applied = finishedImport(cluster.node(0), tenant, first);
    CHECK(applied["status"] == "applied");
    for (int node : {1, 2}) {
        CAPTURE(node);
        auto took = secondsUntil([&] { return !graphqlProduct(cluster.node(node), apiId, "TEE2").is_null(); });
        REQUIRE(took);
        CHECK(*took < 5.0);
        MESSAGE("node " << node << " answered the pushed feed " << *took << " s after the import was applied");
        // The SDK's content answer on that node knows the new products too.
        auto content = cluster.node(node).Get("/" + apiId + "/content?w=SIMILAR&t=product&s=TEE1-M&i=");
        REQUIRE(content);
        CHECK(content->status == 200);
        CHECK(content->body.find("TEE") != std::string::npos);
    }

    // A full feed that would delete three of four products is held (the tenant's delete limit),
    // its file kept in the bucket: node B confirms it.
    int64_t shrinking = pushFeed(cluster.node(0), tenant, teeFeed({1}));
    auto held = finishedImport(cluster.node(0), tenant, shrinking);
    REQUIRE(held["status"] == "held");
    httplib::Headers credentials{{"x-api-id", apiId}, {"x-api-secret", tenant["apiSecret"].get<std::string>()}};
    auto confirmed = cluster.node(1).Post("/feeds/imports/" + std::to_string(shrinking) + "/confirm", credentials, "", "application/json");
    REQUIRE(confirmed);
    INFO(confirmed->body);
    CHECK(confirmed->status / 100 == 2);
    CHECK(finishedImport(cluster.node(1), tenant, shrinking)["status"] == "applied");
    auto gone = secondsUntil([&] { return graphqlProduct(cluster.node(2), apiId, "TEE2").is_null(); });
    REQUIRE(gone);
    CHECK(*gone < 5.0);
}

TEST_CASE("cluster: a set photo uploaded through node A is served by node B" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, s3rverInstalled(), kNoS3rver)) {
    Cluster cluster({.nodes = 2, .balancer = false, .sharedBlobs = true, .extraServeArguments = {"--no-image-bot"}});
    cluster.run({"operator", "create", "--email", kOperatorEmail}, {{"SVC_OPERATOR_PASSWORD", kOperatorPassword}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    cluster.shareKeys();
    cluster.start();
    Session session = signIn(cluster.node(0));
    std::string jpeg = svc::test::productJpeg(64, 48, 7);
    auto uploaded = cluster.node(0).Post("/operator/api/tenants/" + apiId + "/sets/photos", session.headers(), jpeg, "image/jpeg");
    REQUIRE(uploaded);
    INFO(uploaded->body);
    REQUIRE(uploaded->status == 201);
    std::string path = json::parse(uploaded->body)["path"];
    auto served = cluster.node(1).Get(path);
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->get_header_value("Content-Type") == "image/jpeg");
    CHECK(served->body.size() > 100);
    // Nothing of it is on either node's disk: the bucket holds it.
    for (int node = 0; node < 2; ++node) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(cluster.nodeDir(node))) {
            CHECK(entry.path().string().find("photos") == std::string::npos);
        }
    }
}

TEST_CASE("cluster: a due pull source is fetched once across three nodes, and its import applied once" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    svc::test::LoopbackFeedServer shop;
    shop.setFeed(teeFeed({1, 2, 3}), "\"v1\"");
    Cluster cluster({.nodes = 3, .balancer = false,
                     .extraServeArguments = {"--no-image-bot", "--outbound-allow", "127.0.0.1:" + std::to_string(shop.port)}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    // Due at once: every node's scheduler ticks when it starts, so all three try to claim it together.
    cluster.run({"feed", "source", "add", "--api-id", apiId, "--url", shop.url("/feed.csv")});
    cluster.shareKeys();
    cluster.start();
    auto applied = secondsUntil([&] { return !graphqlProduct(cluster.node(2), apiId, "TEE3").is_null(); }, std::chrono::seconds(20));
    REQUIRE(applied);
    // Every node has ticked by now (each ticks at start); give a late claim time to show.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    CHECK(shop.feedRequests.load() == 1);
    auto imports = queryRows(cluster.databaseUrl(), "SELECT status, count(*) FROM feed_imports GROUP BY status");
    REQUIRE(imports.size() == 1);
    CHECK(imports[0][0] == "applied");
    CHECK(imports[0][1] == "1");
}

TEST_CASE("cluster: while PostgreSQL is unreachable content answers from memory and events are refused, never acknowledged" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    Cluster cluster({.nodes = 2, .balancer = false, .extraServeArguments = {"--no-image-bot"}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    std::string feedPath = cluster.nodeDir(0) + "/feed.csv";
    {
        std::ofstream file(feedPath, std::ios::binary);
        file << teeFeed({1, 2, 3, 4});
    }
    cluster.run({"feed", "import", feedPath, "--api-id", apiId});
    cluster.shareKeys();
    cluster.start();
    const std::string contentPath = "/" + apiId + "/content?w=SIMILAR&t=product&s=TEE1-M&i=";
    auto before = cluster.node(1).Get(contentPath);
    REQUIRE(before);
    REQUIRE(before->status == 200);
    json event{{"events", {view(1)}}};
    REQUIRE(cluster.node(1).Post("/events", {{"x-api-id", apiId}}, event.dump(), "application/json")->status == 200);
    auto counted = [&] { return queryRows(cluster.databaseUrl(), "SELECT coalesce(sum(views), 0) FROM event_counts")[0][0].get<std::string>(); };
    CHECK(counted() == "1");

    // The database goes away for the nodes: no new connection, every open one ended.
    std::string database = cluster.databaseUrl().substr(cluster.databaseUrl().rfind('/') + 1);
    const std::string server = cluster.databaseUrl().substr(0, cluster.databaseUrl().rfind('/') + 1) + "postgres";
    queryRows(server, "ALTER DATABASE " + database + " ALLOW_CONNECTIONS false");
    queryRows(server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database + "'");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto during = cluster.node(1).Get(contentPath);
        REQUIRE(during);
        CHECK(during->status == 200);
        CHECK(during->body == before->body);
    }
    auto refused = cluster.node(1).Post("/events", {{"x-api-id", apiId}}, event.dump(), "application/json");
    REQUIRE(refused);
    CHECK(refused->status == 503);
    auto ready = cluster.node(1).Get("/readyz");
    REQUIRE(ready);
    CHECK(ready->status == 200);
    CHECK(json::parse(ready->body)["storage"] == "unavailable");
    CHECK(cluster.node(1).Get("/healthz")->status == 503);

    // Back: events are taken again, and only the acknowledged ones were stored.
    queryRows(server, "ALTER DATABASE " + database + " ALLOW_CONNECTIONS true");
    auto accepted = secondsUntil([&] {
        auto response = cluster.node(1).Post("/events", {{"x-api-id", apiId}}, event.dump(), "application/json");
        return response && response->status == 200;
    });
    REQUIRE(accepted);
    CHECK(counted() == "2");
    CHECK(json::parse(cluster.node(1).Get("/readyz")->body)["storage"] == "ok");
}

// The SDK's browser specs (Playwright, Chromium) against the cluster through haproxy: the demo
// shop and tenant made by the CLI on the database, the specs' own CLI calls reaching it through
// SVC_DATABASE_URL. Specs that read SQLite files directly (white-box checks of the single-host
// backend) are not in the list.
TEST_CASE("cluster: the SDK's browser specs pass against three nodes through the balancer" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, haproxyInstalled(), kNoHaproxy) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, s3rverInstalled(), kNoS3rver)) {
    Cluster cluster({.nodes = 3, .balancer = true, .sharedBlobs = true, .extraServeArguments = {"--no-image-bot"}});
    json demo = json::parse(cluster.run({"demo", "setup", "--assets-dir", SVC_ASSETS_DIR}));
    cluster.run({"operator", "create", "--email", kOperatorEmail}, {{"SVC_OPERATOR_PASSWORD", kOperatorPassword}});
    cluster.shareKeys();
    cluster.shareDemoFiles();
    cluster.start();
    json target{{"baseURL", cluster.balancerUrl()}, {"apiId", demo["apiId"]},          {"firstSku", demo["firstSku"]},
                {"dataDir", cluster.nodeDir(0)},  {"operatorEmail", kOperatorEmail}, {"operatorPassword", kOperatorPassword}};
    std::vector<std::string> specs{"sdk-consent",   "sdk-demo-mode", "sdk-failures", "sdk-loading",   "sdk-page-changes",
                                   "sdk-size",      "sdk-strict-csp", "sdk-touchpoints", "sdk-types",  "shop-page",
                                   "similar-widget", "set-widgets",   "product-cards", "widget-custom-events", "storage"};
    std::vector<std::string> arguments{"npx", "playwright", "test", "--reporter=line", "--workers=2"};
    for (const auto& spec : specs) arguments.push_back("tests/" + spec + ".spec.js");
    std::string log = cluster.nodeDir(0) + "/../playwright.log";
    std::string e2eDir = std::string(SVC_SOURCE_DIR) + "/e2e";
    // npx runs in e2e/: a child of a process started there (sh -c cd ... && exec ...).
    std::string command;
    for (const auto& argument : arguments) command += " '" + argument + "'";
    LoggedProcess playwright({"/bin/sh", "-c", "cd '" + e2eDir + "' && exec" + command}, log,
                             {{"SVC_E2E_TARGET", target.dump()},
                              {"SVC_DATABASE_URL", cluster.databaseUrl()},
                              {"SVC_SERVER", SVC_SERVER_BINARY}});  // --reporter=line: the main suite's result file is left alone
    REQUIRE(playwright.started());
    int status = playwright.wait();
    std::string output = playwright.logTail(6000);
    INFO(output);
    CHECK(status == 0);
    // The line reporter's summary: "  64 passed (1.4m)", and "  N failed" only when some did.
    std::smatch passed;
    REQUIRE(std::regex_search(output, passed, std::regex(R"(\n\s+(\d+) passed)")));
    CHECK(std::stoi(passed[1]) >= 60);
    CHECK_FALSE(std::regex_search(output, std::regex(R"(\n\s+\d+ failed)")));
}

namespace {

// A feed large enough that its import is still running when the test sees it and kills its node.
std::string largeFeed(int rows) {
    std::string csv = "sku;main-sku;name;stock;retail-price;deeplink;image;category-path\n";
    csv.reserve(static_cast<size_t>(rows) * 110);
    for (int row = 0; row < rows; ++row) {
        std::string id = "P" + std::to_string(row);
        csv += id + "-M;" + id + ";Product " + id + ";5;1990;https://shop.example/" + id + ";https://shop.example/" + id + ".jpg;Men > Shirts\n";
    }
    return csv;
}

// The node running an import with its file kept: it holds the lease import/<id>, named
// host/pid/token. The import's id and the node, or nullopt while none runs.
std::optional<std::pair<std::string, int>> runningImport(Cluster& cluster, int nodes) {
    auto rows = queryRows(cluster.databaseUrl(), "SELECT i.id, l.owner FROM feed_imports i JOIN leases l ON l.name = 'import/' || i.id "
                                                 "WHERE i.status = 'running' AND i.file_key <> ''");
    if (rows.empty()) return std::nullopt;
    std::string owner = rows[0][1];
    int pid = std::stoi(owner.substr(owner.find('/') + 1));
    for (int node = 0; node < nodes; ++node) {
        if (cluster.process(node).pid() == pid) return std::make_pair(rows[0][0].get<std::string>(), node);
    }
    return std::nullopt;
}

// How many times the nodes' logs say an import was queued again after its node stopped.
int requeuesLogged(Cluster& cluster, int nodes, const std::string& importId) {
    int count = 0;
    std::string line = "import " + importId + ": its process stopped during it; queued again";
    for (int node = 0; node < nodes; ++node) {
        std::ifstream log(cluster.nodeDir(node) + ".log");
        std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
        for (size_t at = text.find(line); at != std::string::npos; at = text.find(line, at + 1)) ++count;
    }
    return count;
}

}  // namespace

// Pushed imports run from the file the push stored; pulled ones from the body the pulling node kept
// in the bucket before importing. Either way the import is claimed with its lease in one statement,
// so the other nodes' requeue sweeps never take an import whose node lives (docs/adr/0091).
TEST_CASE("cluster: killing the node that runs an import (pushed, or pulled) requeues it once; another node applies it from the bucket" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, s3rverInstalled(), kNoS3rver)) {
    constexpr int kRows = 150'000;
    const std::string csv = largeFeed(kRows);
    for (const bool pulled : {false, true}) {
        CAPTURE(pulled);
        svc::test::LoopbackFeedServer shop;
        shop.setFeed(csv, "\"v1\"");
        Cluster cluster({.nodes = 3, .balancer = false, .sharedBlobs = true,
                         .extraServeArguments = {"--no-image-bot", "--outbound-allow", "127.0.0.1:" + std::to_string(shop.port)}});
        json tenant = createTenant(cluster, "Shop A");
        if (pulled) cluster.run({"feed", "source", "add", "--api-id", tenant["apiId"].get<std::string>(), "--url", shop.url("/feed.csv")});
        cluster.shareKeys();
        cluster.start();
        std::string pushed = pulled ? "" : std::to_string(pushFeed(cluster.node(0), tenant, csv));

        std::optional<std::pair<std::string, int>> running;
        REQUIRE(secondsUntil([&] { return (running = runningImport(cluster, 3)).has_value(); }, std::chrono::seconds(60)));
        auto [importId, runner] = *running;
        cluster.killNode(runner);
        MESSAGE((pulled ? "pulled" : "pushed") << " import " << importId << ": killed node " << runner << " while it ran it");
        auto applied = secondsUntil(
            [&] {
                auto rows = queryRows(cluster.databaseUrl(), "SELECT status FROM feed_imports WHERE id = " + importId);
                return !rows.empty() && rows[0][0] == "applied";
            },
            std::chrono::seconds(90));
        INFO(queryRows(cluster.databaseUrl(), "SELECT id, status, message, file_key FROM feed_imports").dump());
        REQUIRE(applied);
        MESSAGE("applied by another node " << *applied << " s after the kill");
        // One import, run again (not a second one), from the file kept in the bucket; the shop's
        // server was asked once.
        if (!pulled) CHECK(importId == pushed);
        CHECK(requeuesLogged(cluster, 3, importId) == 1);
        CHECK(queryRows(cluster.databaseUrl(), "SELECT count(*) FROM feed_imports")[0][0] == "1");
        CHECK(queryRows(cluster.databaseUrl(), "SELECT count(*) FROM catalog_products WHERE NOT deleted")[0][0] == std::to_string(kRows));
        CHECK(shop.feedRequests.load() == (pulled ? 1 : 0));
        // A finished import keeps no file: the bucket copy went with its end.
        CHECK(queryRows(cluster.databaseUrl(), "SELECT file_key FROM feed_imports WHERE id = " + importId)[0][0] == "");
    }
}

namespace {

// The cluster's leader (docs/adr/0092): the node holding the lease "leader", named by its process.
int leaderNode(Cluster& cluster, int nodes) {
    auto rows = queryRows(cluster.databaseUrl(), "SELECT owner FROM leases WHERE name = 'leader' AND expires_at > extract(epoch FROM now())::bigint");
    if (rows.empty()) return -1;
    std::string owner = rows[0][0];
    for (int node = 0; node < nodes; ++node) {
        if (!cluster.process(node).hasExited() && owner.find("/" + std::to_string(cluster.process(node).pid()) + "/") != std::string::npos) return node;
    }
    return -1;
}

}  // namespace

TEST_CASE("cluster: one of three nodes leads and purchases are booked once; after kill -9 of the leader another node books within the lease time" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres)) {
    Cluster cluster({.nodes = 3, .balancer = false,
                     .extraServeArguments = {"--events-rate-limit", "0", "--purchase-rate-limit", "0", "--visitor-purchase-rate-limit", "0",
                                             "--no-image-bot"}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    std::string feedPath = cluster.nodeDir(0) + "/feed.csv";
    {
        std::ofstream file(feedPath, std::ios::binary);
        file << teeFeed({1, 2});
    }
    cluster.run({"feed", "import", feedPath, "--api-id", apiId});
    cluster.shareKeys();
    cluster.start();

    // Each order through another node; every other one has a click on its SKU before it.
    auto post = [&](int node, const json& event) {
        auto response = cluster.node(node).Post("/events", {{"x-api-id", apiId}}, json{{"events", {event}}}.dump(), "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 200);
    };
    int orders = 0;
    auto shop = [&](int node, bool clicked) {
        std::string cid = "cid-" + std::to_string(++orders);
        if (clicked) post(node, {{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", "TEE1-M"}});
        post(node, {{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", "O-" + std::to_string(orders)}, {"cid", cid},
                    {"products", {{{"sku", "TEE1-M"}, {"amount", 1}, {"price", 1990}}}}});
    };
    // Sales booked, distinct order lines among them, attributed ones.
    auto booked = [&] {
        auto rows = queryRows(cluster.databaseUrl(), "SELECT count(*), count(DISTINCT (order_id, line)), count(*) FILTER (WHERE attributed) "
                                                     "FROM ledger WHERE kind = 'sale'");
        return std::tuple<int, int, int>{std::stoi(rows[0][0].get<std::string>()), std::stoi(rows[0][1].get<std::string>()),
                                         std::stoi(rows[0][2].get<std::string>())};
    };

    int leader = -1;
    REQUIRE(secondsUntil([&] { return (leader = leaderNode(cluster, 3)) >= 0; }));
    for (int order = 0; order < 30; ++order) shop(order % 3, order % 2 == 0);
    auto allBooked = secondsUntil([&] { return std::get<0>(booked()) >= 30; });
    REQUIRE(allBooked);
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // another pass of every node's attributor
    CHECK(booked() == std::tuple<int, int, int>{30, 30, 15});
    CHECK(leaderNode(cluster, 3) == leader);  // it kept the lease by renewing it

    cluster.killNode(leader);
    auto killed = std::chrono::steady_clock::now();
    int survivor = (leader + 1) % 3;
    for (int order = 0; order < 10; ++order) shop(order % 2 == 0 ? survivor : (leader + 2) % 3, order % 2 == 0);
    auto takenOver = secondsUntil([&] { return std::get<0>(booked()) >= 40; }, std::chrono::seconds(LeaderElection::kTtlSeconds + 3));
    REQUIRE(takenOver);
    MESSAGE("after kill -9 of the leader (node " << leader << ") new purchases were booked "
                                                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count() << " s later");
    CHECK(booked() == std::tuple<int, int, int>{40, 40, 20});
    int next = leaderNode(cluster, 3);
    CHECK(next >= 0);
    CHECK(next != leader);
}

TEST_CASE("cluster: each product image is fetched once across three nodes, and a thumbnail made by one node is served by the others" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(), kNoPostgres) *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, s3rverInstalled(), kNoS3rver)) {
    constexpr int kImages = 4;
    svc::test::LoopbackImageServer images;
    // Slow answers: every node's bot has the URLs queued while another node is still fetching them.
    images.setDelay(std::chrono::milliseconds(1000));
    std::string csv = "sku;main-sku;name;stock;retail-price;deeplink;image;category-path\n";
    for (int tee = 1; tee <= kImages; ++tee) {
        std::string id = "TEE" + std::to_string(tee);
        images.put("/" + id + ".jpg", svc::test::productJpeg(800, 600, tee));
        csv += id + "-M;" + id + ";Tee;5;1990;https://shop.example/" + id + ";" + images.url("/" + id + ".jpg") + ";Men > Shirts\n";
    }
    Cluster cluster({.nodes = 3, .balancer = false, .sharedBlobs = true,
                     .extraServeArguments = {"--outbound-allow", "127.0.0.1:" + std::to_string(images.port)}});
    json tenant = createTenant(cluster, "Shop A");
    std::string apiId = tenant["apiId"];
    // Imported before the nodes start: each node's bot scans every tenant when it starts, so all
    // three queue the same URLs at about the same time.
    std::string feedPath = cluster.nodeDir(0) + "/feed.csv";
    {
        std::ofstream file(feedPath, std::ios::binary);
        file << csv;
    }
    cluster.run({"feed", "import", feedPath, "--api-id", apiId});
    cluster.shareKeys();
    cluster.start();
    // Asked before the images are in: each node reads the tenant's (few) image facts into memory now.
    const std::string contentPath = "/" + apiId + "/content?w=SIMILAR&t=product&s=TEE1-M&i=";
    for (int node = 0; node < 3; ++node) REQUIRE(cluster.node(node).Get(contentPath));
    auto fetched = secondsUntil(
        [&] { return queryRows(cluster.databaseUrl(), "SELECT count(*) FROM image_facts WHERE status = 'ok'")[0][0] == std::to_string(kImages); },
        std::chrono::seconds(12));
    REQUIRE(fetched);
    MESSAGE("the three nodes had fetched the " << kImages << " images " << *fetched << " s after they were ready");
    std::this_thread::sleep_for(std::chrono::seconds(1));  // a second fetch would show by now
    for (int tee = 1; tee <= kImages; ++tee) {
        CAPTURE(tee);
        CHECK(images.requests("/TEE" + std::to_string(tee) + ".jpg") == 1);
    }
    CHECK(queryRows(cluster.databaseUrl(), "SELECT count(*) FROM leases WHERE name LIKE 'image-fetch/%'")[0][0] == "0");  // released once saved

    // Each thumbnail was made by one node and is in the bucket: all three serve the same bytes.
    auto keys = queryRows(cluster.databaseUrl(), "SELECT thumb_key FROM image_facts");
    REQUIRE(keys.size() == static_cast<size_t>(kImages));
    for (const auto& row : keys) {
        std::string path = "/" + apiId + "/thumbs/" + row[0].get<std::string>() + ".jpg";
        CAPTURE(path);
        std::string first;
        for (int node = 0; node < 3; ++node) {
            auto served = cluster.node(node).Get(path);
            REQUIRE(served);
            CHECK(served->status == 200);
            CHECK(served->get_header_value("Content-Type") == "image/jpeg");
            if (node == 0) first = served->body;
            else CHECK(served->body == first);
        }
        CHECK(first.size() > 100);
    }
    for (int node = 0; node < 3; ++node) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(cluster.nodeDir(node))) CHECK(entry.path().extension() != ".jpg");
    }
    // Every node's content answers show the thumbnails, those of images another node fetched too.
    for (int node = 0; node < 3; ++node) {
        CAPTURE(node);
        std::string body;
        auto shown = secondsUntil([&] {
            auto content = cluster.node(node).Get(contentPath);
            body = content ? content->body : "";
            return body.find("/" + apiId + "/thumbs/") != std::string::npos && body.find(images.url("/TEE")) == std::string::npos;
        }, std::chrono::seconds(5));
        INFO(body);
        CHECK(shown);
    }
}

}  // namespace svc::cluster
