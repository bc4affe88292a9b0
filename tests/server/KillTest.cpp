// An import applies atomically: killing the process at any moment leaves the catalog
// exactly as before or exactly as after. The real svc-server binary is killed with
// SIGKILL at random moments, repeatedly, and the catalog is checked after each kill.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "DataDirSql.hpp"
#include "ServerFixture.hpp"

using namespace svc;

namespace {

constexpr int kRows = 40000;

// Version `v` of the catalog: every name ends in "v<v>"; version 2 also drops the last
// 10% of the rows and adds as many new ones (so it inserts, updates and deletes).
std::string writeFeed(const test::TempDir& dir, int version) {
    std::ostringstream csv;
    csv << "\"sku\";\"main-sku\";\"stock\";\"name\";\"retail-price\";\"category-path\";\"beschreibung\"\n";
    int first = version == 2 ? kRows / 10 : 0;
    for (int i = first; i < first + kRows; ++i) {
        csv << "\"S" << i << "\";\"M" << i / 4 << "\";\"" << (i % 7) << "\";\"Product " << i << " v" << version << "\";\""
            << 1000 + i % 5000 << "\";\"Women > Clothing > Cat" << i % 40 << "\";\"A description long enough to make rows realistic, row " << i
            << "\"\n";
    }
    return dir.file("feed-v" + std::to_string(version) + ".csv", csv.str());
}

struct CatalogState {
    int64_t live = 0;
    int64_t v1 = 0;
    int64_t v2 = 0;
};

// The only tenant's catalog, as the next process to open it finds it.
CatalogState readState(const std::string& dataDir) {
    std::string file;
    if (!test::TestStorage::onPostgres()) {
        for (const auto& entry : std::filesystem::directory_iterator(dataDir + "/catalog")) {
            if (entry.path().extension() == ".sqlite3") file = entry.path().lexically_relative(dataDir);
        }
        // Killed before the import created the tenant's catalog file: nothing was imported.
        if (file.empty()) return {};
    }
    auto sql = test::DataDirSql::open(dataDir, file);
    REQUIRE(sql);
    // Killed before the new catalog file got its schema: an empty catalog. (PostgreSQL's tables
    // were made with the schema, when the tenant was created.)
    auto tables = sql->integer({"SELECT COUNT(*) FROM sqlite_master WHERE name = 'products'", "SELECT 1"});
    REQUIRE(tables);
    if (*tables == 0) return {};
    auto counts = sql->rows({"SELECT COALESCE(SUM(deleted = 0), 0), COALESCE(SUM(deleted = 0 AND name LIKE '% v1'), 0), "
                             "COALESCE(SUM(deleted = 0 AND name LIKE '% v2'), 0) FROM products",
                             "SELECT count(*) FILTER (WHERE NOT deleted), count(*) FILTER (WHERE NOT deleted AND name LIKE '% v1'), "
                             "count(*) FILTER (WHERE NOT deleted AND name LIKE '% v2') FROM catalog_products"});
    REQUIRE(counts);
    REQUIRE(counts->size() == 1);
    const auto& row = counts->front();
    return {std::stoll(row.at(0)), std::stoll(row.at(1)), std::stoll(row.at(2))};
}

int versionOf(const CatalogState& state) {
    if (state.live == kRows && state.v1 == kRows && state.v2 == 0) return 1;
    if (state.live == kRows && state.v2 == kRows && state.v1 == 0) return 2;
    return 0;  // in between: the bug this test exists to catch
}

std::string createTenant(const std::string& dataDir) {
    std::string out = dataDir + "/tenant.json";
    test::ChildProcess create(test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "tenant", "create", "--data-dir", dataDir, "--name", "Kill"}),
                              out);
    REQUIRE(create.wait() == 0);
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    return nlohmann::json::parse(text.str())["apiId"];
}

}  // namespace

TEST_CASE("kill -9 during CLI imports, repeatedly: the catalog is always exactly before or after") {
    test::TempDir dir;
    std::string apiId = createTenant(dir.path());
    std::string feeds[3] = {"", writeFeed(dir, 1), writeFeed(dir, 2)};
    auto importArgs = [&](int version) {
        return test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "feed", "import", "--data-dir", dir.path(), "--api-id", apiId, feeds[version]});
    };
    auto started = std::chrono::steady_clock::now();
    test::ChildProcess initial(importArgs(1));
    REQUIRE(initial.wait() == 0);
    auto fullImportMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    REQUIRE(versionOf(readState(dir.path())) == 1);

    std::mt19937 random(12345);
    int current = 1;
    int interrupted = 0;
    int completed = 0;
    for (int round = 0; round < 10; ++round) {
        int target = current == 1 ? 2 : 1;
        // Most rounds kill within an import's duration (the initial load timed above is
        // faster than these updates), the last two past it: kills land before, during and
        // just after the commit. (Spreading all rounds over 3x the duration let too few
        // land mid-import once imports got faster.)
        uint32_t span = static_cast<uint32_t>(3 * fullImportMs / 2 + 20);
        auto delay = std::chrono::milliseconds(round < 8 ? random() % span : span + random() % span);
        test::ChildProcess import(importArgs(target));
        REQUIRE(import.started());
        std::this_thread::sleep_for(delay);
        bool finishedFirst = import.hasExited();
        import.kill();
        import.wait();
        CatalogState state = readState(dir.path());
        int observed = versionOf(state);
        CAPTURE(round);
        CAPTURE(delay.count());
        CAPTURE(state.live);
        CAPTURE(state.v1);
        CAPTURE(state.v2);
        REQUIRE(observed != 0);
        REQUIRE((observed == current || observed == target));
        if (observed == current && !finishedFirst) ++interrupted;
        if (observed == target) ++completed;
        current = observed;
    }
    // The kills must really have hit imports in progress, or the test proves nothing.
    CHECK(interrupted >= 2);
    // An import after all that still applies cleanly.
    int target = current == 1 ? 2 : 1;
    test::ChildProcess last(importArgs(target));
    REQUIRE(last.wait() == 0);
    CHECK(versionOf(readState(dir.path())) == target);
    MESSAGE("full import " << fullImportMs << " ms; " << interrupted << " kills mid-import, " << completed << " after commit");
}

TEST_CASE("kill -9 during initial loads (rollback journal): the catalog is empty or complete, never half" *
          test::sqliteOnly("the kills are aimed at the life of an SQLite catalog file's rollback journal")) {
    // An initial load writes through a rollback journal instead of the WAL (ADR 0012);
    // a kill must leave a hot journal that the next open rolls back.
    // The kills are aimed at the journal's lifetime, not at a fraction of the whole process:
    // start-up (opening every store) takes a share of the run that varies with the machine's
    // load, and kills timed from the process start landed before the load too often.
    std::mt19937 random(777);
    int64_t journalMs = 0;
    int interrupted = 0;
    for (int round = 0; round < 12; ++round) {
        test::TempDir dir;
        std::string apiId = createTenant(dir.path());
        std::string feed = writeFeed(dir, 1);
        std::string journal = dir.path() + "/catalog/tenant-1.sqlite3-journal";
        std::vector<std::string> args = {SVC_SERVER_BINARY, "feed", "import", "--data-dir", dir.path(), "--api-id", apiId, feed};
        test::ChildProcess import(args);
        REQUIRE(import.started());
        // Waits (polling each millisecond) until the journal exists or the process has ended.
        auto awaitJournal = [&] {
            while (!std::filesystem::exists(journal) && !import.hasExited()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return std::chrono::steady_clock::now();
        };
        if (round == 0) {
            // How long the load keeps its journal: first seen to last seen.
            auto firstSeen = awaitJournal();
            auto lastSeen = firstSeen;
            while (!import.hasExited()) {
                if (std::filesystem::exists(journal)) lastSeen = std::chrono::steady_clock::now();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            REQUIRE(import.wait() == 0);
            journalMs = std::chrono::duration_cast<std::chrono::milliseconds>(lastSeen - firstSeen).count();
            REQUIRE(versionOf(readState(dir.path())) == 1);
            continue;
        }
        // Kills spread over the load, its index builds, its commit and a little past it.
        awaitJournal();
        auto delay = std::chrono::milliseconds(random() % static_cast<uint32_t>(5 * journalMs / 4 + 1));
        std::this_thread::sleep_for(delay);
        import.kill();
        import.wait();
        // A journal left on disk by the killed process: a transaction was under way through the
        // rollback journal, which opening the catalog rolls back. Either the load itself (then
        // the catalog is empty), or, just after its commit, the switch back to WAL, which
        // rewrites the file header in a small transaction of its own (then the load stands).
        bool hotJournal = std::filesystem::exists(journal);
        CatalogState state = readState(dir.path());
        CAPTURE(round);
        CAPTURE(delay.count());
        CAPTURE(state.live);
        bool empty = state.live == 0 && state.v1 == 0 && state.v2 == 0;
        REQUIRE((empty || versionOf(state) == 1));
        if (hotJournal && empty) ++interrupted;
        // The next load applies cleanly after whatever the kill left.
        test::ChildProcess again(args);
        REQUIRE(again.wait() == 0);
        CHECK(versionOf(readState(dir.path())) == 1);
    }
    CHECK(interrupted >= 2);
    MESSAGE("initial load journal lived " << journalMs << " ms; " << interrupted << " of 11 kills hit a load in progress");
}

TEST_CASE("kill -9 of the server during a pushed import: after restart it is requeued and applied") {
    test::TempDir dir;
    std::string apiId;
    std::string secret;
    {
        auto storage = test::TestStorage::open(dir.path(), systemClock());
        REQUIRE(storage);
        auto created = TenantService((*storage)->tenants()).create("Push");
        REQUIRE(created);
        apiId = created->tenant.apiId;
        secret = created->apiSecret;
    }
    std::string v1 = writeFeed(dir, 1);
    std::string log = dir.path() + "/serve.log";
    auto startServer = [&]() {
        return std::make_unique<test::ChildProcess>(
            test::TestStorage::withDatabaseUrl({SVC_SERVER_BINARY, "serve", "--data-dir", dir.path(), "--listen", "127.0.0.1:0"}), log);
    };
    auto portOf = [&]() {
        std::regex listening("listening on http://127\\.0\\.0\\.1:([0-9]+)");
        for (int attempt = 0; attempt < 200; ++attempt) {
            std::ifstream file(log);
            std::stringstream text;
            text << file.rdbuf();
            std::smatch match;
            std::string content = text.str();
            if (std::regex_search(content, match, listening)) return std::stoi(match[1]);
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        FAIL("server did not start");
        return 0;
    };
    httplib::Headers credentials{{"x-api-id", apiId}, {"x-api-secret", secret}};
    auto server = startServer();
    int port = portOf();
    httplib::Client client("127.0.0.1", port);
    std::string request = R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})";
    auto upload = nlohmann::json::parse(client.Post("/feeds/uploads", credentials, request, "application/json")->body);
    std::ifstream file(v1, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    std::string body = bytes.str();
    httplib::Headers headers;
    for (const auto& [name, value] : upload["headers"].items()) {
        if (name != "content-type") headers.emplace(name, value.get<std::string>());
    }
    std::string url = upload["url"];
    auto put = client.Put(url.substr(url.find("/feeds/")), headers, body, "text/csv");
    REQUIRE(put);
    REQUIRE(put->status == 200);
    int64_t importId = nlohmann::json::parse(put->body)["importId"];
    // Wait until the worker runs it, then kill the whole server.
    for (int attempt = 0; attempt < 400; ++attempt) {
        auto status = nlohmann::json::parse(client.Get("/feeds/imports/" + std::to_string(importId), credentials)->body)["status"];
        if (status != "queued") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    server->kill();
    server->wait();
    CatalogState afterKill = readState(dir.path());
    CHECK((afterKill.live == 0 || versionOf(afterKill) == 1));

    server = startServer();
    port = portOf();
    httplib::Client again("127.0.0.1", port);
    std::string status;
    for (int attempt = 0; attempt < 600 && status != "applied"; ++attempt) {
        status = nlohmann::json::parse(again.Get("/feeds/imports/" + std::to_string(importId), credentials)->body)["status"];
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(status == "applied");
    CHECK(versionOf(readState(dir.path())) == 1);
    server->kill(SIGTERM);
    CHECK(server->wait() == 0);
}
