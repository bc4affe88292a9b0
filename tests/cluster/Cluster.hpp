#pragma once
// The cluster suite's deployment (docs/adr/0091): a database of its own on the throwaway
// PostgreSQL (tests/support/ThrowawayPostgres.hpp), N real svc-server nodes on loopback ports
// sharing it, each with a data dir of its own holding only what is a node's own (the keys, copied
// from the first node as an operator copies them), and haproxy from Debian running the shipped
// deploy/haproxy/svc.cfg unchanged, its node addresses given in the environment as documented.
#include <httplib.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/LoggedProcess.hpp"
#include "support/S3TestServer.hpp"
#include "support/ThrowawayPostgres.hpp"

namespace svc::cluster {

inline int freePort() {
    int socket = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(socket);
    return ntohs(address.sin_port);
}

inline bool haproxyInstalled() { return std::system("command -v haproxy >/dev/null 2>&1") == 0; }
inline bool postgresInstalled() { return svc::test::ThrowawayPostgres::binDir().has_value(); }
inline bool s3rverInstalled() { return svc::test::S3TestServer::installed(); }

// One SQL statement on the cluster's server (the suite's own checks: counts, not svc's work).
inline nlohmann::json queryRows(const std::string& url, const std::string& sql) {
    PGconn* connection = PQconnectdb(url.c_str());
    PQsetNoticeProcessor(connection, [](void*, const char*) {}, nullptr);  // DROP ... CASCADE lists every table
    if (PQstatus(connection) != CONNECTION_OK) {
        std::string message = PQerrorMessage(connection);
        PQfinish(connection);
        throw std::runtime_error("cluster: connect: " + message);
    }
    PGresult* result = PQexec(connection, sql.c_str());
    if (PQresultStatus(result) != PGRES_TUPLES_OK && PQresultStatus(result) != PGRES_COMMAND_OK) {
        std::string message = PQresultErrorMessage(result);
        PQclear(result);
        PQfinish(connection);
        throw std::runtime_error("cluster: " + sql + ": " + message);
    }
    nlohmann::json rows = nlohmann::json::array();
    for (int row = 0; row < PQntuples(result); ++row) {
        nlohmann::json values = nlohmann::json::array();
        for (int column = 0; column < PQnfields(result); ++column) values.push_back(std::string(PQgetvalue(result, row, column)));
        rows.push_back(values);
    }
    PQclear(result);
    PQfinish(connection);
    return rows;
}

struct ClusterOptions {
    int nodes = 3;
    bool balancer = true;
    // A bucket on s3rver for every node's blobs (--blob-url): uploads, held imports, set photos.
    bool sharedBlobs = false;
    std::vector<std::string> extraServeArguments;
    // More of the balancer's environment (deploy/haproxy/svc.cfg's variables, e.g. SVC_LB_EVENTS_PER_4S).
    std::map<std::string, std::string> balancerEnvironment;
    // The PostgreSQL server the cluster's database is made on (its role may create databases); empty: the
    // throwaway one (bench-graphql --database-url passes an operator's).
    std::string serverUrl;
};

inline constexpr const char* kBlobAccessKey = "cluster-access-key";
inline constexpr const char* kBlobSecretKey = "cluster-secret-key-0123456789";

class Cluster {
public:
    explicit Cluster(ClusterOptions options = {}) : options_(std::move(options)) {
        std::string pattern = (std::filesystem::temp_directory_path() / "svc-cluster-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cluster: mkdtemp failed");
        root_ = pattern;
        serverUrl_ = options_.serverUrl;
        if (serverUrl_.empty()) {
            auto& postgres = svc::test::ThrowawayPostgres::shared();
            if (!postgres.url()) throw std::runtime_error("cluster: no PostgreSQL: " + postgres.error());
            serverUrl_ = *postgres.url();
        }
        static std::atomic<int> sequence{0};
        database_ = "svc_cluster_" + std::to_string(::getpid()) + "_" + std::to_string(++sequence);
        queryRows(serverUrl_, "CREATE DATABASE " + database_);
        databaseUrl_ = serverUrl_.substr(0, serverUrl_.rfind('/') + 1) + database_;
        for (int node = 0; node < options_.nodes; ++node) {
            std::filesystem::create_directories(nodeDir(node));
            ports_.push_back(freePort());
        }
        balancerPort_ = freePort();
        nodes_.resize(options_.nodes);
        if (options_.sharedBlobs) {
            std::filesystem::create_directories(root_ + "/s3");
            blobs_ = std::make_unique<svc::test::S3TestServer>(root_ + "/s3", kBlobAccessKey, kBlobSecretKey, std::vector<std::string>{"svc-blobs"},
                                                               std::vector<svc::test::S3TestObject>{});
            if (!blobs_->running()) throw std::runtime_error("cluster: no S3 server: " + blobs_->why);
        }
    }
    ~Cluster() {
        balancer_.reset();
        for (auto& node : nodes_) node.reset();
        blobs_.reset();
        try {
            queryRows(serverUrl_, "DROP DATABASE IF EXISTS " + database_ + " WITH (FORCE)");
        } catch (const std::exception&) {  // the test has failed already
        }
        std::error_code ignored;
        std::filesystem::remove_all(root_, ignored);
    }
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    const std::string& databaseUrl() const { return databaseUrl_; }
    std::string nodeDir(int node) const { return root_ + "/node-" + std::to_string(node); }
    std::string nodeUrl(int node) const { return "http://127.0.0.1:" + std::to_string(ports_[node]); }
    std::string balancerUrl() const { return "http://127.0.0.1:" + std::to_string(balancerPort_); }
    httplib::Client node(int node) const { return client(nodeUrl(node)); }
    httplib::Client balancer() const { return client(balancerUrl()); }
    static httplib::Client client(const std::string& url) {
        httplib::Client client(url);
        client.set_connection_timeout(std::chrono::seconds(5));
        client.set_read_timeout(std::chrono::seconds(30));
        return client;
    }

    // `svc-server <arguments> --data-dir <node 0's> --database-url <the cluster's>`: its stdout
    // (JSON for the data commands); throws with its output when it fails.
    std::string run(std::vector<std::string> arguments, const std::map<std::string, std::string>& environment = {}) {
        arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
        for (const auto& extra : {std::string("--data-dir"), nodeDir(0), std::string("--database-url"), databaseUrl_}) arguments.push_back(extra);
        std::string log = root_ + "/cli-" + std::to_string(++commands_) + ".log";
        LoggedProcess process(arguments, log, environment);
        if (!process.started()) throw std::runtime_error("cluster: cannot start svc-server");
        int status = process.wait();
        if (status != 0) throw std::runtime_error("cluster: " + arguments[1] + " exited " + std::to_string(status) + ": " + process.logTail());
        return process.logTail(1 << 20);
    }

    // The demo shop's pages and pictures (`demo setup` writes them into the first node's data dir).
    void shareDemoFiles() {
        for (int node = 1; node < options_.nodes; ++node) {
            std::filesystem::copy(nodeDir(0) + "/demo", nodeDir(node) + "/demo",
                                  std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
        }
    }

    // The keys every node must share (<data-dir>/keys/, copied from the first node as an operator
    // copies them; docs/operations.md "Run a cluster").
    void shareKeys() {
        if (!std::filesystem::exists(nodeDir(0) + "/keys")) run({"operator-key", "list"});
        for (const auto& entry : std::filesystem::directory_iterator(nodeDir(0) + "/keys")) {
            for (int node = 1; node < options_.nodes; ++node) {
                std::filesystem::create_directories(nodeDir(node) + "/keys");
                std::filesystem::permissions(nodeDir(node) + "/keys", std::filesystem::perms::owner_all);
                std::string target = nodeDir(node) + "/keys/" + entry.path().filename().string();
                std::filesystem::copy_file(entry.path(), target, std::filesystem::copy_options::overwrite_existing);
                std::filesystem::permissions(target, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
            }
        }
    }

    void startNode(int node) {
        std::vector<std::string> arguments{SVC_SERVER_BINARY, "serve",          "--data-dir",     nodeDir(node), "--database-url",
                                           databaseUrl_,      "--listen",       "127.0.0.1:" + std::to_string(ports_[node]),
                                           "--assets-dir",    SVC_ASSETS_DIR,   "--trusted-proxy", "127.0.0.1/32"};
        for (const auto& extra : options_.extraServeArguments) arguments.push_back(extra);
        std::map<std::string, std::string> environment;
        if (blobs_) {
            arguments.push_back("--blob-url");
            arguments.push_back("s3://svc-blobs/cluster?region=us-east-1&endpoint=" + blobs_->endpoint());
            // The credentials as an operator gives them: in the environment, not on the command line.
            environment["SVC_S3_ACCESS_KEY_ID"] = kBlobAccessKey;
            environment["SVC_S3_SECRET_ACCESS_KEY"] = kBlobSecretKey;
        }
        nodes_[node] = std::make_unique<LoggedProcess>(arguments, nodeDir(node) + ".log", environment);
        if (!nodes_[node]->started()) throw std::runtime_error("cluster: cannot start node " + std::to_string(node));
    }
    void startAllNodes() {
        for (int node = 0; node < options_.nodes; ++node) startNode(node);
    }
    LoggedProcess& process(int node) { return *nodes_[node]; }
    void killNode(int node, int signal = SIGKILL) {
        nodes_[node]->kill(signal);
        nodes_[node]->wait();
    }

    // Waits until the node's /readyz says ready; throws with its log when it exited or took too long.
    void waitReady(int node, std::chrono::seconds within = std::chrono::seconds(60)) {
        auto deadline = std::chrono::steady_clock::now() + within;
        auto client = this->node(node);
        client.set_connection_timeout(std::chrono::seconds(1));
        while (std::chrono::steady_clock::now() < deadline) {
            if (nodes_[node]->hasExited()) throw std::runtime_error("cluster: node " + std::to_string(node) + " exited: " + nodes_[node]->logTail());
            if (auto response = client.Get("/readyz"); response && response->status == 200) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        throw std::runtime_error("cluster: node " + std::to_string(node) + " not ready: " + nodes_[node]->logTail());
    }

    // haproxy with the shipped configuration; waits until it sees every node up.
    void startBalancer() {
        int statsPort = freePort();
        std::map<std::string, std::string> environment{{"SVC_LB_BIND", "127.0.0.1:" + std::to_string(balancerPort_)},
                                                        {"SVC_LB_STATS", "127.0.0.1:" + std::to_string(statsPort)}};
        environment.insert(options_.balancerEnvironment.begin(), options_.balancerEnvironment.end());
        for (int node = 0; node < 3; ++node) {
            // The shipped file names three nodes; a smaller cluster points the rest at node 0.
            int port = ports_[node < options_.nodes ? node : 0];
            environment["SVC_NODE" + std::to_string(node + 1)] = "127.0.0.1:" + std::to_string(port);
        }
        balancer_ = std::make_unique<LoggedProcess>(
            std::vector<std::string>{"haproxy", "-db", "-f", std::string(SVC_SOURCE_DIR) + "/deploy/haproxy/svc.cfg"}, root_ + "/haproxy.log",
            environment);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        auto stats = client("http://127.0.0.1:" + std::to_string(statsPort));
        stats.set_url_encode(false);  // "/;csv" as it is, not "/%3Bcsv"
        std::string seen;
        while (std::chrono::steady_clock::now() < deadline) {
            if (balancer_->hasExited()) throw std::runtime_error("cluster: haproxy exited: " + balancer_->logTail());
            // The stats page's CSV: one line per server with its status.
            auto response = stats.Get("/;csv");
            seen = response ? std::to_string(response->status) + " " + response->body : "no answer: " + httplib::to_string(response.error());
            if (response && response->status == 200 && upServers(response->body) >= 2 * options_.nodes) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        throw std::runtime_error("cluster: haproxy did not see the nodes up: " + balancer_->logTail() + "\nstats: " + seen.substr(0, 3000));
    }

    // Everything: keys and a first tenant made through the CLI (the database migrated by it), the
    // nodes started at once, each ready, then the balancer.
    void start() {
        startAllNodes();
        for (int node = 0; node < options_.nodes; ++node) waitReady(node);
        if (options_.balancer) startBalancer();
    }

private:
    static int upServers(const std::string& csv) {
        int up = 0;
        size_t start = 0;
        while (start < csv.size()) {
            size_t end = csv.find('\n', start);
            std::string line = csv.substr(start, end == std::string::npos ? std::string::npos : end - start);
            start = end == std::string::npos ? csv.size() : end + 1;
            if (line.rfind("svc_", 0) != 0 || line.find(",node") == std::string::npos) continue;
            if (line.find(",UP,") != std::string::npos) ++up;
        }
        return up;
    }

    ClusterOptions options_;
    std::string root_;
    std::string serverUrl_;
    std::string database_;
    std::string databaseUrl_;
    std::vector<int> ports_;
    int balancerPort_ = 0;
    int commands_ = 0;
    std::vector<std::unique_ptr<LoggedProcess>> nodes_;
    std::unique_ptr<LoggedProcess> balancer_;
    std::unique_ptr<svc::test::S3TestServer> blobs_;
};

}  // namespace svc::cluster
