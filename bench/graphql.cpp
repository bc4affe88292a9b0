// bench-graphql: svc-server's GraphQL throughput against its own HTTP floor and against graphql-js.
//
// One run, figures side by side (the machine is noisy; ratios matter more than requests per second):
//   (a) the HTTP floor: wrk GET /healthz on svc-server;
//   (b) wrk POST /graphql on the same svc-server: the product page's similar-products query for a random product id
//       per request (the id as the variable $id; one document);
//   (c) the same wrk run against a graphql-js server (Node, one process, node:http, graphql v16, the same schema read
//       from docs/api/schema.graphql) answering from a snapshot of svc's answers held in memory.
// The data is svc-server's demo catalog (`demo setup`) in a temporary directory under /tmp, removed at the end unless
// --keep. Before the timed runs the bench fetches from svc, for every product id of the random list, the benchmark
// query's answer with every scalar field (the graphql-js snapshot), and checks that both servers answer the benchmark
// query identically for every id. Each timed run follows a short warm-up run with the same settings.
// Exit status: 0 when every step ran (whatever the figures), 1 when a step failed, 2 on a bad command line.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "BenchSupport.hpp"
#include "DemoCluster.hpp"
#include "GraphqlBenchQuery.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bench;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

void writeWholeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw StepFailure("cannot write " + path);
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// ---------------------------------------------------------------------------------------------------------------
// Children that run to completion: fork/execv, stdout and stderr into files, exit status checked.

struct ChildRun {
    double seconds = 0;
    std::string out;
    std::string err;
};

// okStatus: the exit status that counts as success (wrk -v exits with 1 after printing its version).
ChildRun runChild(const std::string& step, const std::vector<std::string>& argv, const std::string& workDir,
                  int okStatus = 0) {
    std::string tag = workDir + "/" + step;
    std::string outPath = tag + ".stdout", errPath = tag + ".stderr";
    auto started = std::chrono::steady_clock::now();
    pid_t pid = spawn(step, argv, outPath, errPath);
    int status = 0;
    bool forwarded = false;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw StepFailure(step + ": waitpid failed: " + std::strerror(errno));
        if (interrupted && !forwarded) {
            ::kill(pid, SIGTERM);  // a SIGTERM sent to the bench alone must stop its child too
            forwarded = true;
        }
    }
    stopIfInterrupted();
    ChildRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.out = readWholeFile(outPath);
    run.err = readWholeFile(errPath);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == okStatus)) {
        std::string how = describeStatus(status);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) how += " (could not execute " + argv[0] + ")";
        std::string message = step + " failed: `" + commandLine(argv) + "` " + how;
        std::string tail = lastLines(run.err, 10);
        if (!tail.empty()) message += "\n  stderr: " + tail;
        throw StepFailure(message);
    }
    return run;
}

// ---------------------------------------------------------------------------------------------------------------
// Servers that run in the background until the end: started, awaited on their "listening on" line, stopped with
// SIGTERM (SIGKILL after 5 s) by the destructor, also on failure. A server that dies early fails the step.


// ---------------------------------------------------------------------------------------------------------------
// A minimal HTTP/1.1 client for the setup steps (snapshot, answer check): one connection per request, no keep-alive.

struct HttpResponse {
    int status = 0;
    std::string body;
};

HttpResponse httpPost(int port, const std::string& path, const std::vector<std::pair<std::string, std::string>>& headers,
                      const std::string& body) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw StepFailure(std::string("socket: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    timeval timeout{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) < 0) {
        throw StepFailure("connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
    }
    std::string request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                          "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    for (const auto& [name, value] : headers) request += name + ": " + value + "\r\n";
    request += "\r\n" + body;
    for (size_t sent = 0; sent < request.size();) {
        ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw StepFailure("send to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
        }
        sent += static_cast<size_t>(n);
    }
    std::string response;
    char buffer[65536];
    while (true) {
        ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw StepFailure("recv from 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno));
        }
        if (n == 0) break;
        response.append(buffer, static_cast<size_t>(n));
    }
    size_t headerEnd = response.find("\r\n\r\n");
    if (response.rfind("HTTP/1.", 0) != 0 || headerEnd == std::string::npos) {
        throw StepFailure("127.0.0.1:" + std::to_string(port) + " sent no HTTP response: " + response.substr(0, 200));
    }
    HttpResponse result;
    result.status = std::atoi(response.c_str() + 9);
    std::string head = response.substr(0, headerEnd);
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string rest = response.substr(headerEnd + 4);
    if (head.find("transfer-encoding: chunked") != std::string::npos) {
        size_t at = 0;
        while (at < rest.size()) {
            size_t lineEnd = rest.find("\r\n", at);
            if (lineEnd == std::string::npos) break;
            size_t size = std::strtoul(rest.c_str() + at, nullptr, 16);
            if (size == 0) break;
            result.body.append(rest, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    } else {
        result.body = std::move(rest);
    }
    return result;
}

// ---------------------------------------------------------------------------------------------------------------
// wrk: run, parse its report and the Lua script's counts.

struct WrkResult {
    double requestsPerSecond = 0;
    uint64_t requests = 0;
    double p50Ms = 0, p75Ms = 0, p90Ms = 0, p99Ms = 0, maxMs = 0;
    uint64_t responses = 0, non200 = 0, errors = 0;
    uint64_t socketConnect = 0, socketRead = 0, socketWrite = 0, socketTimeout = 0;
    double serverCpuSeconds = 0;  // user + system of the server process during the run
    double seconds = 0;           // the run's wall time
    std::string report;           // wrk's stdout
};

// "702.00us", "1.23ms", "2.00s" -> milliseconds; negative when unreadable.
double parseDurationMs(const std::string& text) {
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return -1;
    std::string unit(end);
    if (unit == "us") return value / 1000.0;
    if (unit == "ms") return value;
    if (unit == "s") return value * 1000.0;
    if (unit == "m") return value * 60000.0;
    return -1;
}

WrkResult parseWrk(const std::string& step, const std::string& out) {
    WrkResult result;
    result.report = out;
    std::istringstream lines(out);
    std::string line;
    bool inDistribution = false, sawRate = false, sawLua = false;
    std::map<std::string, double> percentiles;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (line.find("Latency Distribution") != std::string::npos) {
            inDistribution = true;
            continue;
        }
        if (inDistribution) {
            std::string value;
            if (!first.empty() && first.back() == '%' && (words >> value)) {
                percentiles[first] = parseDurationMs(value);
                continue;
            }
            inDistribution = false;
        }
        if (first == "Requests/sec:") {
            words >> result.requestsPerSecond;
            sawRate = true;
        } else if (line.find(" requests in ") != std::string::npos) {
            result.requests = std::strtoull(first.c_str(), nullptr, 10);
        } else if (first == "bench-graphql-lua:") {
            std::string key;
            words >> key;
            if (key == "responses") {
                sawLua = true;
                std::string name;
                uint64_t value = 0;
                std::map<std::string, uint64_t> counts{{"responses", 0}};
                words >> counts["responses"];
                while (words >> name >> value) counts[name] = value;
                result.responses = counts["responses"];
                result.non200 = counts["non200"];
                result.errors = counts["errors"];
                result.socketConnect = counts["socket_connect"];
                result.socketRead = counts["socket_read"];
                result.socketWrite = counts["socket_write"];
                result.socketTimeout = counts["socket_timeout"];
            } else if (key == "latency_us") {
                std::string name;
                double value = 0;
                while (words >> name >> value) {
                    if (name == "max") result.maxMs = value / 1000.0;
                }
            }
        }
    }
    for (const char* needed : {"50%", "75%", "90%", "99%"}) {
        if (!percentiles.count(needed) || percentiles[needed] < 0) {
            throw StepFailure(step + ": no " + needed + " line in wrk's Latency Distribution:\n" + out);
        }
    }
    if (!sawRate) throw StepFailure(step + ": no Requests/sec line in wrk's report:\n" + out);
    if (!sawLua) throw StepFailure(step + ": the Lua script's done() line is missing from wrk's report:\n" + out);
    result.p50Ms = percentiles["50%"];
    result.p75Ms = percentiles["75%"];
    result.p90Ms = percentiles["90%"];
    result.p99Ms = percentiles["99%"];
    return result;
}

// ---------------------------------------------------------------------------------------------------------------

struct Options : WrkLoadOptions {
    size_t ids = 500;
    std::string node = "node";
    // PostgreSQL: one node behind haproxy on a server's database (its URL), or on the throwaway server (--postgres).
    std::string databaseUrl;
    bool throwawayPostgres = false;
    bool postgres() const { return throwawayPostgres || !databaseUrl.empty(); }
};

void printHelp() {
    std::cout <<
        R"(bench-graphql: svc-server's GraphQL throughput against its HTTP floor and against graphql-js

Usage: bench-graphql [--seconds N] [--warmup N] [--connections N] [--wrk-threads N] [--threads N] [--ids N]
                     [--keep] [--server PATH] [--source-dir DIR] [--node PATH] [--wrk PATH]

Sets up svc-server's demo catalog in a temporary directory under /tmp, starts `svc-server serve` on it and measures
with wrk (-t2 -c32 --latency, a warm-up run before each timed run), in one run:
  (a) GET /healthz on svc-server: the HTTP floor
  (b) POST /graphql on svc-server, the similar-products query for a random product id per request
                                         target: >= 70% of (a)'s requests/s, p99 < 5 ms
  (c) the same POSTs against graphql-js (Node, one process, same schema, svc's answers held in memory)

On PostgreSQL (--database-url URL, or --postgres for the store tests' throwaway server), as deployed (issue 24): the
cluster suite's deployment with one node (bench/DemoCluster.hpp: the demo catalog in a database of the run's own,
svc-server built with this tree, haproxy with deploy/haproxy/svc.cfg), measured through haproxy:
  (a) GET /healthz through haproxy: the floor (it asks the database for a tenant every time)
  (b) POST /graphql through haproxy, the same query   target: >= 70% of (a)'s requests/s
(no graphql-js run; bench-cluster measures 1, 2 and 3 nodes and the SDK's content the same way).

Options:
  --seconds N       length of each timed run (default 10)
  --warmup N        length of the warm-up run before each timed run, 0 for none (default 2)
  --connections N   wrk connections (default 32)
  --wrk-threads N   wrk threads (default 2)
  --threads N       svc-server worker threads, --threads of serve (default 64; one per open connection)
  --ids N           distinct product ids (variant SKUs of the demo catalog) to pick from at random (default 500)
  --keep            keep the temporary directory (data dir, snapshot, every child's output)
  --server PATH     svc-server binary (default )"
              << SVC_BUILD_BIN_DIR << R"(/svc-server)
  --source-dir DIR  the repository, for docs/api/schema.graphql, bench/graphql/ and e2e/node_modules (default )"
              << SVC_SOURCE_DIR << R"()
  --node PATH       node binary (default: node on PATH)
  --wrk PATH        wrk binary (default: wrk on PATH)
  --database-url URL  PostgreSQL: a postgresql:// URL of a server whose role may create databases (--server is not
                    used: the nodes run the svc-server of this build tree)
  --postgres        PostgreSQL: the throwaway server the cluster suite starts (fsync off: GraphQL only reads)
  --help            this text

Needs wrk (Debian package wrk), Node and the graphql package in e2e/node_modules (npm ci in e2e/). Exit status: 0 when
every step ran (PASS or FAIL is a measurement), 1 when a step failed to run (also when more than 0.1% of a run's
responses are not 200 or carry GraphQL errors), 2 on a bad command line.
)";
}

// Returns 0 to continue, or -1 after --help.
int parseOptions(int argc, char** argv, Options& options) {
    CommandLine args(argc, argv);
    while (args.next()) {
        if (args.isHelp()) {
            printHelp();
            return -1;
        } else if (options.parse(args)) {
        } else if (args.is("--ids")) {
            options.ids = static_cast<size_t>(args.number(1, 1000000));
        } else if (args.is("--node")) {
            options.node = args.value();
        } else if (args.is("--database-url")) {
            options.databaseUrl = args.value();
        } else if (args.isFlag("--postgres")) {
            options.throwawayPostgres = true;
        } else {
            args.unknown();
        }
    }
    options.check();
    if (options.throwawayPostgres && !options.databaseUrl.empty()) throw std::invalid_argument("--postgres and --database-url exclude each other");
    return 0;
}

// What a timed run watches: the process answering it (its CPU is measured), and a check that fails the step when it
// died.
struct Watched {
    std::function<void()> checkAlive;
    pid_t pid = -1;
};

// wrk with the bench's settings and bench/graphql/post.lua: a warm-up run, then the timed run, its answers checked.
struct WrkRunner {
    const Options& options;
    std::string wrk, luaScript, dir;
    std::vector<std::string>& notes;

    std::vector<std::string> arguments(int port, int seconds, const std::vector<std::string>& scriptArgs) const {
        std::vector<std::string> args{wrk,
                                      "-t" + std::to_string(options.wrkThreads),
                                      "-c" + std::to_string(options.connections),
                                      "-d" + std::to_string(seconds) + "s",
                                      "--latency",
                                      "-s",
                                      luaScript,
                                      "http://127.0.0.1:" + std::to_string(port),
                                      "--"};
        args.insert(args.end(), scriptArgs.begin(), scriptArgs.end());
        return args;
    }

    WrkResult measure(const char* label, const std::string& tag, const Watched& target, int port, const std::vector<std::string>& scriptArgs) {
        std::cout << "  running " << label << " ..." << std::flush;
        if (options.warmupSeconds > 0) {
            ChildRun warm = runChild(tag + "-warmup", arguments(port, options.warmupSeconds, scriptArgs), dir);
            WrkResult warmResult = parseWrk(std::string(label) + " warm-up", warm.out);
            if (warmResult.responses == 0) throw StepFailure(std::string(label) + " warm-up: no responses");
        }
        target.checkAlive();
        double cpuBefore = cpuSecondsOf(target.pid);
        ChildRun timed = runChild(tag, arguments(port, options.seconds, scriptArgs), dir);
        double cpuAfter = cpuSecondsOf(target.pid);
        target.checkAlive();
        WrkResult result = parseWrk(label, timed.out);
        result.serverCpuSeconds = cpuAfter - cpuBefore;
        result.seconds = timed.seconds;
        std::cout << " " << withThousands(static_cast<uint64_t>(result.requestsPerSecond + 0.5)) << " req/s\n" << std::flush;
        if (result.responses == 0) throw StepFailure(std::string(label) + ": no responses\n" + timed.out);
        uint64_t bad = result.non200 + result.errors;
        if (static_cast<double>(bad) > 0.001 * static_cast<double>(result.responses)) {
            throw StepFailure(std::string(label) + ": " + withThousands(result.non200) + " responses not 200 and " +
                              withThousands(result.errors) + " with GraphQL errors of " + withThousands(result.responses) +
                              " (more than 0.1%)\n" + timed.out);
        }
        if (bad > 0) {
            notes.push_back(std::string(label) + ": " + std::to_string(result.non200) + " responses not 200, " +
                            std::to_string(result.errors) + " with GraphQL errors (within 0.1%)");
        }
        uint64_t socketErrors = result.socketConnect + result.socketRead + result.socketWrite + result.socketTimeout;
        if (socketErrors > 0) {
            notes.push_back(std::string(label) + ": wrk socket errors: connect " + std::to_string(result.socketConnect) +
                            ", read " + std::to_string(result.socketRead) + ", write " + std::to_string(result.socketWrite) +
                            ", timeout " + std::to_string(result.socketTimeout));
        }
        return result;
    }
};

// The benchmark query, shared with bench-cluster.
constexpr const char* kBenchQuery = kGraphqlBenchQuery;

// The snapshot for graphql-js: the benchmark query's answer with every field of the schema's Product (all images and
// variants), for the product itself and for its similar products.
constexpr const char* kSnapshotQuery =
    "query Snapshot($id: ID!) { product(id: $id) { ...P similarProducts(first: 12) { edges { node { ...P } } } } } "
    "fragment P on Product { id name brand modelId url tags images(first: 100) { edges { node { url thumbnailUrl } } } "
    "variants(first: 100) { edges { node { id size price { amount currencyCode } "
    "manufacturerSuggestedRetailPrice { amount currencyCode } } } } }";

std::string graphqlBody(const std::string& query, const std::string& id) {
    return json{{"query", query}, {"variables", {{"id", id}}}}.dump();
}

// A product of a snapshot answer, in the snapshot's shape (connections flattened to lists).
json flattenProduct(const json& node) {
    json product{{"id", node.at("id")},     {"name", node.at("name")}, {"brand", node.at("brand")},
                 {"modelId", node.at("modelId")}, {"url", node.at("url")},   {"tags", node.at("tags")},
                 {"images", json::array()},  {"variants", json::array()}};
    for (const auto& edge : node.at("images").at("edges")) product["images"].push_back(edge.at("node"));
    for (const auto& edge : node.at("variants").at("edges")) product["variants"].push_back(edge.at("node"));
    return product;
}

// The demo catalog's variant SKUs, from the shop file `demo setup` writes (DATA/demo/shop.json).
std::vector<std::string> demoSkus(const std::string& dataDir) {
    std::string path = dataDir + "/demo/shop.json";
    auto shop = json::parse(readWholeFile(path), nullptr, false);
    if (shop.is_discarded() || !shop.contains("products") || !shop["products"].is_array()) {
        throw StepFailure("cannot read the demo products from " + path);
    }
    std::vector<std::string> skus;
    std::set<std::string> seen;
    for (const auto& product : shop["products"]) {
        auto add = [&](const json& value) {
            if (value.is_string() && seen.insert(value.get<std::string>()).second) skus.push_back(value.get<std::string>());
        };
        if (product.contains("variants") && product["variants"].is_array()) {
            for (const auto& variant : product["variants"]) {
                if (variant.contains("sku")) add(variant["sku"]);
            }
        } else if (product.contains("sku")) {
            add(product["sku"]);
        }
    }
    if (skus.empty()) throw StepFailure("no SKUs in " + path);
    return skus;
}

// `count` of the SKUs, drawn with a fixed seed.
std::vector<std::string> randomIds(std::vector<std::string> skus, size_t count) {
    std::mt19937 engine(20240604);
    for (size_t i = skus.size(); i > 1; --i) {  // Fisher-Yates with raw engine output (portable)
        size_t j = static_cast<size_t>((static_cast<uint64_t>(engine()) * i) >> 32);
        std::swap(skus[i - 1], skus[j]);
    }
    if (skus.size() > count) skus.resize(count);
    return skus;
}

void printDetail(const char* step, const WrkResult& r) {
    auto ms = [](double value) { return fixed(value, value < 10 ? 2 : 1) + " ms"; };
    double cpuShare = r.seconds > 0 ? r.serverCpuSeconds / r.seconds : 0;
    double cpuPerRequest = r.requests > 0 ? 1e6 * r.serverCpuSeconds / static_cast<double>(r.requests) : 0;
    std::cout << "  " << step << " " << withThousands(r.requests) << " requests; latency p50 " << ms(r.p50Ms) << ", p75 "
              << ms(r.p75Ms) << ", p90 " << ms(r.p90Ms) << ", p99 " << ms(r.p99Ms) << ", max " << ms(r.maxMs)
              << "; server CPU " << fixed(100 * cpuShare, 0) << "% of a core, " << fixed(cpuPerRequest, 0)
              << " us/request\n";
}

// On PostgreSQL, as deployed: one node of the cluster suite's deployment behind haproxy, measured through haproxy.
int runPostgres(const Options& options, const std::string& wrk) {
    std::string helperDir = options.sourceDir + "/bench/graphql";
    TempDir temp = createTempDir("bench-graphql", options.keep);
    const std::string& dir = temp.path;
    std::vector<std::string> notes;
    std::string luaScript = dir + "/post.lua";
    std::error_code copyError;
    fs::copy_file(helperDir + "/post.lua", luaScript, copyError);
    if (copyError) throw StepFailure("cannot copy " + helperDir + "/post.lua: " + copyError.message() + " (or pass --source-dir DIR)");
    std::string wrkVersion = firstLine(runChild("wrk-version", {wrk, "-v"}, dir, 1).out);
    wrkVersion = wrkVersion.substr(0, wrkVersion.find(" ["));

    std::cout << "bench-graphql: PostgreSQL " << (options.databaseUrl.empty() ? "(throwaway)" : "(--database-url)")
              << ", demo setup, one node, haproxy ..." << std::flush;
    auto started = std::chrono::steady_clock::now();
    DemoCluster demo(1, options.databaseUrl, {"--threads", std::to_string(options.svcThreads)});
    std::string postgresVersion = svc::cluster::queryRows(demo.cluster().databaseUrl(), "SHOW server_version")[0][0];
    std::cout << " " << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 1) << " s\n" << std::flush;
    int port = demo.balancerPort();
    const std::string& apiId = demo.apiId();

    // ---- The ids, as on SQLite; each must answer the query through haproxy with a product and no error.
    std::vector<std::string> skus = randomIds(demoSkus(demo.cluster().nodeDir(0)), options.ids);
    std::vector<std::pair<std::string, std::string>> headers{{"content-type", "application/json"}, {"x-api-id", apiId}};
    std::vector<std::string> ids;
    size_t answerBytes = 0;
    for (const auto& sku : skus) {
        stopIfInterrupted();
        HttpResponse response = httpPost(port, "/graphql", headers, graphqlBody(kBenchQuery, sku));
        auto answer = json::parse(response.body, nullptr, false);
        if (response.status != 200 || answer.is_discarded() || answer.contains("errors")) {
            throw StepFailure("check: svc answered " + std::to_string(response.status) + " for " + sku + ": " + response.body.substr(0, 500));
        }
        if (answer["data"]["product"].is_null()) continue;
        ids.push_back(sku);
        answerBytes += response.body.size();
    }
    if (ids.empty()) throw StepFailure("check: product(id) was null for every id");
    std::string idsPath = dir + "/ids.txt", queryPath = dir + "/query.graphql";
    {
        std::string text;
        for (const auto& id : ids) text += id + "\n";
        writeWholeFile(idsPath, text);
    }
    writeWholeFile(queryPath, kBenchQuery);

    WrkRunner runner{options, wrk, luaScript, dir, notes};
    svc::cluster::LoggedProcess& node = demo.cluster().process(0);
    Watched watched{[&node] {
                        if (node.hasExited()) throw StepFailure("the node exited: " + node.logTail());
                    },
                    node.pid()};
    std::cout << "bench-graphql: wrk " << options.wrkThreads << " threads, " << options.connections << " connections, "
              << options.seconds << " s per run after a " << options.warmupSeconds << " s warm-up, through haproxy\n";
    WrkResult floor = runner.measure("(a) GET /healthz via haproxy", "a-healthz", watched, port, {"get", "/healthz"});
    WrkResult graphql = runner.measure("(b) POST /graphql via haproxy", "b-graphql", watched, port, {"post", idsPath, apiId, queryPath});
    long rssKiB = statusFieldOf(node.pid(), "VmRSS:");
    std::cout << "\n";

    double share = graphql.requestsPerSecond / floor.requestsPerSecond;
    auto rate = [](const WrkResult& r) { return padLeft(withThousands(static_cast<uint64_t>(r.requestsPerSecond + 0.5)), 7) + " req/s"; };
    auto ms = [](double value) { return fixed(value, value < 10 ? 2 : 1) + " ms"; };
    std::cout << padRight("(a) GET /healthz via haproxy", 32) << rate(floor) << "                  p50 " << ms(floor.p50Ms) << "  p99 "
              << ms(floor.p99Ms) << "\n";
    std::cout << padRight("(b) POST /graphql via haproxy", 32) << rate(graphql) << "  = "
              << padRight(fixed(100 * share, 0) + "% of (a)", 14) << "target >= 70%  " << (share >= 0.70 ? "PASS" : "FAIL") << "   p50 "
              << ms(graphql.p50Ms) << "  p99 " << ms(graphql.p99Ms) << "\n";
    std::cout << "\ndetails\n";
    printDetail("(a)", floor);
    printDetail("(b)", graphql);
    std::cout << "  one svc-server node (" << SVC_SERVER_BINARY << ", serve --threads " << options.svcThreads << ", RSS " << rssKiB / 1024
              << " MiB) on PostgreSQL " << postgresVersion << ", behind haproxy (deploy/haproxy/svc.cfg); " << ids.size()
              << " random ids, answers avg " << withThousands(answerBytes / ids.size()) << " bytes; /healthz asks the database for a "
              << "tenant every time, GraphQL answers from memory\n";
    std::cout << "  wrk: " << wrkVersion << "; machine: " << std::thread::hardware_concurrency()
              << " cores shared by wrk, haproxy, the node and PostgreSQL\n";
    for (const auto& note : notes) std::cout << "  note: " << note << "\n";
    return 0;
}

int run(const Options& options) {
    std::string wrk = findInPath(options.wrk);
    if (wrk.empty()) throw StepFailure("wrk not found (" + options.wrk + "; Debian package wrk, or pass --wrk PATH)");
    if (options.postgres()) return runPostgres(options, wrk);
    std::string node = findInPath(options.node);
    if (node.empty()) throw StepFailure("node not found (" + options.node + "; pass --node PATH)");
    std::string schemaPath = options.sourceDir + "/docs/api/schema.graphql";
    std::string helperDir = options.sourceDir + "/bench/graphql";
    std::string nodeModules = options.sourceDir + "/e2e/node_modules";
    for (const std::string& needed : {schemaPath, helperDir + "/post.lua", helperDir + "/graphql-js-server.js",
                                      nodeModules + "/graphql/package.json"}) {
        if (!fs::exists(needed)) {
            throw StepFailure(needed + " is missing" +
                              (needed.find("node_modules") != std::string::npos ? " (run npm ci in e2e/)" : "") +
                              " (or pass --source-dir DIR)");
        }
    }

    TempDir temp = createTempDir("bench-graphql", options.keep);
    const std::string& dir = temp.path;
    std::vector<std::string> notes;

    // Private copies: svc-server and the helper scripts may be rebuilt or edited while the bench runs, and every
    // step must use one version. The schema is read once, by the graphql-js server at its start.
    std::string server = privateServerCopy(options.server, dir);
    std::string luaScript = dir + "/post.lua";
    std::string jsServer = dir + "/graphql-js-server.js";
    for (const auto& [from, to] : {std::pair{helperDir + "/post.lua", luaScript}, std::pair{helperDir + "/graphql-js-server.js", jsServer}}) {
        std::error_code error;
        fs::copy_file(from, to, error);
        if (error) throw StepFailure("cannot copy " + from + " to " + to + ": " + error.message());
    }

    std::string wrkVersion = firstLine(runChild("wrk-version", {wrk, "-v"}, dir, 1).out);
    wrkVersion = wrkVersion.substr(0, wrkVersion.find(" ["));
    std::string nodeVersion = firstLine(runChild("node-version", {node, "--version"}, dir).out);

    // ---- Data: the demo catalog.
    std::cout << "bench-graphql: demo setup in " << dir << " ..." << std::flush;
    std::string dataDir = dir + "/data";
    ChildRun setup = runChild("demo-setup", {server, "demo", "setup", "--data-dir", dataDir, "--assets-dir",
                                             std::string(SVC_BUILD_BIN_DIR) + "/../share/svc"}, dir);
    auto setupJson = json::parse(setup.out, nullptr, false);
    if (setupJson.is_discarded() || !setupJson.contains("apiId") || !setupJson["apiId"].is_string()) {
        throw StepFailure("demo setup: no apiId in its output: " + lastLines(setup.out, 5));
    }
    std::string apiId = setupJson["apiId"].get<std::string>();
    int64_t catalogRows = setupJson.value("/import/rowsRead"_json_pointer, int64_t{-1});
    std::cout << " " << fixed(setup.seconds, 1) << " s\n" << std::flush;

    // ---- svc-server.
    ServerProcess svc("bench-graphql", "svc-server",
                      {server, "serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--threads", std::to_string(options.svcThreads)},
                      dir, 5);
    int svcPort = svc.awaitListening(15);

    // ---- The random list: distinct variant SKUs, drawn with a fixed seed; kept when product(id) is non-null.
    std::vector<std::string> skus = demoSkus(dataDir);
    size_t available = skus.size();
    skus = randomIds(std::move(skus), options.ids);

    // ---- The snapshot for graphql-js, from svc's answers.
    std::cout << "bench-graphql: snapshot of svc's answers for " << skus.size() << " ids ..." << std::flush;
    auto snapshotStarted = std::chrono::steady_clock::now();
    std::vector<std::pair<std::string, std::string>> headers{{"content-type", "application/json"}, {"x-api-id", apiId}};
    json products = json::object(), lookup = json::object();
    std::vector<std::string> ids;
    size_t similarTotal = 0;
    std::vector<std::string> nullProducts;
    std::set<std::string> productIds;
    for (const auto& sku : skus) {
        stopIfInterrupted();
        HttpResponse response = httpPost(svcPort, "/graphql", headers, graphqlBody(kSnapshotQuery, sku));
        auto answer = json::parse(response.body, nullptr, false);
        if (response.status != 200 || answer.is_discarded() || answer.contains("errors") || !answer.contains("data")) {
            throw StepFailure("snapshot: svc answered " + std::to_string(response.status) + " for " + sku + ": " +
                              response.body.substr(0, 500));
        }
        const json& product = answer["data"]["product"];
        if (product.is_null()) {
            nullProducts.push_back(sku);
            continue;
        }
        try {
            json entry{{"product", product.at("id")}, {"similar", json::array()}};
            products[product.at("id").get<std::string>()] = flattenProduct(product);
            for (const auto& edge : product.at("similarProducts").at("edges")) {
                const json& similar = edge.at("node");
                products[similar.at("id").get<std::string>()] = flattenProduct(similar);
                entry["similar"].push_back(similar.at("id"));
            }
            similarTotal += entry["similar"].size();
            productIds.insert(product.at("id").get<std::string>());
            lookup[sku] = std::move(entry);
        } catch (const json::exception& error) {
            throw StepFailure("snapshot: unexpected answer for " + sku + " (" + error.what() + "): " +
                              response.body.substr(0, 500));
        }
        ids.push_back(sku);
    }
    if (ids.empty()) throw StepFailure("snapshot: product(id) was null for every id");
    if (!nullProducts.empty()) {
        std::string some;
        for (size_t i = 0; i < nullProducts.size() && i < 5; ++i) some += (i ? ", " : "") + nullProducts[i];
        notes.push_back(std::to_string(nullProducts.size()) + " SKUs of the demo shop file had product(id) null, left out: " +
                        some + (nullProducts.size() > 5 ? ", ..." : ""));
    }
    double snapshotSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - snapshotStarted).count();
    std::cout << " " << fixed(snapshotSeconds, 1) << " s\n" << std::flush;

    std::string snapshotPath = dir + "/snapshot.json", idsPath = dir + "/ids.txt", queryPath = dir + "/query.graphql";
    writeWholeFile(snapshotPath, json{{"products", products}, {"lookup", lookup}}.dump());
    {
        std::string text;
        for (const auto& id : ids) text += id + "\n";
        writeWholeFile(idsPath, text);
    }
    writeWholeFile(queryPath, kBenchQuery);

    // ---- graphql-js.
    ServerProcess graphqlJs("bench-graphql", "graphql-js",
                            {node, jsServer, "--schema", schemaPath, "--snapshot", snapshotPath, "--api-id", apiId, "--listen", "127.0.0.1:0"},
                            dir, 5, {"NODE_PATH=" + nodeModules, "NODE_ENV=production"});
    int jsPort = graphqlJs.awaitListening(30);
    std::string jsBanner = firstLine(readWholeFile(dir + "/graphql-js.stdout"));

    // ---- Same answers: the benchmark query for every id, from both servers.
    std::cout << "bench-graphql: checking both servers' answers for " << ids.size() << " ids ..." << std::flush;
    auto checkStarted = std::chrono::steady_clock::now();
    size_t answerBytesSvc = 0, answerBytesJs = 0;
    for (const auto& id : ids) {
        stopIfInterrupted();
        std::string body = graphqlBody(kBenchQuery, id);
        HttpResponse fromSvc = httpPost(svcPort, "/graphql", headers, body);
        HttpResponse fromJs = httpPost(jsPort, "/graphql", headers, body);
        auto svcAnswer = json::parse(fromSvc.body, nullptr, false);
        auto jsAnswer = json::parse(fromJs.body, nullptr, false);
        if (fromSvc.status != 200 || svcAnswer.is_discarded() || svcAnswer.contains("errors")) {
            throw StepFailure("check: svc answered " + std::to_string(fromSvc.status) + " for " + id + ": " +
                              fromSvc.body.substr(0, 500));
        }
        if (fromJs.status != 200 || jsAnswer.is_discarded() || jsAnswer.contains("errors")) {
            throw StepFailure("check: graphql-js answered " + std::to_string(fromJs.status) + " for " + id + ": " +
                              fromJs.body.substr(0, 500));
        }
        // The data must be the same; svc's answers also carry `extensions` (its API version), graphql-js's none.
        if (svcAnswer["data"] != jsAnswer["data"]) {
            // The first place they differ, as a JSON pointer into svc's answer.
            const json difference = json::diff(svcAnswer["data"], jsAnswer["data"]).at(0);
            const std::string where = difference["path"];
            const json::json_pointer pointer(where);
            auto valueAt = [&](const json& data) { return data.contains(pointer) ? data.at(pointer).dump().substr(0, 300) : "(absent)"; };
            throw StepFailure("check: svc and graphql-js answer differently for " + id + " at /data" + where + "\n  svc:        " +
                              valueAt(svcAnswer["data"]) + "\n  graphql-js: " + valueAt(jsAnswer["data"]));
        }
        answerBytesSvc += fromSvc.body.size();
        answerBytesJs += fromJs.body.size();
    }
    double checkSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - checkStarted).count();
    std::cout << " " << fixed(checkSeconds, 1) << " s, identical\n" << std::flush;

    // ---- The wrk runs.
    WrkRunner runner{options, wrk, luaScript, dir, notes};
    std::vector<std::string> getArgs{"get", "/healthz"};
    std::vector<std::string> postArgs{"post", idsPath, apiId, queryPath};
    auto measure = [&](const char* label, const std::string& tag, ServerProcess& target, int port, const std::vector<std::string>& scriptArgs) {
        return runner.measure(label, tag, {[&target] { target.checkAlive(); }, target.pid()}, port, scriptArgs);
    };
    std::cout << "bench-graphql: wrk " << options.wrkThreads << " threads, " << options.connections << " connections, "
              << options.seconds << " s per run after a " << options.warmupSeconds << " s warm-up\n";
    WrkResult floor = measure("(a) svc GET /healthz", "a-svc-healthz", svc, svcPort, getArgs);
    WrkResult svcGraphql = measure("(b) svc POST /graphql", "b-svc-graphql", svc, svcPort, postArgs);
    WrkResult jsGraphql = measure("(c) graphql-js POST /graphql", "c-graphql-js", graphqlJs, jsPort, postArgs);
    long svcRssKiB = svc.statusField("VmRSS:"), jsRssKiB = graphqlJs.statusField("VmRSS:"), svcThreadCount = svc.statusField("Threads:");
    graphqlJs.stop();
    svc.stop();
    std::cout << "\n";

    // ---- The table.
    double shareB = svcGraphql.requestsPerSecond / floor.requestsPerSecond;
    double shareC = jsGraphql.requestsPerSecond / svcGraphql.requestsPerSecond;
    auto passFail = [](bool pass) { return pass ? "PASS" : "FAIL"; };
    auto rate = [](const WrkResult& r) {
        return padLeft(withThousands(static_cast<uint64_t>(r.requestsPerSecond + 0.5)), 7) + " req/s";
    };
    auto ms = [](double value) { return fixed(value, value < 10 ? 2 : 1) + " ms"; };
    auto pct = [](double share) { return fixed(100.0 * share, share < 0.1 ? 1 : 0) + "%"; };
    const size_t label = 32;

    std::cout << "demo catalog: " << (catalogRows >= 0 ? withThousands(static_cast<uint64_t>(catalogRows)) : "?")
              << " variants; " << ids.size() << " random ids (variant SKUs of " << productIds.size() << " products, of "
              << withThousands(available) << " SKUs); answers avg " << withThousands(answerBytesSvc / ids.size()) << " bytes\n";
    std::cout << padRight("(a) svc GET /healthz (floor)", label) << rate(floor) << "                  "
              << "p50 " << ms(floor.p50Ms) << "  p99 " << ms(floor.p99Ms) << "\n";
    std::cout << padRight("(b) svc POST /graphql", label) << rate(svcGraphql) << "  = "
              << padRight(pct(shareB) + " of (a)", 14) << "target >= 70%  " << passFail(shareB >= 0.70) << "   p50 "
              << ms(svcGraphql.p50Ms) << "  p99 " << ms(svcGraphql.p99Ms) << "  target < 5 ms  "
              << passFail(svcGraphql.p99Ms < 5.0) << "\n";
    std::cout << padRight("(c) graphql-js POST /graphql", label) << rate(jsGraphql) << "  = "
              << padRight(pct(shareC) + " of (b)", 14) << "(informational)   p50 " << ms(jsGraphql.p50Ms) << "  p99 "
              << ms(jsGraphql.p99Ms) << "\n";

    std::cout << "\ndetails\n";
    printDetail("(a)", floor);
    printDetail("(b)", svcGraphql);
    printDetail("(c)", jsGraphql);
    std::cout << "  svc-server: " << options.server << " (run as a copy made at the start), serve --threads "
              << options.svcThreads << " (" << svcThreadCount << " threads at the end), RSS " << svcRssKiB / 1024
              << " MiB\n";
    std::cout << "  graphql-js: " << jsBanner << "; one process, NODE_ENV=production, RSS " << jsRssKiB / 1024
              << " MiB;\n    answers from a snapshot of svc's answers (" << products.size() << " products, "
              << fixed(static_cast<double>(similarTotal) / static_cast<double>(ids.size()), 1)
              << " similar ids per id, precomputed: no ranking), schema read from " << schemaPath << "\n";
    std::cout << "  check: the benchmark query gave identical JSON from both servers for all " << ids.size()
              << " ids (svc " << withThousands(answerBytesSvc / ids.size()) << " bytes/answer, graphql-js "
              << withThousands(answerBytesJs / ids.size()) << ")\n";
    std::cout << "  wrk: " << wrkVersion << ", " << commandLine({"wrk", "-t" + std::to_string(options.wrkThreads),
                                                                  "-c" + std::to_string(options.connections),
                                                                  "-d" + std::to_string(options.seconds) + "s",
                                                                  "--latency", "-s", "bench/graphql/post.lua", "URL", "--",
                                                                  "post|get", "..."})
              << "; " << nodeVersion << "\n";
    std::cout << "  query (POST body {\"query\": ..., \"variables\": {\"id\": SKU}}, content-type application/json, x-api-id):\n"
              << "    " << kBenchQuery << "\n";
    std::cout << "  machine: " << std::thread::hardware_concurrency()
              << " cores shared by wrk and the server under test (wrk takes about one)\n";
    for (const auto& note : notes) std::cout << "  note: " << note << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-graphql", argc, argv, parseOptions, run); }
