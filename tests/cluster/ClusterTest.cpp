// The cluster suite (issue 24, docs/adr/0091): three real svc-server nodes on one PostgreSQL
// database, haproxy in front of them with the shipped configuration. Each test case builds a
// cluster of its own on a database of its own.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

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

}  // namespace svc::cluster
