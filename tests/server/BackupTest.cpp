// `svc-server backup` and `restore` (docs/adr/0063): an online copy taken while purchases keep
// arriving loses nothing that was acknowledged before it started, holds no order that was not
// yet sent when it ended, and restored, books exactly the ledger the source booked for
// the same orders. Restores never touch a live or non-empty data dir; a damaged copy is refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "ServerFixture.hpp"
#include "store/DataDirBackup.hpp"
#include "store/DataDirLock.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> variant(const std::string& mainSku) {
    return {mainSku + "-S", mainSku, "M-" + mainSku, "5", "Item " + mainSku, "5000", "5000", "https://shop.example/" + mainSku,
            "https://shop.example/" + mainSku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

// The ledger CSV's rows by order id (the CSV's second column), header left out.
std::map<std::string, std::vector<std::string>> ledgerByOrder(test::RunningServer& server, const Tenant& tenant, const std::string& secret) {
    auto response = server.client().Get("/reports/ledger", {{"x-api-id", tenant.apiId}, {"x-api-secret", secret}});
    REQUIRE(response);
    REQUIRE_MESSAGE(response->status == 200, response->body);
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream lines(response->body);
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
        size_t first = line.find(',');
        size_t second = line.find(',', first + 1);
        rows[line.substr(first + 1, second - first - 1)].push_back(line);
    }
    return rows;
}

bool isPrivate(const std::filesystem::path& path) {
    auto permissions = std::filesystem::status(path).permissions();
    auto groupOrOther = std::filesystem::perms::group_all | std::filesystem::perms::others_all;
    return (permissions & groupOrOther) == std::filesystem::perms::none;
}

}  // namespace

TEST_CASE("Backup under purchase load: nothing acknowledged before it is lost, the restored ledger equals the source's" *
          test::sqliteOnly("svc-server backup copies the data dir's SQLite files; a PostgreSQL database is backed up by PostgreSQL's own tools")) {
    test::TempDir dir;
    ServerOptions options;
    // Steady load from one address and four visitors: the limits are tested elsewhere.
    options.events.rateLimit.perSecond = 0;
    options.events.purchasesPerAddress.perSecond = 0;
    options.events.purchasesPerVisitor.perSecond = 0;
    auto source = std::make_unique<test::RunningServer>(dir.path() + "/data", nullptr, options);
    auto created = TenantService(source->storage->tenants()).create("Shop");
    REQUIRE(created);
    Tenant tenant = created->tenant;
    std::string secret = created->apiSecret;
    REQUIRE(source->storage->tenants().setCommission(tenant.id, 30, "500"));
    REQUIRE(test::importFeedFile(*source->storage, tenant, dir.path() + "/data",
                                 dir.file("feed.csv", test::feedCsv({kHeader, variant("A"), variant("B")}))));

    // Four shoppers, each clicked a SIMILAR card once, then buy again and again.
    std::mutex mutex;
    std::vector<std::string> acknowledged;  // answered 200
    std::vector<std::string> sent;          // sent (a commit can land before its answer arrives)
    std::atomic<bool> stop{false};
    std::vector<std::thread> shoppers;
    for (int shopper = 0; shopper < 4; ++shopper) {
        shoppers.emplace_back([&, shopper] {
            auto client = source->client();
            std::string cid = "cid-" + std::to_string(shopper);
            json click{{"type", "click"}, {"cid", cid}, {"widget", "SIMILAR"}, {"touchpoint", "product"}, {"sku", "A-S"}};
            client.Post("/events", {{"x-api-id", tenant.apiId}}, click.dump(), "application/json");
            for (int n = 0; !stop; ++n) {
                std::string order = "O-" + std::to_string(shopper) + "-" + std::to_string(n);
                json line{{"sku", n % 2 ? "A-S" : "B-S"}, {"amount", 1 + n % 3}, {"price", 1999}};
                json purchase{{"customerid", "anonymous"}, {"orderid", order}, {"cid", cid}, {"products", json::array({line})}};
                {
                    std::lock_guard lock(mutex);
                    sent.push_back(order);
                }
                auto response = client.Post("/events", {{"x-api-id", tenant.apiId}}, purchase.dump(), "application/json");
                if (response && response->status != 200 && n == 0) MESSAGE(response->status << " " << response->body);
                if (response && response->status == 200) {
                    std::lock_guard lock(mutex);
                    acknowledged.push_back(order);
                }
            }
        });
    }
    auto acknowledgedSoFar = [&] {
        std::lock_guard lock(mutex);
        return std::set<std::string>(acknowledged.begin(), acknowledged.end());
    };
    // The backup starts once orders are flowing (a fixed 700 ms here saw fewer than 20 on a busy
    // machine); the deadline ends only a wait that would never end.
    for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
         acknowledgedSoFar().size() <= 20 && std::chrono::steady_clock::now() < until;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    auto beforeBackup = acknowledgedSoFar();
    auto manifest = DataDirBackup::backup(dir.path() + "/data", dir.path() + "/backup", 1700000000);
    std::set<std::string> sentBeforeEnd;
    {
        std::lock_guard lock(mutex);
        sentBeforeEnd.insert(sent.begin(), sent.end());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
    for (auto& shopper : shoppers) shopper.join();
    REQUIRE_MESSAGE(manifest, manifest.error().message);
    MESSAGE(beforeBackup.size() << " orders acknowledged before the backup, " << sentBeforeEnd.size() << " sent when it ended, "
                                << acknowledgedSoFar().size() << " in all");
    REQUIRE(beforeBackup.size() > 20);

    // Everything svc needs is in it, private; nothing transient.
    std::set<std::string> files;
    for (const auto& file : manifest->files) files.insert(file.path);
    for (const char* needed : {"svc.sqlite3", "events.sqlite3", "keys/master.key"}) CHECK(files.count(needed) == 1);
    CHECK(std::any_of(files.begin(), files.end(), [](const std::string& f) { return f.rfind("catalog/tenant-", 0) == 0; }));
    for (const auto& file : files) CHECK_MESSAGE(isPrivate(dir.path() + "/backup/" + file), file);
    CHECK(isPrivate(dir.path() + "/backup"));
    CHECK(DataDirBackup::verify(dir.path() + "/backup"));

    auto sourceLedger = ledgerByOrder(*source, tenant, secret);
    source.reset();

    auto restored = DataDirBackup::restore(dir.path() + "/backup", dir.path() + "/restored");
    REQUIRE_MESSAGE(restored, restored.error().message);
    CHECK(isPrivate(dir.path() + "/restored"));
    test::RunningServer copy(dir.path() + "/restored");
    auto copyLedger = ledgerByOrder(copy, tenant, secret);

    std::set<std::string> copied;
    for (const auto& [order, rows] : copyLedger) copied.insert(order);
    for (const auto& order : beforeBackup) CHECK_MESSAGE(copied.count(order) == 1, order << " was acknowledged before the backup");
    for (const auto& order : copied) {
        CHECK_MESSAGE(sentBeforeEnd.count(order) == 1, order << " was not even sent when the backup ended");
        CHECK(copyLedger[order] == sourceLedger[order]);
    }
}

TEST_CASE("Restore refuses a live or non-empty data dir and a damaged backup; nothing is written then" *
          test::sqliteOnly("svc-server restore writes the data dir's SQLite files; a PostgreSQL database is restored by PostgreSQL's own tools")) {
    test::TempDir dir;
    {
        test::RunningServer server(dir.path() + "/data");
        REQUIRE(TenantService(server.storage->tenants()).create("Shop"));
    }
    REQUIRE(DataDirBackup::backup(dir.path() + "/data", dir.path() + "/backup", 1700000000));

    SUBCASE("into a data dir a server holds") {
        auto lock = DataDirLock::acquire(dir.path() + "/live");
        REQUIRE(lock);
        auto refused = DataDirBackup::restore(dir.path() + "/backup", dir.path() + "/live");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("in use by a running svc-server") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir.path() + "/live/svc.sqlite3"));
    }
    SUBCASE("over existing data") {
        auto refused = DataDirBackup::restore(dir.path() + "/backup", dir.path() + "/data");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("exists and is not empty") != std::string::npos);
    }
    SUBCASE("a backup damaged after it was made") {
        std::ofstream(dir.path() + "/backup/svc.sqlite3", std::ios::binary | std::ios::app) << "x";
        auto refused = DataDirBackup::restore(dir.path() + "/backup", dir.path() + "/fresh");
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("svc.sqlite3 differs from the manifest") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir.path() + "/fresh"));
    }
    SUBCASE("a backup into a non-empty folder") {
        auto refused = DataDirBackup::backup(dir.path() + "/data", dir.path() + "/backup", 1700000001);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message == "--to: " + dir.path() + "/backup exists and is not empty");
    }
}

TEST_CASE("DataDirLock: one holder per data dir, released when the holder goes") {
    test::TempDir dir;
    {
        auto first = DataDirLock::acquire(dir.path());
        REQUIRE(first);
        CHECK(DataDirLock::isHeld(dir.path()));
        auto second = DataDirLock::acquire(dir.path());
        REQUIRE_FALSE(second);
        CHECK(second.error().message.find("in use by another svc-server (pid " + std::to_string(::getpid()) + ")") != std::string::npos);
    }
    CHECK_FALSE(DataDirLock::isHeld(dir.path()));
    CHECK(DataDirLock::acquire(dir.path()));
}
