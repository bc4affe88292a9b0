// bench-content: the SDK's content request against svc-server's own HTTP floor, in one run (issue 23, "The hot path
// reads no database").
//
// A generated fashion catalog (bench/FashionFeed.hpp, default 100,000 SKUs) is imported with the real CLI into a fresh
// data dir under /tmp, then a delta feed changes ~1% of the rows a second later, so svc's price history knows earlier
// prices; the tenant's country is DE (the lowest 30-day price is shown for reduced items) and the content pool's
// templates are stored. `svc-server serve` runs on a loopback port, and wrk measures, each after a warm-up run:
//   (a) GET /healthz: the floor (before and after (b); the ratio uses their mean),
//   (b) GET /<apiId>/content for a product page with a SIMILAR and a SET widget, the anchor one of --anchors variant
//       SKUs drawn at random per request, with the page hints (hl, hp) and the Origin and Referer of a shop page.
// Every anchor's answer is checked first: 200, and the figures of what the answers hold are printed (items,
// alternatives, items with a lowest 30-day price). Exit status: 0 when every step ran (whatever the figures), 1 when a
// step failed (also when more than 0.1% of a run's responses are not 200), 2 on a bad command line.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "BenchSupport.hpp"
#include "FashionFeed.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bench;
using nlohmann::json;

struct Options : WrkLoadOptions {
    uint64_t skus = 100000;
    size_t anchors = 1000;
    bool imageBot = false;
};

void printHelp() {
    std::cout << R"(bench-content: the SDK's content request (a SIMILAR + SET product page) against the /healthz floor

Usage: bench-content [--skus N] [--anchors N] [--seconds N] [--warmup N] [--connections N] [--wrk-threads N]
                     [--threads N] [--image-bot] [--keep] [--server PATH] [--source-dir DIR] [--wrk PATH]

Generates a fashion catalog, imports it (and a 1% delta a second later, for svc's price history) into a fresh data
dir under /tmp with svc-server's CLI, sets the tenant's country to DE, starts `svc-server serve` and measures with wrk
(a warm-up run before each timed run), in one run:
  (a) GET /healthz: the floor, before and after (b)
  (b) GET /<apiId>/content?w=SIMILAR&t=product&s=SKU&i=&w=SET&t=product&s=SKU&i=&hl=de&hp=p for a random anchor SKU
      per request                                        target: >= 70% of (a)'s requests/s (the mean of both)

Options:
  --skus N          catalog size in variant SKUs, 5 per main SKU (default 100000)
  --anchors N       distinct anchor SKUs drawn from the catalog (default 1000)
  --seconds N       length of each timed run (default 10)
  --warmup N        length of the warm-up run before each timed run, 0 for none (default 2)
  --connections N   wrk connections (default 32)
  --wrk-threads N   wrk threads (default 2)
  --threads N       svc-server worker threads, --threads of serve (default 64)
  --image-bot       leave serve's image bot on (the catalog's image URLs do not resolve; default --no-image-bot)
  --keep            keep the temporary directory (data dir, feeds, every child's output)
  --server PATH     svc-server binary (default )"
              << SVC_BUILD_BIN_DIR << R"(/svc-server)
  --source-dir DIR  the repository, for bench/content/paths.lua and the content pool (default )"
              << SVC_SOURCE_DIR << R"()
  --wrk PATH        wrk binary (default: wrk on PATH)
  --help            this text

Needs wrk (Debian package wrk). Exit status: 0 when every step ran (PASS or FAIL is a measurement), 1 when a step
failed to run, 2 on a bad command line.
)";
}

int parseOptions(int argc, char** argv, Options& options) {
    CommandLine args(argc, argv);
    while (args.next()) {
        if (args.isHelp()) {
            printHelp();
            return -1;
        } else if (options.parse(args)) {
        } else if (args.isFlag("--image-bot")) {
            options.imageBot = true;
        } else if (args.is("--skus")) {
            options.skus = static_cast<uint64_t>(args.number(100, 2000000));
        } else if (args.is("--anchors")) {
            options.anchors = static_cast<size_t>(args.number(1, 100000));
        } else {
            args.unknown();
        }
    }
    options.check();
    return 0;
}

// Runs a child to its end; its stdout, or a failure naming the step. A SIGTERM to the bench reaches the child too.
std::string runChild(const std::string& step, const std::vector<std::string>& argv, const std::string& workDir) {
    std::string out = workDir + "/" + step + ".stdout", err = workDir + "/" + step + ".stderr";
    pid_t pid = spawn(step, argv, out, err);
    int status = 0;
    bool forwarded = false;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw StepFailure(step + ": waitpid failed: " + std::strerror(errno));
        if (interrupted && !forwarded) {
            ::kill(pid, SIGTERM);
            forwarded = true;
        }
    }
    stopIfInterrupted();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw StepFailure(step + ": `" + commandLine(argv) + "` " + describeStatus(status) + "\n  stderr: " +
                          lastLines(readWholeFile(err), 5));
    }
    return readWholeFile(out);
}

json parseJson(const std::string& step, const std::string& text) {
    auto parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded()) throw StepFailure(step + ": not JSON: " + lastLines(text, 5));
    return parsed;
}

// `count` variant SKUs of the feed (its first column), drawn without repetition by a seeded generator.
std::vector<std::string> anchorSkus(const std::string& feedPath, size_t count) {
    std::ifstream feed(feedPath);
    std::string line;
    std::getline(feed, line);  // the header
    std::vector<std::string> skus;
    while (std::getline(feed, line)) {
        size_t end = line.find('"', 1);
        if (line.empty() || line[0] != '"' || end == std::string::npos) throw StepFailure(feedPath + ": unexpected row " + line.substr(0, 80));
        skus.push_back(line.substr(1, end - 1));
    }
    Rng rng(20250123u);
    for (size_t i = skus.size(); i > 1; --i) std::swap(skus[i - 1], skus[rng.below(static_cast<uint32_t>(i))]);
    if (skus.size() > count) skus.resize(count);
    return skus;
}

struct RunResult {
    double requestsPerSecond = 0;
    uint64_t responses = 0, non200 = 0, socketErrors = 0;
    double p50Ms = 0, p90Ms = 0, p99Ms = 0;
    double serverCpuMicrosPerRequest = 0;
};

RunResult parseRun(const std::string& step, const std::string& out) {
    RunResult result;
    bool sawRate = false, sawCounts = false, sawLatency = false;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first, kind;
        words >> first;
        if (first == "Requests/sec:") {
            words >> result.requestsPerSecond;
            sawRate = true;
        } else if (first == "bench-content-lua:" && (words >> kind)) {
            std::map<std::string, double> values;
            if (kind == "responses") {
                double responses = 0;
                words >> responses;
                values["responses"] = responses;
            }
            std::string name;
            double value = 0;
            while (words >> name >> value) values[name] = value;
            if (kind == "responses") {
                sawCounts = true;
                result.responses = static_cast<uint64_t>(values["responses"]);
                result.non200 = static_cast<uint64_t>(values["non200"]);
                result.socketErrors = static_cast<uint64_t>(values["socket_connect"] + values["socket_read"] + values["socket_write"] +
                                                            values["socket_timeout"]);
            } else if (kind == "latency_us") {
                sawLatency = true;
                result.p50Ms = values["p50"] / 1000.0;
                result.p90Ms = values["p90"] / 1000.0;
                result.p99Ms = values["p99"] / 1000.0;
            }
        }
    }
    if (!sawRate || !sawCounts || !sawLatency) throw StepFailure(step + ": wrk's report lacks Requests/sec or the script's lines:\n" + out);
    if (result.responses == 0) throw StepFailure(step + ": no responses");
    if (result.non200 * 1000 > result.responses) {
        throw StepFailure(step + ": " + std::to_string(result.non200) + " of " + std::to_string(result.responses) + " responses were not 200");
    }
    return result;
}

int run(const Options& options) {
    std::string wrk = findInPath(options.wrk);
    if (wrk.empty()) throw StepFailure("wrk not found (" + options.wrk + "; Debian package wrk, or pass --wrk PATH)");
    std::string script = options.sourceDir + "/bench/content/paths.lua";
    std::string pool = options.sourceDir + "/native-server/content-pool/fashion.json";
    for (const auto& needed : {script, pool}) {
        if (!fs::exists(needed)) throw StepFailure(needed + " is missing (pass --source-dir DIR)");
    }
    TempDir temp = createTempDir("bench-content", options.keep);
    const std::string& dir = temp.path;
    std::string server = privateServerCopy(options.server, dir);
    std::string dataDir = dir + "/data";

    std::cout << "bench-content: generating " << withThousands(options.skus) << " SKUs ..." << std::flush;
    fashion::GeneratedFeeds feeds = fashion::generateFeeds(dir, options.skus);
    std::cout << " " << fixed(feeds.seconds, 1) << " s (" << withThousands(feeds.mainSkus) << " main SKUs, " << feeds.kinds
              << " kinds, " << withThousands(feeds.saleArticles) << " articles reduced)\n";

    std::cout << "bench-content: tenant, content pool, imports ..." << std::flush;
    auto setupStarted = std::chrono::steady_clock::now();
    json created = parseJson("tenant create", runChild("tenant-create", {server, "tenant", "create", "--data-dir", dataDir, "--name", "Bench Shop"}, dir));
    std::string apiId = created.value("apiId", "");
    if (apiId.empty()) throw StepFailure("tenant create: no apiId in its output");
    runChild("content-pool", {server, "content-pool", "import", "--data-dir", dataDir, pool}, dir);
    runChild("tenant-widgets", {server, "tenant", "widgets", "--data-dir", dataDir, "--api-id", apiId, "--country", "DE"}, dir);
    runChild("feed-full", {server, "feed", "import", "--data-dir", dataDir, "--api-id", apiId, feeds.full}, dir);
    // The price history records a change at the second of its import: the delta must come in a later second.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    runChild("feed-delta", {server, "feed", "import", "--delta", "--data-dir", dataDir, "--api-id", apiId, feeds.delta}, dir);
    std::cout << " " << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStarted).count(), 1) << " s\n";

    std::vector<std::string> serveArgs{server, "serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--threads",
                                       std::to_string(options.svcThreads), "--assets-dir", std::string(SVC_BUILD_BIN_DIR) + "/../share/svc"};
    if (!options.imageBot) serveArgs.push_back("--no-image-bot");
    ServerProcess svc("bench-content", "svc-server", serveArgs, dir, 10);
    int port = svc.awaitListening(30);
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(30, 0);
    std::cout << "bench-content: waiting for /readyz ..." << std::flush;
    auto readyStarted = std::chrono::steady_clock::now();
    while (true) {
        auto ready = client.Get("/readyz");
        if (ready && ready->status == 200) break;
        svc.checkAlive();
        stopIfInterrupted();
        if (std::chrono::steady_clock::now() - readyStarted > std::chrono::minutes(5)) throw StepFailure("/readyz not 200 after 5 minutes");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::cout << " " << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - readyStarted).count(), 1) << " s\n";

    // The page as the SDK asks for it (ContentRequest::toQueryString, then the page hints of wasm-sdk/js/api.js).
    std::vector<std::string> anchors = anchorSkus(feeds.full, options.anchors);
    std::vector<std::string> paths;
    for (const auto& sku : anchors) {
        paths.push_back("/" + apiId + "/content?w=SIMILAR&t=product&s=" + sku + "&i=&w=SET&t=product&s=" + sku + "&i=&hl=de&hp=p");
    }
    std::string origin = "https://www.shop.example";
    std::cout << "bench-content: checking " << paths.size() << " answers ..." << std::flush;
    size_t similarItems = 0, setItems = 0, alternatives = 0, withLowest = 0, reduced = 0, emptySimilar = 0, emptySet = 0, bytes = 0;
    for (const auto& path : paths) {
        auto answer = client.Get(path, httplib::Headers{{"Origin", origin}, {"Referer", origin + "/p/product.html"}});
        if (!answer || answer->status != 200) {
            throw StepFailure("GET " + path + ": " + (answer ? std::to_string(answer->status) + " " + answer->body.substr(0, 300) : "no answer"));
        }
        bytes += answer->body.size();
        json body = parseJson("GET " + path, answer->body);
        const json& widgets = body.at("widgets");
        if (widgets.size() != 2) throw StepFailure("GET " + path + ": " + std::to_string(widgets.size()) + " widgets, not 2");
        auto count = [&](const json& item) {
            if (item.contains("retailPrice") && item["retailPrice"].get<int64_t>() > item["price"].get<int64_t>()) ++reduced;
            if (item.contains("lowestPrice30Days")) ++withLowest;
        };
        similarItems += widgets[0]["items"].size();
        setItems += widgets[1]["items"].size();
        emptySimilar += widgets[0]["items"].empty() ? 1 : 0;
        emptySet += widgets[1]["items"].empty() ? 1 : 0;
        for (const auto& widget : widgets) {
            for (const auto& item : widget["items"]) {
                count(item);
                if (!item.contains("alternatives")) continue;
                alternatives += item["alternatives"].size();
                for (const auto& alternative : item["alternatives"]) count(alternative);
            }
        }
    }
    double n = static_cast<double>(paths.size());
    std::cout << " per answer: SIMILAR " << fixed(similarItems / n, 1) << " items, SET " << fixed(setItems / n, 1) << " items + "
              << fixed(alternatives / n, 1) << " alternatives, " << fixed(reduced / n, 1) << " reduced, " << fixed(withLowest / n, 2)
              << " with a lowest 30-day price, " << withThousands(bytes / paths.size()) << " bytes; empty SIMILAR " << emptySimilar
              << ", empty SET " << emptySet << "\n";

    std::string contentPaths = dir + "/content-paths.txt", floorPaths = dir + "/floor-paths.txt";
    {
        std::ofstream out(contentPaths);
        for (const auto& path : paths) out << path << "\n";
        std::ofstream floor(floorPaths);
        floor << "/healthz\n";
    }
    auto wrkRun = [&](const std::string& step, const std::string& pathsFile, int seconds) {
        std::vector<std::string> argv{wrk, "-t" + std::to_string(options.wrkThreads), "-c" + std::to_string(options.connections),
                                      "-d" + std::to_string(seconds) + "s", "--latency", "-s", script,
                                      "http://127.0.0.1:" + std::to_string(port), "--", pathsFile, origin};
        return runChild(step, argv, dir);
    };
    auto measure = [&](const std::string& label, const std::string& step, const std::string& pathsFile) {
        std::cout << "  running " << label << " ..." << std::flush;
        if (options.warmupSeconds > 0) parseRun(step + " warm-up", wrkRun(step + "-warmup", pathsFile, options.warmupSeconds));
        double cpuBefore = svc.cpuSeconds();
        RunResult result = parseRun(step, wrkRun(step, pathsFile, options.seconds));
        svc.checkAlive();
        result.serverCpuMicrosPerRequest = (svc.cpuSeconds() - cpuBefore) * 1e6 / static_cast<double>(result.responses);
        std::cout << " " << withThousands(static_cast<uint64_t>(result.requestsPerSecond)) << " req/s\n" << std::flush;
        return result;
    };
    RunResult floorBefore = measure("(a) GET /healthz", "floor-before", floorPaths);
    RunResult content = measure("(b) GET /<apiId>/content", "content", contentPaths);
    RunResult floorAfter = measure("(a') GET /healthz", "floor-after", floorPaths);
    svc.stop();

    double floor = (floorBefore.requestsPerSecond + floorAfter.requestsPerSecond) / 2;
    double share = content.requestsPerSecond / floor;
    auto row = [](const std::string& label, const RunResult& r, const std::string& middle) {
        std::cout << padRight(label, 34) << padLeft(withThousands(static_cast<uint64_t>(r.requestsPerSecond)), 8) << " req/s  "
                  << padRight(middle, 34) << "p50 " << fixed(r.p50Ms, 2) << " ms  p99 " << fixed(r.p99Ms, 2) << " ms  server CPU "
                  << fixed(r.serverCpuMicrosPerRequest, 0) << " us/req\n";
    };
    std::cout << "\n" << withThousands(feeds.rows) << " SKUs (" << withThousands(feeds.mainSkus) << " main SKUs), " << anchors.size()
              << " anchors, wrk -t" << options.wrkThreads << " -c" << options.connections << " " << options.seconds << " s, serve --threads "
              << options.svcThreads << (options.imageBot ? "" : " --no-image-bot") << "\n";
    row("(a) GET /healthz (floor)", floorBefore, "");
    row("(b) GET content SIMILAR+SET", content,
        "= " + fixed(100 * share, 0) + "% of (a)  target >= 70%  " + (share >= 0.70 ? "PASS" : "FAIL"));
    row("(a') GET /healthz (floor again)", floorAfter, "");
    std::cout << "floor = mean of (a) and (a'): " << withThousands(static_cast<uint64_t>(floor)) << " req/s\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-content", argc, argv, parseOptions, run); }
