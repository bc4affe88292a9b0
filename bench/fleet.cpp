// bench-fleet: the console's fleet view (GET /operator/api/tenants, docs/adr/0066) at the size of a
// large operator: N generated tenants (5,000 by default), each with a feed's import history, some with
// pull sources, failed feeds, held imports, widget events and purchases over two months, booked
// commission and a few quarantined lines. Times the first page (sorted by attention), a search and a
// later page, against the same run's floor: an authenticated request that reads nothing
// (GET /operator/api/me). For comparison it also times GET /operator/api/feeds, the per-tenant
// overview the tenants page loaded before the fleet view (one query pair per tenant).
// The data is written straight into the data dir's SQLite files after the real svc-server created and
// migrated them, so the triggers that keep the fleet view's counters run for every generated row.
#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <ctime>
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
    int tenants = 5000;
    int requests = 30;
    std::string server = std::string(SVC_BUILD_BIN_DIR) + "/svc-server";
    bool keep = false;
    int holdSeconds = 0;
};

int parse(int argc, char** argv, Options& options) {
    CommandLine line(argc, argv);
    while (line.next()) {
        if (line.isHelp()) {
            std::cout << "usage: bench-fleet [--tenants N (5000)] [--requests N (30)] [--server PATH] [--keep] [--hold SECONDS]\n"
                         "  --hold: keep the server up that long after measuring (for a browser measurement), printing its URL\n";
            return 1;
        }
        if (line.is("--tenants")) options.tenants = static_cast<int>(line.number(10, 100000));
        else if (line.is("--requests")) options.requests = static_cast<int>(line.number(5, 10000));
        else if (line.is("--server")) options.server = line.value();
        else if (line.isFlag("--keep")) options.keep = true;
        else if (line.is("--hold")) options.holdSeconds = static_cast<int>(line.number(1, 3600));
        else line.unknown();
    }
    return 0;
}

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

// A connection to one of the data dir's files, with statements run row by row inside one transaction.
class Database {
public:
    explicit Database(const std::string& path) {
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw StepFailure("open " + path);
        exec("PRAGMA synchronous=OFF");
        exec("BEGIN");
    }
    ~Database() { sqlite3_close(db_); }
    void exec(const std::string& sql) {
        char* message = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            std::string text = message ? message : "?";
            sqlite3_free(message);
            throw StepFailure("sqlite: " + text + " in " + sql.substr(0, 80));
        }
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) throw StepFailure("prepare: " + sql.substr(0, 80));
        statements_.push_back(statement);
        return statement;
    }
    // Binds the values (integers or texts) in order and runs the statement.
    template <typename... Values>
    void run(sqlite3_stmt* statement, const Values&... values) {
        int index = 0;
        (bindOne(statement, ++index, values), ...);
        if (sqlite3_step(statement) != SQLITE_DONE) throw StepFailure(std::string("sqlite: ") + sqlite3_errmsg(db_));
        sqlite3_reset(statement);
    }
    void commit() {
        for (auto* statement : statements_) sqlite3_finalize(statement);
        statements_.clear();
        exec("COMMIT");
    }

private:
    static void bindOne(sqlite3_stmt* s, int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
    static void bindOne(sqlite3_stmt* s, int i, int v) { sqlite3_bind_int64(s, i, v); }
    static void bindOne(sqlite3_stmt* s, int i, const std::string& v) { sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
    static void bindOne(sqlite3_stmt* s, int i, const char* v) { sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT); }
    sqlite3* db_ = nullptr;
    std::vector<sqlite3_stmt*> statements_;
};

struct Generated {
    int64_t imports = 0, events = 0, purchases = 0, failing = 0, held = 0, quarantined = 0;
};

std::string hexId(Rng& rng) {
    char text[40];
    std::snprintf(text, sizeof text, "%08x-%04x-4%03x-a%03x-%08x%04x", rng.next(), rng.next() & 0xffff, rng.next() & 0xfff, rng.next() & 0xfff,
                  rng.next(), rng.next() & 0xffff);
    return text;
}

Generated generate(const std::string& data, int tenants, int64_t now) {
    static const std::array<const char*, 8> kWords = {"Lumen", "Nordwind", "Atelier", "Kontor", "Velvet", "Harbour", "Juniper", "Quartz"};
    Rng rng(19);
    Generated made;
    Database main(data + "/svc.sqlite3");
    auto tenant = main.prepare("INSERT INTO tenants(id, api_id, name, feed_id, secret_hash, created_at) VALUES (?, ?, ?, ?, 'x', ?)");
    auto import = main.prepare(
        "INSERT INTO feed_imports(tenant_id, feed, source, delta, identifier, delimiter, status, created_at, started_at, finished_at, "
        "rows_read, message) VALUES (?, ?, 'push', 0, 'sku', ';', ?, ?, ?, ?, 500, ?)");
    auto source = main.prepare(
        "INSERT INTO pull_sources(tenant_id, feed, url, interval_seconds, delta, identifier, delimiter, next_run_at, last_run_at, last_result, "
        "created_at) VALUES (?, 'default', 'https://feeds.example/f.csv', 3600, 0, 'sku', ';', ?, ?, ?, ?)");
    const int64_t base = 100000;  // tenant ids after whatever the CLI made
    for (int i = 0; i < tenants; ++i) {
        int64_t id = base + i;
        char name[64];
        std::snprintf(name, sizeof name, "Shop %04d %s", i, kWords[rng.below(kWords.size())]);
        main.run(tenant, id, hexId(rng), std::string(name), hexId(rng), now);
        bool pulled = rng.percent(30);
        bool stale = rng.percent(8);
        bool failing = rng.percent(3);
        bool held = rng.percent(2);
        // 20 imports of the default feed an hour apart (a stale feed's history ended four days ago), and a stock feed for some.
        int64_t last = stale ? now - 4 * 86400 : now - 1800;
        for (int k = 19; k >= 0; --k) {
            int64_t at = last - k * 3600;
            bool fails = failing && k == 0;
            main.run(import, id, "default", fails ? "failed" : "applied", at - 60, at - 60, at, fails ? "header: no column sku" : "");
            ++made.imports;
        }
        if (rng.percent(25)) {
            for (int k = 9; k >= 0; --k) main.run(import, id, "stock", "applied", last - k * 600 - 30, last - k * 600 - 30, last - k * 600, "");
            made.imports += 10;
        }
        if (held) {
            main.run(import, id, "default", "held", now - 900, now - 900, now - 890, "would delete 80% of the catalog");
            ++made.imports;
            ++made.held;
        }
        if (pulled) {
            bool pullFails = rng.percent(7);
            main.run(source, id, now + 600, now - 3000, pullFails ? "failed: HTTP 404 from feeds.example" : "applied", now - 86400 * 30);
            failing = failing || pullFails;
        }
        if (failing) ++made.failing;
    }
    main.commit();

    Database events(data + "/events.sqlite3");
    auto event = events.prepare("INSERT INTO events(tenant_id, type, received_at, cid, widget, touchpoint, sku) VALUES (?, ?, ?, ?, 'SIMILAR', 'product', ?)");
    auto purchase = events.prepare("INSERT INTO events(tenant_id, type, received_at, cid, order_id, claim_key) VALUES (?, 'purchase', ?, ?, ?, ?)");
    auto line = events.prepare("INSERT INTO order_lines(event, line, sku, amount, price) VALUES (last_insert_rowid(), 0, 'SKU-1', 1, 4999)");
    auto ledger = events.prepare(
        "INSERT INTO ledger(tenant_id, kind, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission, rate_bp, attributed, "
        "ordered_at, booked_at) VALUES (?, 'sale', ?, ?, 0, 'SKU-1', 'SKU-1', 1, 4999, 4999, 250, 500, 1, ?, ?)");
    auto cursor = events.prepare("INSERT INTO attribution_cursors(tenant_id, sequence) VALUES (?, ?)");
    auto quarantine = events.prepare(
        "INSERT INTO ledger_quarantine(order_event, line, tenant_id, order_id, sku, amount, price, reason, at) VALUES (?, 1, ?, ?, 'BIG', 1, 1, 'too large', ?)");
    static const std::array<const char*, 3> kTypes = {"view", "click", "add-to-cart"};
    int64_t sequence = 0;
    {
        sqlite3_stmt* max = events.prepare("SELECT COALESCE(MAX(sequence), 0) FROM events");
        if (sqlite3_step(max) == SQLITE_ROW) sequence = sqlite3_column_int64(max, 0);
        sqlite3_reset(max);
    }
    for (int i = 0; i < tenants; ++i) {
        int64_t id = base + i;
        // Widget events over the last 60 days: most shops a few hundred, a few thousands.
        int count = static_cast<int>(rng.percent(3) ? rng.between(1000, 3000) : rng.between(20, 300));
        for (int e = 0; e < count; ++e) {
            int64_t at = now - static_cast<int64_t>(rng.below(60 * 86400));
            events.run(event, id, kTypes[rng.below(3)], at, "c" + std::to_string(rng.below(1000)), "SKU-" + std::to_string(rng.below(200)));
            ++sequence;
        }
        made.events += count;
        int orders = static_cast<int>(rng.between(0, 6));
        bool waiting = rng.percent(1);
        int64_t lastBooked = 0;
        for (int o = 0; o < orders; ++o) {
            int64_t at = now - static_cast<int64_t>(rng.below(60 * 86400));
            std::string orderId = "O-" + std::to_string(id) + "-" + std::to_string(o);
            events.run(purchase, id, at, "c1", orderId, orderId);
            ++sequence;
            events.run(line);
            ++made.purchases;
            if (waiting && o == orders - 1) continue;  // the newest claim not booked yet (an hour and more)
            events.run(ledger, id, sequence, orderId, at, at + 5);
            lastBooked = sequence;
            if (rng.percent(1)) {
                events.run(quarantine, sequence, id, orderId, at);
                ++made.quarantined;
            }
        }
        if (lastBooked > 0) events.run(cursor, id, lastBooked);
    }
    events.commit();
    return made;
}

double p50(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

int run(const Options& options) {
    TempDir work = createTempDir("bench-fleet", options.keep);
    if (!isExecutable(options.server)) throw StepFailure("svc-server not found at " + options.server + " (build it, or pass --server PATH)");
    const std::string& server = options.server;
    std::string data = work.path + "/data";
    const std::string password = "bench operator password";
    // The real binary makes and migrates the data dir (and the operator).
    runCli("operator create", {server, "operator", "create", "--data-dir", data, "--email", "bench@svc.example"}, work.path,
           {"SVC_OPERATOR_PASSWORD=" + password});
    runCli("tenant create", {server, "tenant", "create", "--data-dir", data, "--name", "Baseline Shop"}, work.path);
    int64_t now = static_cast<int64_t>(std::time(nullptr));
    auto generating = std::chrono::steady_clock::now();
    Generated made = generate(data, options.tenants, now);
    double generateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - generating).count();
    std::cout << "generated " << withThousands(static_cast<uint64_t>(options.tenants)) << " tenants in " << fixed(generateSeconds, 1) << " s: "
              << withThousands(static_cast<uint64_t>(made.imports)) << " imports, " << withThousands(static_cast<uint64_t>(made.events))
              << " widget events, " << withThousands(static_cast<uint64_t>(made.purchases)) << " purchases; " << made.failing << " failing feeds, "
              << made.held << " held imports, " << made.quarantined << " quarantined lines\n";

    ServerProcess serving("bench-fleet", "svc-server", {server, "serve", "--data-dir", data, "--listen", "127.0.0.1:0", "--no-image-bot"},
                          work.path, 10);
    int port = serving.awaitListening(60);
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(120, 0);
    auto session = client.Post("/operator/api/session", json{{"email", "bench@svc.example"}, {"password", password}}.dump(), "application/json");
    if (!session || session->status != 200) throw StepFailure("sign-in failed");
    std::string cookie = session->get_header_value("Set-Cookie");
    httplib::Headers headers{{"Cookie", cookie.substr(0, cookie.find(';'))}};

    size_t lastBytes = 0;
    auto timed = [&](const std::string& path, int requests) {
        std::vector<double> samples;
        for (int i = 0; i < requests + 2; ++i) {
            stopIfInterrupted();
            auto started = std::chrono::steady_clock::now();
            auto response = client.Get(path, headers);
            double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            if (!response || response->status != 200) throw StepFailure("GET " + path + " did not answer 200");
            lastBytes = response->body.size();
            if (i >= 2) samples.push_back(ms);  // the first ones warm the page cache
        }
        return p50(samples);
    };
    double floor = timed("/operator/api/me", options.requests);
    auto first = json::parse(client.Get("/operator/api/tenants", headers)->body);
    std::cout << "first page: " << first["tenants"].size() << " of " << first["total"] << " tenants, " << first["needingAttention"]
              << " needing attention; top score " << first["tenants"][0]["attention"]["score"] << " (" << first["tenants"][0]["name"].get<std::string>()
              << ")\n\n";
    struct Row {
        const char* name;
        std::string path;
        int requests;
    };
    const std::vector<Row> rows = {
        {"floor: GET /operator/api/me", "/operator/api/me", 0},
        {"first page (attention order, 50)", "/operator/api/tenants", options.requests},
        {"search (q=shop 0042)", "/operator/api/tenants?q=shop%200042", options.requests},
        {"later page (name order, page 60)", "/operator/api/tenants?sort=name&page=60", options.requests},
        {"traffic order, 200 a page", "/operator/api/tenants?sort=traffic&limit=200", options.requests},
        {"before: GET /operator/api/feeds (per tenant)", "/operator/api/feeds", std::max(5, options.requests / 6)},
    };
    std::cout << "| Request | p50 (ms) | / floor | answer (bytes) |\n|---|---|---|---|\n";
    for (const auto& row : rows) {
        double ms = row.requests == 0 ? floor : timed(row.path, row.requests);
        std::cout << "| " << row.name << " | " << fixed(ms, 2) << " | " << fixed(ms / floor, 1) << "x | " << withThousands(lastBytes) << " |\n";
    }
    if (options.holdSeconds > 0) {
        std::cout << "\nserving http://127.0.0.1:" << port << "/console/ (bench@svc.example / " << password << ") for " << options.holdSeconds
                  << " s\n" << std::flush;
        for (int s = 0; s < options.holdSeconds && !interrupted; ++s) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return benchMain<Options>("bench-fleet", argc, argv, parse, run); }
