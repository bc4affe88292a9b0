// svc-server's command line as an operator uses it: the real binary, its exit codes,
// its JSON on stdout and its messages on stderr; on the data dir's stores (TestStorage.hpp).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "DataDirSql.hpp"
#include "ServerFixture.hpp"
#include "app/BuildInfo.hpp"
#include "store/DataDirLock.hpp"
#include "store/Migrations.hpp"
#include "store/SqliteDatabase.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

struct CliRun {
    int exitCode;
    std::string out;
    std::string err;
};

struct Cli {
    test::TempDir dir;
    std::string apiId;

    CliRun run(std::vector<std::string> arguments) {
        arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
        arguments.insert(arguments.begin(), SVC_SERVER_BINARY);
        std::string out = dir.path() + "/out.txt";
        std::string err = dir.path() + "/err.txt";
        // stderr is redirected by the shell-free way: reopen fd 2 in the child through a wrapper.
        arguments.insert(arguments.begin(), {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$SVC_ERR\""});
        setenv("SVC_ERR", err.c_str(), 1);
        test::ChildProcess child(arguments, out);
        int code = child.wait();
        return {code, read(out), read(err)};
    }
    static std::string read(const std::string& path) {
        std::ifstream file(path);
        std::stringstream text;
        text << file.rdbuf();
        return text.str();
    }
    std::string feed(const std::string& name, const std::vector<std::string>& ids) {
        std::vector<std::vector<std::string>> rows{{"sku", "name", "stock", "retail-price", "category-path"}};
        for (const auto& id : ids) rows.push_back({id, "Item " + id, "3", "1000", "Men > Shirts"});
        return dir.file(name, test::feedCsv(rows));
    }
    Cli() {
        auto created = run({"tenant", "create", "--data-dir", dir.path(), "--name", "CLI shop"});
        REQUIRE(created.exitCode == 0);
        apiId = json::parse(created.out)["apiId"];
    }
    std::vector<std::string> tenantArgs(std::vector<std::string> command) {
        command.insert(command.end(), {"--data-dir", dir.path(), "--api-id", apiId});
        return command;
    }
};

}  // namespace

TEST_CASE("CLI: import, validate, history, a held feed shown and discarded, with exit codes 0, 3 and 1") {
    Cli cli;
    auto imported = cli.run(cli.tenantArgs({"feed", "import", cli.feed("full.csv", {"A", "B", "C", "D"})}));
    CHECK(imported.exitCode == 0);
    auto record = json::parse(imported.out);
    CHECK(record["status"] == "applied");
    CHECK(record["inserted"] == 4);
    CHECK(record["source"] == "cli");

    auto validated = cli.run(cli.tenantArgs({"feed", "validate", cli.feed("small.csv", {"A"})}));
    CHECK(validated.exitCode == 0);
    auto dryRun = json::parse(validated.out);
    CHECK(dryRun["wouldMarkDeleted"] == 3);
    CHECK(dryRun["wouldBeHeld"] == true);

    auto held = cli.run(cli.tenantArgs({"feed", "import", cli.feed("small.csv", {"A"})}));
    CHECK(held.exitCode == 3);
    CHECK(json::parse(held.out)["status"] == "held");
    CHECK(held.err.find("would mark 3 of 4 products deleted") != std::string::npos);
    std::string heldId = std::to_string(json::parse(held.out)["id"].get<int>());

    auto history = cli.run(cli.tenantArgs({"feed", "history", "--limit", "5"}));
    CHECK(history.exitCode == 0);
    auto imports = json::parse(history.out)["imports"];
    REQUIRE(imports.size() == 2);  // dry runs leave no history
    CHECK(imports[0]["status"] == "held");
    CHECK(imports[1]["status"] == "applied");

    auto shown = cli.run(cli.tenantArgs({"feed", "show", "--import-id", heldId}));
    CHECK(json::parse(shown.out)["markedDeleted"] == 3);
    auto discarded = cli.run(cli.tenantArgs({"feed", "discard", "--import-id", heldId}));
    CHECK(discarded.exitCode == 0);
    CHECK(json::parse(discarded.out)["status"] == "discarded");
    auto confirmAfter = cli.run(cli.tenantArgs({"feed", "confirm", "--import-id", heldId}));
    CHECK(confirmAfter.exitCode == 1);
    CHECK(confirmAfter.err == "svc-server: error: import " + heldId + " is discarded; only held imports can be confirmed\n");

    auto forced = cli.run(cli.tenantArgs({"feed", "import", "--force", cli.feed("small.csv", {"A"})}));
    CHECK(forced.exitCode == 0);
    CHECK(json::parse(forced.out)["markedDeleted"] == 3);

    auto stock = cli.run(cli.tenantArgs({"feed", "import", "--delta", "--feed", "stock", cli.dir.file("stock.csv", "sku;stock\nA;0\n")}));
    CHECK(stock.exitCode == 0);
    CHECK(json::parse(stock.out)["feed"] == "stock");
    auto stockHistory = cli.run(cli.tenantArgs({"feed", "history", "--feed", "stock"}));
    auto stockImports = json::parse(stockHistory.out)["imports"];
    REQUIRE(stockImports.size() == 1);
    CHECK(stockImports[0]["delta"] == true);
    auto badFeed = cli.run(cli.tenantArgs({"feed", "history", "--feed", "Stock!"}));
    CHECK(badFeed.exitCode == 1);
    CHECK(badFeed.err == "svc-server: error: --feed: 'Stock!' is not a feed name (1-40 of a-z, 0-9, '-', '_')\n");
}

TEST_CASE("CLI: tenant configure sets the currency the GraphQL API reports, and keeps what it was not given") {
    Cli cli;
    auto configured = cli.run(cli.tenantArgs({"tenant", "configure", "--currency", "PLN"}));
    REQUIRE(configured.exitCode == 0);
    auto answer = json::parse(configured.out);
    CHECK(answer["currency"] == "PLN");
    CHECK(answer["maxDeleteShare"] == 0.5);
    auto share = cli.run(cli.tenantArgs({"tenant", "configure", "--max-delete-share", "0.8"}));
    REQUIRE(share.exitCode == 0);
    CHECK(json::parse(share.out)["currency"] == "PLN");
    auto storage = test::TestStorage::open(cli.dir.path(), systemClock());
    REQUIRE(storage);
    auto tenant = (*storage)->tenants().findByApiId(json::parse(share.out)["apiId"]);
    REQUIRE(tenant);
    REQUIRE(*tenant);
    CHECK((*tenant)->currency == "PLN");
    CHECK((*tenant)->maxDeleteShare == doctest::Approx(0.8));
}

TEST_CASE("CLI: tenant configure sets the commission contract; report prints what the server booked") {
    Cli cli;
    auto configured = cli.run(cli.tenantArgs({"tenant", "configure", "--commission-rate", "5%", "--commission-rate-for", "SET=7.25%",
                                              "--attribution-window-days", "14"}));
    REQUIRE(configured.exitCode == 0);
    auto answer = json::parse(configured.out);
    CHECK(answer["commissionRates"] == "500,SET=725");
    CHECK(answer["attributionWindowDays"] == 14);
    // Only the window changes: the rates stay.
    auto window = cli.run(cli.tenantArgs({"tenant", "configure", "--attribution-window-days", "7"}));
    REQUIRE(window.exitCode == 0);
    CHECK(json::parse(window.out)["commissionRates"] == "500,SET=725");

    auto badRate = cli.run(cli.tenantArgs({"tenant", "configure", "--commission-rate", "5.125%"}));
    CHECK(badRate.exitCode == 1);
    CHECK(badRate.err == "svc-server: error: --commission-rate: '5.125%' is not a rate such as 5%, 7.25% or 725bp (0% to 100%)\n");
    auto badWidget = cli.run(cli.tenantArgs({"tenant", "configure", "--commission-rate-for", "SET-Compose=5%"}));
    CHECK(badWidget.exitCode == 1);

    auto summary = cli.run(cli.tenantArgs({"report", "summary", "--from", "2026-01-01", "--to", "2026-01-31"}));
    REQUIRE(summary.exitCode == 0);
    auto report = json::parse(summary.out);
    CHECK(report["orders"] == 0);
    CHECK(report["to"].get<int64_t>() - report["from"].get<int64_t>() == 31 * 86400);
    auto ledger = cli.run(cli.tenantArgs({"report", "ledger"}));
    REQUIRE(ledger.exitCode == 0);
    CHECK(ledger.out.rfind("kind,order_id,line,sku,", 0) == 0);
    auto badPeriod = cli.run(cli.tenantArgs({"report", "summary", "--from", "2026-02-01", "--to", "2026-01-01"}));
    CHECK(badPeriod.exitCode == 1);
    CHECK(badPeriod.err == "svc-server: error: from: must not be after to\n");
}

TEST_CASE("CLI: bad input gets a clear message naming the option, and a failed import exit code 1") {
    Cli cli;
    struct BadCase {
        std::vector<std::string> arguments;
        int exitCode;
        std::string message;
    };
    std::vector<BadCase> cases{
        {{"feed", "import", "--data-dir", cli.dir.path(), "--api-id", "nope", cli.feed("f.csv", {"A"})}, 1,
         "svc-server: error: --api-id: no tenant with API ID nope\n"},
        {cli.tenantArgs({"feed", "import", "--delimiter", ";;", cli.feed("f.csv", {"A"})}), 1,
         "svc-server: error: --delimiter: must be exactly one character\n"},
        {cli.tenantArgs({"feed", "import", cli.dir.path() + "/missing.csv"}), 1, ""},
        {cli.tenantArgs({"feed", "show", "--import-id", "99"}), 1, "svc-server: error: --import-id: import 99 does not exist\n"},
        {cli.tenantArgs({"tenant", "configure", "--max-delete-share", "1.5"}), 2, ""},
        {cli.tenantArgs({"tenant", "configure", "--currency", "GBP"}), 2, ""},
        {cli.tenantArgs({"tenant", "configure"}), 2, ""},
        {{"feed", "import"}, 2, ""},
        {{"frobnicate"}, 2, ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.arguments.size() > 1 ? c.arguments[1] : c.arguments[0]);
        auto result = cli.run(c.arguments);
        CHECK(result.exitCode == c.exitCode);
        if (!c.message.empty()) CHECK(result.err == c.message);
        CHECK_FALSE(result.err.empty());
    }
    // A file that is not a feed: recorded as failed, exit 1, the reason on stderr.
    auto notCsv = cli.run(cli.tenantArgs({"feed", "import", cli.dir.file("bad.csv", "name;price\nShirt;10\n")}));
    CHECK(notCsv.exitCode == 1);
    CHECK(notCsv.err.find("identifier column 'sku' is missing") != std::string::npos);
    CHECK(json::parse(notCsv.out)["status"] == "failed");
    // Every subcommand answers --help.
    for (auto command : std::vector<std::vector<std::string>>{{"serve"}, {"tenant", "create"}, {"tenant", "configure"}, {"feed", "import"},
                                                              {"feed", "validate"}, {"feed", "history"}, {"feed", "show"},
                                                              {"feed", "confirm"}, {"feed", "discard"}, {"demo", "setup"}}) {
        command.push_back("--help");
        auto help = cli.run(command);
        CAPTURE(command[0]);
        CHECK(help.exitCode == 0);
        CHECK(help.out.find("Usage:") != std::string::npos);
    }
}

TEST_CASE("CLI: set files, the content pool and operator keys; a bad file is refused naming the field and changes nothing") {
    Cli cli;
    auto good = cli.dir.file("sets.json", R"({"customSets": [{"id": "look", "title": "Look", "skus": ["A", "B"]}],
                                              "photoSets": [{"id": "beach", "title": "Beach", "tags": ["summer"], "images": ["https://cdn.example/b.jpg"]}]})");
    auto imported = cli.run(cli.tenantArgs({"sets", "import", good}));
    CHECK(imported.exitCode == 0);
    CHECK(json::parse(imported.out) == json{{"templates", 0}, {"customSets", 1}, {"photoSets", 1}});
    auto bad = cli.dir.file("bad.json", R"({"customSets": [{"id": "look", "title": "Changed", "skus": ["A"]}, {"id": "x", "skus": []}]})");
    auto refused = cli.run(cli.tenantArgs({"sets", "import", bad}));
    CHECK(refused.exitCode == 1);
    CHECK(refused.err == "svc-server: error: " + bad + ": customSets[1].title: required\n");
    auto listed = json::parse(cli.run(cli.tenantArgs({"sets", "list"})).out);
    CHECK(listed["customSets"][0]["title"] == "Look");  // the failed file changed nothing
    CHECK(listed["photoSets"][0]["id"] == "beach");
    CHECK(cli.run(cli.tenantArgs({"sets", "delete", "--kind", "photo", "beach"})).exitCode == 0);
    auto missing = cli.run(cli.tenantArgs({"sets", "delete", "--kind", "photo", "beach"}));
    CHECK(missing.exitCode == 1);
    CHECK(missing.err == "svc-server: error: ID: no photo set beach\n");

    auto pool = cli.run({"content-pool", "import", "--data-dir", cli.dir.path(), std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json"});
    CHECK(pool.exitCode == 0);
    CHECK(json::parse(pool.out)["templates"] == 12);
    auto templates = json::parse(cli.run({"content-pool", "list", "--data-dir", cli.dir.path()}).out);
    CHECK(templates["templates"].size() == 12);
    // A tenant's file may not carry templates.
    auto withTemplates = cli.run(cli.tenantArgs({"sets", "import", std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json"}));
    CHECK(withTemplates.exitCode == 1);

    auto key = cli.run({"operator-key", "create", "--data-dir", cli.dir.path(), "console"});
    CHECK(key.exitCode == 0);
    std::string secret = json::parse(key.out)["key"];
    CHECK(secret.size() == 43);
    auto keys = cli.run({"operator-key", "list", "--data-dir", cli.dir.path()});
    CHECK(json::parse(keys.out) == json{{"keys", {"console"}}});
    CHECK(cli.run({"operator-key", "create", "--data-dir", cli.dir.path(), "console"}).exitCode == 1);  // the name is taken
    // Only the hash is stored.
    auto db = test::DataDirSql::open(cli.dir.path(), "svc.sqlite3");
    REQUIRE(db);
    auto hashes = db->column("SELECT key_hash FROM operator_keys");
    REQUIRE(hashes);
    REQUIRE(hashes->size() == 1);
    CHECK(hashes->front().find(secret) == std::string::npos);
    CHECK(SecretHasher::matches(secret, hashes->front()));
}

TEST_CASE("CLI: backup, verify and restore; a second serve on the same data dir fails at once" *
          test::sqliteOnly("svc-server backup and restore copy the data dir's SQLite files (docs/adr/0063)")) {
    Cli cli;
    std::string backupDir = cli.dir.path() + "-backup";
    std::string restoredDir = cli.dir.path() + "-restored";
    auto backup = cli.run({"backup", "--data-dir", cli.dir.path(), "--to", backupDir});
    REQUIRE_MESSAGE(backup.exitCode == 0, backup.err);
    auto summary = json::parse(backup.out);
    CHECK(summary["backedUp"] == true);
    CHECK(summary["databases"].get<int>() >= 2);  // svc.sqlite3, events.sqlite3
    auto verified = cli.run({"backup", "--data-dir", cli.dir.path(), "--to", backupDir, "--verify"});
    CHECK_MESSAGE(verified.exitCode == 0, verified.err);
    auto again = cli.run({"backup", "--data-dir", cli.dir.path(), "--to", backupDir});
    CHECK(again.exitCode == 1);
    CHECK(again.err.find("--to: " + backupDir + " exists and is not empty") != std::string::npos);
    auto over = cli.run({"restore", "--from", backupDir, "--data-dir", cli.dir.path()});
    CHECK(over.exitCode == 1);
    CHECK(over.err.find("exists and is not empty") != std::string::npos);
    auto restored = cli.run({"restore", "--from", backupDir, "--data-dir", restoredDir});
    REQUIRE_MESSAGE(restored.exitCode == 0, restored.err);
    // The restored data dir answers for the tenant the CLI created.
    auto history = cli.run({"feed", "history", "--data-dir", restoredDir, "--api-id", cli.apiId});
    CHECK_MESSAGE(history.exitCode == 0, history.err);

    std::string firstOut = cli.dir.path() + "/first-serve.txt";
    test::ChildProcess first({SVC_SERVER_BINARY, "serve", "--data-dir", restoredDir, "--listen", "127.0.0.1:0", "--no-image-bot"}, firstOut);
    for (int i = 0; i < 500 && Cli::read(firstOut).find("listening on") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(Cli::read(firstOut).find("listening on") != std::string::npos);
    auto second = cli.run({"serve", "--data-dir", restoredDir, "--listen", "127.0.0.1:0", "--no-image-bot"});
    CHECK(second.exitCode == 1);
    CHECK(second.err.find("is in use by another svc-server (pid ") != std::string::npos);
    auto live = cli.run({"restore", "--from", backupDir, "--data-dir", restoredDir});
    CHECK(live.exitCode == 1);
    CHECK(live.err.find("in use by a running svc-server") != std::string::npos);
    first.kill(SIGTERM);
    CHECK(first.wait() == 0);
    std::error_code ignored;
    std::filesystem::remove_all(backupDir, ignored);
    std::filesystem::remove_all(restoredDir, ignored);
}

TEST_CASE("CLI: --version names the version, the commit it was built from and the commit's date; /metrics says the same") {
    Cli cli;
    auto version = cli.run({"--version"});
    REQUIRE(version.exitCode == 0);
    std::string commit;
    if (FILE* git = ::popen(("git -C '" + std::string(SVC_SOURCE_DIR) + "' rev-parse --short=12 HEAD 2>/dev/null").c_str(), "r")) {
        char buffer[64] = {};
        if (std::fgets(buffer, sizeof buffer, git)) commit = buffer;
        ::pclose(git);
    }
    while (!commit.empty() && std::isspace(static_cast<unsigned char>(commit.back()))) commit.pop_back();
    CHECK(version.out.rfind("svc-server " + buildInfo().version + " (commit ", 0) == 0);
    if (!commit.empty()) CHECK_MESSAGE(version.out.find("(commit " + commit) != std::string::npos, version.out);
    CHECK(version.out.find("(commit unknown") == std::string::npos);

    test::RunningServer server(cli.dir.path() + "/served");
    auto metrics = server.client().Get("/metrics");
    REQUIRE(metrics);
    CHECK(metrics->body.find("svc_build_info{version=\"" + buildInfo().version + "\",commit=\"" + buildInfo().commit + "\"") !=
          std::string::npos);
}

// The package installs deploy/svc.conf as /etc/svc/svc.conf and docs/operations.md says to uncomment its
// options: with all of them uncommented it must start a server that uses them.
TEST_CASE("CLI: the shipped example config, every option uncommented, starts a server that uses them") {
    Cli cli;
    std::string shipped = Cli::read(std::string(SVC_SOURCE_DIR) + "/deploy/svc.conf");
    REQUIRE(shipped.find("[serve]") != std::string::npos);
    std::string uncommented;
    size_t options = 0;
    std::istringstream lines(shipped);
    for (std::string line; std::getline(lines, line);) {
        bool commentedOption = line.rfind("# ", 0) == 0 && line.find(" = ") != std::string::npos && line.find(' ', 2) == line.find(" = ");
        if (commentedOption) {
            line = line.substr(2);
            ++options;
        }
        uncommented += line + "\n";
    }
    CHECK(options >= 3);  // public-url, trusted-proxy, metrics-listen
    std::string config = cli.dir.file("svc.conf", uncommented);
    std::string served = cli.dir.path() + "/served";
    std::string out = cli.dir.path() + "/serve.txt";
    // Where this machine differs from a real host: the command line wins over the file.
    test::ChildProcess server(test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "--config", config, "serve", "--data-dir", served, "--listen",
                                                                  "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--assets-dir", SVC_ASSETS_DIR,
                                                                  "--no-image-bot"}),
                              out);
    for (int i = 0; i < 500 && Cli::read(out).find("metrics on") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string banner = Cli::read(out);
    CHECK_MESSAGE(banner.find("metrics on http://127.0.0.1:") != std::string::npos, banner);
    size_t at = banner.find("listening on http://127.0.0.1:");
    REQUIRE(at != std::string::npos);
    int port = std::stoi(banner.substr(at + std::string("listening on http://127.0.0.1:").size()));
    auto created = cli.run({"tenant", "create", "--data-dir", served, "--name", "Shop"});
    REQUIRE(created.exitCode == 0);
    std::string apiId = nlohmann::json::parse(created.out)["apiId"].get<std::string>();
    httplib::Client client("127.0.0.1", port);
    auto loader = client.Get("/" + apiId + "/loader.js");
    REQUIRE(loader);
    CHECK(loader->body.find("base: \"https://svc.example.com\"") != std::string::npos);  // public-url from the file
    auto metrics = client.Get("/metrics");
    REQUIRE(metrics);
    CHECK(metrics->status == 404);  // a metrics listener of its own (the file's port replaced by the command line's)
    server.kill(SIGTERM);
    CHECK(server.wait() == 0);
}

TEST_CASE("CLI: serve's options from a --config file and SVC_* variables; the command line wins, then the environment, then the file") {
    Cli cli;
    // --threads 0 is out of range: where the failing value came from shows which source won.
    std::string config = cli.dir.file("svc.conf", "[serve]\ndata-dir = \"" + cli.dir.path() + "\"\nthreads = 0\n");
    auto fromFile = cli.run({"serve", "--config", config});
    CHECK(fromFile.exitCode == 2);
    CHECK(fromFile.err.find("--threads") != std::string::npos);

    setenv("SVC_THREADS", "9999", 1);
    auto fromEnvironment = cli.run({"--config", config, "serve"});
    unsetenv("SVC_THREADS");
    CHECK(fromEnvironment.exitCode == 2);
    CHECK(fromEnvironment.err.find("9999") != std::string::npos);

    std::string typo = cli.dir.file("typo.conf", "[serve]\ndata-dir = \"" + cli.dir.path() + "\"\nthreds = 8\n");
    auto unknown = cli.run({"serve", "--config", typo, "--listen", "127.0.0.1:0"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.find("threds") != std::string::npos);

    // A valid file, the listen address from the environment, the data dir from the command line.
    std::string good = cli.dir.file("good.conf", "[serve]\ndata-dir = \"/nonexistent/from-file\"\nthreads = 4\nno-image-bot = true\n");
    std::string served = cli.dir.path() + "/served";
    std::string out = cli.dir.path() + "/serve.txt";
    setenv("SVC_LISTEN", "127.0.0.1:0", 1);
    // On the data dir's SQLite whatever the suite's backend: its file shows which data dir won.
    test::ChildProcess server({SVC_SERVER_BINARY, "serve", "--config", good, "--data-dir", served}, out);
    unsetenv("SVC_LISTEN");
    for (int i = 0; i < 500 && Cli::read(out).find("listening on") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(Cli::read(out).find("listening on http://127.0.0.1:") != std::string::npos);
    CHECK(std::filesystem::exists(served + "/svc.sqlite3"));
    server.kill(SIGTERM);
    CHECK(server.wait() == 0);
}

namespace {

// The version before this binary's latest: a database as the previous svc-server left it.
int previousVersion(SqliteDatabase& db, DatabaseKind kind) {
    auto state = schemaState(db, kind);
    REQUIRE(state);
    REQUIRE(state->pending.size() >= 2);
    return state->pending[state->pending.size() - 2];
}

std::string bytesOf(const std::string& path) { return Cli::read(path); }

}  // namespace

TEST_CASE("CLI: migrate --check names what an upgrade applies and changes nothing (exit 4); migrate applies it; a newer database is named" *
          test::sqliteOnly("svc-server migrate upgrades the data dir's SQLite files, built here as an older svc left them")) {
    test::TempDir dir;
    const std::string data = dir.path() + "/data";
    std::filesystem::create_directories(data + "/catalog");
    int mainBefore = 0, eventsBefore = 0;
    {
        // Built by hand from the migration list: svc.sqlite3 and events.sqlite3 one migration
        // short, with events stored under the older schema; a catalog already up to date.
        auto main = SqliteDatabase::open(data + "/svc.sqlite3");
        REQUIRE(main);
        mainBefore = previousVersion(**main, DatabaseKind::Main);
        REQUIRE(migrateTo(**main, DatabaseKind::Main, mainBefore));
        auto events = SqliteDatabase::open(data + "/events.sqlite3");
        REQUIRE(events);
        eventsBefore = previousVersion(**events, DatabaseKind::Events);
        REQUIRE(migrateTo(**events, DatabaseKind::Events, eventsBefore));
        // 2025-06-15 and 2025-07-01 (UTC): two widget events and a purchase in June, one view in July.
        REQUIRE((*events)->execute(
            "INSERT INTO events(tenant_id, type, received_at, cid, order_id) VALUES "
            "(7, 'view', 1750000000, 'c', NULL), (7, 'click', 1750000100, 'c', NULL), (7, 'purchase', 1750000200, 'c', 'O-1'), "
            "(7, 'view', 1751328000, 'c', NULL)"));
        auto catalog = SqliteDatabase::open(data + "/catalog/tenant-7.sqlite3");
        REQUIRE(catalog);
        REQUIRE(migrate(**catalog, DatabaseKind::Catalog));
    }
    Cli cli;
    const std::string mainBytes = bytesOf(data + "/svc.sqlite3"), eventBytes = bytesOf(data + "/events.sqlite3");

    auto check = cli.run({"migrate", "--check", "--data-dir", data});
    CHECK_MESSAGE(check.exitCode == 4, check.err);
    json report = json::parse(check.out);
    CHECK(report["upToDate"] == false);
    CHECK(report["databasesPending"] == 2);
    REQUIRE(report["databases"].size() == 3);
    json expected = json::array({
        {{"database", "svc.sqlite3"}, {"kind", "main"}, {"exists", true}, {"version", mainBefore},
         {"latest", latestSchemaVersion(DatabaseKind::Main)}, {"pending", {latestSchemaVersion(DatabaseKind::Main)}}},
        {{"database", "events.sqlite3"}, {"kind", "events"}, {"exists", true}, {"version", eventsBefore},
         {"latest", latestSchemaVersion(DatabaseKind::Events)}, {"pending", {latestSchemaVersion(DatabaseKind::Events)}}},
        {{"database", "catalog/tenant-7.sqlite3"}, {"kind", "catalog"}, {"exists", true}, {"version", latestSchemaVersion(DatabaseKind::Catalog)},
         {"latest", latestSchemaVersion(DatabaseKind::Catalog)}, {"pending", json::array()}},
    });
    CHECK(report["databases"] == expected);
    // Nothing changed: the same bytes, the same versions when asked again.
    CHECK(bytesOf(data + "/svc.sqlite3") == mainBytes);
    CHECK(bytesOf(data + "/events.sqlite3") == eventBytes);
    CHECK(cli.run({"migrate", "--check", "--data-dir", data}).exitCode == 4);

    {
        // Not while a server holds the data dir.
        auto lock = DataDirLock::acquire(data);
        REQUIRE(lock);
        auto refused = cli.run({"migrate", "--data-dir", data});
        CHECK(refused.exitCode == 1);
        CHECK(refused.err.find("is in use by another svc-server") != std::string::npos);
    }
    auto applied = cli.run({"migrate", "--data-dir", data});
    REQUIRE_MESSAGE(applied.exitCode == 0, applied.err);
    json done = json::parse(applied.out);
    CHECK(done["migrated"] == true);
    CHECK(done["databasesMigrated"] == 2);
    CHECK(done["databases"][0]["applied"] == json::array({latestSchemaVersion(DatabaseKind::Main)}));
    auto upToDate = cli.run({"migrate", "--check", "--data-dir", data});
    CHECK_MESSAGE(upToDate.exitCode == 0, upToDate.err);
    CHECK(json::parse(upToDate.out)["upToDate"] == true);
    {
        // The fleet view's monthly counters were filled from the events stored before.
        auto events = SqliteDatabase::open(data + "/events.sqlite3");
        REQUIRE(events);
        auto months = (*events)->prepare("SELECT month, widget_events, purchases FROM tenant_months WHERE tenant_id = 7 ORDER BY month");
        REQUIRE(months);
        std::vector<std::vector<int64_t>> rows;
        while (*months->step()) rows.push_back({months->integer(0), months->integer(1), months->integer(2)});
        CHECK(rows == std::vector<std::vector<int64_t>>{{202506, 2, 1}, {202507, 1, 0}});
    }

    // A data dir a newer svc-server wrote: named, and refused by migrate as by --check.
    {
        auto main = SqliteDatabase::open(data + "/svc.sqlite3");
        REQUIRE(main);
        REQUIRE((*main)->execute("INSERT INTO schema_migrations(version, applied_at) VALUES (99, 0)"));
    }
    std::string newer = "svc.sqlite3: schema version 99 is newer than this svc-server's (" +
                        std::to_string(latestSchemaVersion(DatabaseKind::Main)) + ")";
    for (bool checkOnly : {true, false}) {
        auto run = checkOnly ? cli.run({"migrate", "--check", "--data-dir", data}) : cli.run({"migrate", "--data-dir", data});
        CHECK(run.exitCode == 1);
        CHECK_MESSAGE(run.err.find(newer) != std::string::npos, run.err);
    }
    auto missing = cli.run({"migrate", "--check", "--data-dir", dir.path() + "/nowhere"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.err.find("--data-dir: " + dir.path() + "/nowhere is not a directory") != std::string::npos);
}

TEST_CASE("CLI: serve --public-url is checked at start from the command line, SVC_PUBLIC_URL or the file, naming the option; a good one is served") {
    Cli cli;
    std::vector<std::string> serve{"serve", "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0", "--no-image-bot"};
    auto withOption = serve;
    withOption.insert(withOption.end(), {"--public-url", "ftp://svc.example.com"});
    auto fromLine = cli.run(withOption);
    CHECK(fromLine.exitCode == 1);
    CHECK(fromLine.err.rfind("svc-server: error: --public-url: 'ftp://svc.example.com' has scheme 'ftp'; only http and https are served", 0) == 0);

    setenv("SVC_PUBLIC_URL", "https://svc.example.com/widgets", 1);
    auto fromEnvironment = cli.run(serve);
    unsetenv("SVC_PUBLIC_URL");
    CHECK(fromEnvironment.exitCode == 1);
    CHECK(fromEnvironment.err.find("--public-url: 'https://svc.example.com/widgets' has a path") != std::string::npos);

    std::string bad = cli.dir.file("bad.conf", "[serve]\npublic-url = \"https://ops@svc.example.com\"\n");
    auto fromFile = cli.run({"serve", "--config", bad, "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0"});
    CHECK(fromFile.exitCode == 1);
    CHECK(fromFile.err.find("--public-url: 'https://ops@svc.example.com' has user info") != std::string::npos);

    // A good one from the file: loader.js names it, whatever Host the request carried.
    std::string good = cli.dir.file("good.conf", "[serve]\npublic-url = \"https://svc.example.com:8443\"\nno-image-bot = true\n");
    std::string out = cli.dir.path() + "/serve.txt";
    test::ChildProcess server(
        test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "serve", "--config", good, "--data-dir", cli.dir.path(), "--listen", "127.0.0.1:0"}),
        out);
    for (int i = 0; i < 500 && Cli::read(out).find("listening on") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string listening = Cli::read(out);
    REQUIRE(listening.find("listening on http://127.0.0.1:") != std::string::npos);
    int port = std::stoi(listening.substr(listening.find("127.0.0.1:") + 10));
    httplib::Client client("127.0.0.1", port);
    auto loader = client.Get("/" + cli.apiId + "/loader.js", {{"Host", "evil.example"}});
    REQUIRE(loader);
    CHECK(loader->body.find("base: \"https://svc.example.com:8443\"") != std::string::npos);
    server.kill(SIGTERM);
    CHECK(server.wait() == 0);
}

// A cluster operator's shell works on the cluster's database from any node (docs/adr/0091): every
// command that opens storage takes --database-url (and SVC_DATABASE_URL) beside --data-dir; the
// data-dir-only commands (backup, restore, migrate) do not pretend to.
TEST_CASE("CLI: every command that opens storage takes --database-url; a wrong one is refused without its password") {
    Cli cli;
    const std::vector<std::vector<std::string>> storageCommands{
        {"serve"},          {"tenant", "create"},     {"tenant", "configure"}, {"tenant", "widgets"},       {"tenant", "texts"},
        {"feed", "import"}, {"feed", "validate"},     {"feed", "history"},     {"feed", "source", "add"},   {"feed", "source", "list"},
        {"feed", "source", "remove"}, {"feed", "source", "run"}, {"sets", "import"}, {"sets", "list"}, {"content-pool", "list"},
        {"operator", "create"}, {"operator", "password"}, {"operator-key", "list"}, {"report", "summary"}, {"demo", "setup"}};
    for (auto command : storageCommands) {
        std::string name;
        for (const auto& word : command) name += word + " ";
        CAPTURE(name);
        command.push_back("--help");
        auto help = cli.run(command);
        CHECK(help.exitCode == 0);
        CHECK(help.out.find("--database-url") != std::string::npos);
    }
    for (const std::vector<std::string>& command : {std::vector<std::string>{"backup", "--help"}, {"migrate", "--help"}}) {
        CHECK(cli.run(command).out.find("--database-url") == std::string::npos);
    }
    auto unreachable = cli.run({"tenant", "create", "--data-dir", cli.dir.path(), "--name", "X", "--database-url",
                                "postgres://svc:hunter2-secret@127.0.0.1:1/svc?connect_timeout=2"});
    CHECK(unreachable.exitCode == 1);
    CHECK(unreachable.err.find("postgres: connect") != std::string::npos);
    CHECK(unreachable.err.find("hunter2-secret") == std::string::npos);
}
