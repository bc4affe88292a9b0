// The cluster suite (issue 24, docs/adr/0091): three real svc-server nodes on one PostgreSQL
// database, haproxy in front of them with the shipped configuration. Each test case builds a
// cluster of its own on a database of its own.
#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "cluster/Cluster.hpp"
#include "support/Skip.hpp"

namespace svc::cluster {
namespace {

using nlohmann::json;

const char* const kNoPostgres = "PostgreSQL is not installed (scripts/install-deps.sh installs it)";
const char* const kNoHaproxy = "haproxy is not installed (scripts/install-deps.sh installs it)";
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

TEST_CASE("cluster: an operator signs in through the balancer, works on every node, signs out on A and is out on B" *
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
    cluster.run({"feed", "import", "--api-id", tenant["apiId"], "--file", feedPath, "--delimiter", ";", "--identifier", "sku"});
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
    // Every client comes through the balancer's one address: the per-address limits would refuse
    // most of this load (they are sized at the balancer in a cluster, docs/operations.md).
    Cluster cluster({.nodes = 3, .balancer = true,
                     .extraServeArguments = {"--events-rate-limit", "0", "--purchase-rate-limit", "0", "--visitor-purchase-rate-limit", "0",
                                             "--no-image-bot"}});
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
    INFO("acknowledged " << load.acknowledgedOrders.size() << " orders, in doubt " << load.inDoubtOrders.size());
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

}  // namespace svc::cluster
