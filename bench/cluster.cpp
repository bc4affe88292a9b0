// bench-cluster: svc on PostgreSQL behind haproxy with 1, 2 and 3 nodes (issue 24), each figure beside its floor
// from the same run: GET /healthz through the same haproxy (no storage, no content: what the balancer and the HTTP
// stack cost).
//   (a) floor: wrk GET /healthz through haproxy
//   (b) GraphQL: wrk POST /graphql through haproxy, the product page's similar-products query (bench/GraphqlBenchQuery.hpp)
//       for a random product of the demo catalog per request (one node of it is bench-graphql --postgres)
//   (c) content: wrk GET /<apiId>/content (the SDK's SIMILAR widget) through haproxy, a random SKU per request
// Everything runs on this machine: a throwaway PostgreSQL, the nodes, haproxy and wrk share its cores, so the 1-2-3
// node figures show what the balancer and the shared database cost, not how svc scales out (docs/operations.md).
//   build/bin/bench-cluster [--seconds N] [--connections N] [--nodes 1,2,3]
// Exit status: 0 when every step ran, 1 when one failed.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "DemoCluster.hpp"
#include "GraphqlBenchQuery.hpp"

namespace {

using nlohmann::json;

struct WrkResult {
    double requestsPerSecond = 0;
    std::string failures;  // the Lua script's line: non-200 answers, GraphQL errors, socket errors
};

WrkResult runWrk(const std::vector<std::string>& arguments, const std::string& logPath) {
    svc::cluster::LoggedProcess wrk(arguments, logPath);
    if (!wrk.started() || wrk.wait() != 0) throw std::runtime_error("wrk failed: " + wrk.logTail());
    std::string output = wrk.logTail(1 << 16);
    std::smatch match;
    WrkResult result;
    if (std::regex_search(output, match, std::regex(R"(Requests/sec:\s+([0-9.]+))"))) result.requestsPerSecond = std::stod(match[1]);
    if (std::regex_search(output, match, std::regex(R"((bench-[a-z]+-lua: responses[^\n]*))"))) result.failures = match[1];
    return result;
}

std::string percentOf(double value, double floor) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", floor > 0 ? 100.0 * value / floor : 0.0);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    int seconds = 10;
    int connections = 32;
    std::vector<int> nodeCounts{1, 2, 3};
    for (int i = 1; i < argc; ++i) {
        std::string argument = argv[i];
        if (argument == "--seconds" && i + 1 < argc) seconds = std::stoi(argv[++i]);
        else if (argument == "--connections" && i + 1 < argc) connections = std::stoi(argv[++i]);
        else if (argument == "--nodes" && i + 1 < argc) {
            nodeCounts.clear();
            std::stringstream list(argv[++i]);
            for (std::string count; std::getline(list, count, ',');) nodeCounts.push_back(std::stoi(count));
        } else {
            std::cerr << "usage: bench-cluster [--seconds N] [--connections N] [--nodes 1,2,3]" << std::endl;
            return 2;
        }
    }
    const std::string luaDir = std::string(SVC_SOURCE_DIR) + "/bench";
    std::cout << "bench-cluster: PostgreSQL (throwaway), demo catalog, haproxy (deploy/haproxy/svc.cfg), wrk -c" << connections << " -d"
              << seconds << "s, " << std::thread::hardware_concurrency() << " cores shared by everything" << std::endl;
    std::cout << "nodes | /healthz via haproxy (floor) | GraphQL similar products | share | SDK content | share" << std::endl;
    try {
        for (int nodes : nodeCounts) {
            bench::DemoCluster demo(nodes, "");
            svc::cluster::Cluster& cluster = demo.cluster();
            const std::string& apiId = demo.apiId();
            std::string work = demo.workDir();
            auto products = svc::cluster::queryRows(cluster.databaseUrl(), "SELECT DISTINCT main_sku FROM catalog_products WHERE NOT deleted LIMIT 500");
            auto skus = svc::cluster::queryRows(cluster.databaseUrl(), "SELECT sku FROM catalog_products WHERE NOT deleted LIMIT 500");
            {
                std::ofstream ids(work + "/ids.txt");
                for (const auto& row : products) ids << row[0].get<std::string>() << "\n";
                std::ofstream query(work + "/query.graphql");
                query << bench::kGraphqlBenchQuery;
                std::ofstream floorPaths(work + "/floor.txt");
                floorPaths << "/healthz\n";
                std::ofstream contentPaths(work + "/content.txt");
                for (const auto& row : skus) contentPaths << "/" << apiId << "/content?w=SIMILAR&t=product&s=" << row[0].get<std::string>() << "&i=\n";
            }
            std::string url = cluster.balancerUrl();
            auto wrk = [&](const std::string& script, std::vector<std::string> scriptArguments, const std::string& name) {
                std::vector<std::string> arguments{"wrk", "-t2", "-c" + std::to_string(connections), "-d" + std::to_string(seconds) + "s", "-s",
                                                   luaDir + "/" + script, url, "--"};
                arguments.insert(arguments.end(), scriptArguments.begin(), scriptArguments.end());
                // A short warm-up with the same settings first: content built, connections pooled.
                std::vector<std::string> warmup = arguments;
                warmup[3] = "-d2s";
                runWrk(warmup, work + "/" + name + "-warmup.log");
                return runWrk(arguments, work + "/" + name + ".log");
            };
            WrkResult floor = wrk("content/paths.lua", {work + "/floor.txt", ""}, "floor");
            WrkResult graphql = wrk("graphql/post.lua", {"post", work + "/ids.txt", apiId, work + "/query.graphql"}, "graphql");
            WrkResult content = wrk("content/paths.lua", {work + "/content.txt", "https://shop.example"}, "content");
            std::printf("%5d | %12.0f req/s | %12.0f req/s | %5s | %9.0f req/s | %5s\n", nodes, floor.requestsPerSecond, graphql.requestsPerSecond,
                        percentOf(graphql.requestsPerSecond, floor.requestsPerSecond).c_str(), content.requestsPerSecond,
                        percentOf(content.requestsPerSecond, floor.requestsPerSecond).c_str());
            std::cout << "      " << graphql.failures << "\n      " << content.failures << std::endl;
        }
    } catch (const std::exception& error) {
        std::cerr << "bench-cluster: " << error.what() << std::endl;
        return 1;
    }
    return 0;
}
