#pragma once
// The benchmarks' deployment on PostgreSQL (issue 24): the cluster suite's (tests/cluster/Cluster.hpp: a database of
// its own on a PostgreSQL server, N svc-server nodes, haproxy with deploy/haproxy/svc.cfg) holding the demo catalog,
// started and ready. bench-cluster runs 1, 2 and 3 nodes of it; bench-graphql --database-url one node.
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/Cluster.hpp"

namespace bench {

class DemoCluster {
public:
    // `serverUrl`: the PostgreSQL server (empty: the throwaway one); `serveArguments` go to every node's serve.
    DemoCluster(int nodes, const std::string& serverUrl, std::vector<std::string> serveArguments = {})
        : cluster_(makeOptions(nodes, serverUrl, std::move(serveArguments))) {
        auto demo = nlohmann::json::parse(cluster_.run({"demo", "setup", "--assets-dir", SVC_ASSETS_DIR}));
        apiId_ = demo["apiId"];
        cluster_.shareKeys();
        cluster_.shareDemoFiles();
        cluster_.start();
    }

    svc::cluster::Cluster& cluster() { return cluster_; }
    const std::string& apiId() const { return apiId_; }
    // A directory for the bench's files, removed with the cluster.
    std::string workDir() const { return cluster_.nodeDir(0) + "/.."; }
    int balancerPort() const {
        std::string url = cluster_.balancerUrl();
        return std::atoi(url.c_str() + url.rfind(':') + 1);
    }

private:
    static svc::cluster::ClusterOptions makeOptions(int nodes, const std::string& serverUrl, std::vector<std::string> serveArguments) {
        // No image bot (it would fetch the demo's pictures during the runs); the events limiter off, as behind a balancer.
        std::vector<std::string> arguments{"--no-image-bot", "--events-rate-limit", "0"};
        arguments.insert(arguments.end(), serveArguments.begin(), serveArguments.end());
        return {.nodes = nodes, .balancer = true, .sharedBlobs = false, .extraServeArguments = arguments, .serverUrl = serverUrl};
    }

    svc::cluster::Cluster cluster_;
    std::string apiId_;
};

}  // namespace bench
