// bench-console-search: what the console's catalog reads cost as the catalog grows. The SKU search
// (GET .../catalog/search) and the widget preview's product list (GET .../widgets/preview) read the
// tenant's live products on every request; this bench times them on the demo catalog (3,617 variants)
// and on a catalog N times its size (the demo feed copied with prefixed SKUs), against the same run's
// baseline: an authenticated read of the tenant (GET /operator/api/tenants/<apiId>), which reads no catalog.
// Everything goes through the real svc-server binary: its CLI to set up, `serve` on a loopback port, the
// operator API with a signed-in session.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "BenchSupport.hpp"
#include <httplib.h>

namespace {

using namespace bench;
using nlohmann::json;

struct Options {
    int copies = 12;
    int requests = 40;
    std::string server = std::string(SVC_BUILD_BIN_DIR) + "/svc-server";
    bool keep = false;
};

int parse(int argc, char** argv, Options& options) {
    CommandLine line(argc, argv);
    while (line.next()) {
        if (line.isHelp()) {
            std::cout << "usage: bench-console-search [--copies N (12)] [--requests N (40)] [--server PATH] [--keep]\n";
            return 1;
        }
        if (line.is("--copies")) options.copies = static_cast<int>(line.number(2, 100));
        else if (line.is("--requests")) options.requests = static_cast<int>(line.number(5, 10000));
        else if (line.is("--server")) options.server = line.value();
        else if (line.isFlag("--keep")) options.keep = true;
        else line.unknown();
    }
    return 0;
}

// Runs one svc-server command to its end; its stdout, or a failure naming the step.
std::string runCli(const std::string& step, const std::vector<std::string>& argv, const std::string& workDir,
                   const std::vector<std::string>& extraEnv = {}) {
    std::string out = workDir + "/cli.stdout", err = workDir + "/cli.stderr";
    pid_t pid = spawn(step, argv, out, err, extraEnv);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw StepFailure(step + ": " + describeStatus(status) + "\n  stderr: " + lastLines(readWholeFile(err), 5));
    }
    return readWholeFile(out);
}

// The demo feed `copies` times, each copy's SKU, main SKU and model prefixed ("C03-M10001-BLACK-XS"):
// articles of the same shape, many more of them.
void writeCopies(const std::string& demoFeed, const std::string& bigFeed, int copies) {
    std::ifstream in(demoFeed);
    std::string header, line;
    std::getline(in, header);
    std::vector<std::string> rows;
    while (std::getline(in, line)) {
        if (!line.empty()) rows.push_back(line);
    }
    std::ofstream out(bigFeed);
    out << header << "\n";
    for (int copy = 0; copy < copies; ++copy) {
        char prefix[8];
        std::snprintf(prefix, sizeof prefix, "C%02d-", copy);
        for (const auto& row : rows) {
            // Rows start "sku";"main-sku";"model";...: the first three quoted fields get the prefix.
            std::string prefixed;
            size_t field = 0, at = 0;
            while (field < 3 && at < row.size()) {
                size_t quote = row.find('"', at);
                prefixed += row.substr(at, quote + 1 - at) + prefix;
                size_t close = row.find('"', quote + 1);
                prefixed += row.substr(quote + 1, close + 1 - quote - 1);
                at = close + 1;
                ++field;
            }
            out << prefixed << row.substr(at) << "\n";
        }
    }
}

double p50(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

int run(const Options& options) {
    TempDir work = createTempDir("bench-console-search", options.keep);
    // The binary itself, not a private copy: it finds its assets (content pool, console) beside it.
    if (!isExecutable(options.server)) throw StepFailure("svc-server not found at " + options.server + " (build it, or pass --server PATH)");
    const std::string& server = options.server;
    std::string data = work.path + "/data";

    auto demo = json::parse(runCli("demo setup", {server, "demo", "setup", "--data-dir", data}, work.path));
    std::string small = demo["apiId"];
    writeCopies(data + "/demo/feed.csv", work.path + "/large.csv", options.copies);
    auto created = json::parse(runCli("tenant create", {server, "tenant", "create", "--data-dir", data, "--name", "Large"}, work.path));
    std::string large = created["apiId"];
    auto imported = json::parse(runCli("feed import", {server, "feed", "import", "--data-dir", data, "--api-id", large, work.path + "/large.csv"}, work.path));
    const std::string password = "bench operator password";
    runCli("operator create", {server, "operator", "create", "--data-dir", data, "--email", "bench@svc.example"}, work.path,
           {"SVC_OPERATOR_PASSWORD=" + password});

    ServerProcess serving("bench-console-search", "svc-server", {server, "serve", "--data-dir", data, "--listen", "127.0.0.1:0", "--no-image-bot"},
                          work.path, 10);
    int port = serving.awaitListening(30);
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(60, 0);
    auto session = client.Post("/operator/api/session", json{{"email", "bench@svc.example"}, {"password", password}}.dump(), "application/json");
    if (!session || session->status != 200) throw StepFailure("sign-in failed");
    std::string cookie = session->get_header_value("Set-Cookie");
    httplib::Headers headers{{"Cookie", cookie.substr(0, cookie.find(';'))}};

    auto timed = [&](const std::string& path) {
        std::vector<double> samples;
        for (int i = 0; i < options.requests + 3; ++i) {
            auto started = std::chrono::steady_clock::now();
            auto response = client.Get(path, headers);
            double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            if (!response || response->status != 200) throw StepFailure("GET " + path + " did not answer 200");
            if (i >= 3) samples.push_back(ms);  // the first ones warm the page cache
        }
        return p50(samples);
    };
    struct Row {
        const char* name;
        std::string suffix;
    };
    const std::vector<Row> rows = {{"tenant (baseline, no catalog read)", ""},
                                   {"SKU search by prefix (q=M10001)", "/catalog/search?q=M10001"},
                                   {"SKU search by title words", "/catalog/search?q=tailored%20green"},
                                   {"widget preview's product list", "/widgets/preview"}};
    std::cout << "catalogs: demo " << demo["import"]["rowsRead"].get<int64_t>() << " variants, large " << imported["rowsRead"].get<int64_t>()
              << " variants (" << options.copies << " copies); " << options.requests << " requests each, p50\n\n";
    std::cout << "| Request | demo (ms) | large (ms) | large / demo | large / baseline |\n|---|---|---|---|---|\n";
    double baselineLarge = 0;
    for (const auto& row : rows) {
        double onSmall = timed("/operator/api/tenants/" + small + row.suffix);
        double onLarge = timed("/operator/api/tenants/" + large + row.suffix);
        if (row.suffix.empty()) baselineLarge = onLarge;
        std::cout << "| " << row.name << " | " << fixed(onSmall, 2) << " | " << fixed(onLarge, 2) << " | " << fixed(onLarge / onSmall, 1)
                  << "x | " << fixed(onLarge / baselineLarge, 1) << "x |\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return benchMain<Options>("bench-console-search", argc, argv, parse, run); }
