// The data dir is the service's alone (issue 18, docs/adr/0061): a data dir made by the real
// server or the real CLI holds only 0700 directories and 0600 files (databases with their -wal
// and -shm, catalogs, uploads, photos, keys), whatever the umask of whoever started it, and one
// made by an older svc is tightened when opened. Each case walks the tree and names every
// file that others could read.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ChildProcess.hpp"
#include "ServerFixture.hpp"
#include "image/ImageCodec.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
namespace fs = std::filesystem;

namespace {

// Every path below `root` (and `root` itself) that group or others may use, with its mode.
std::vector<std::string> sharedPaths(const std::string& root, size_t& seen) {
    std::vector<std::string> shared;
    auto note = [&shared](const fs::path& path) {
        auto mode = fs::symlink_status(path).permissions();
        if ((mode & (fs::perms::group_all | fs::perms::others_all)) != fs::perms::none) {
            char octal[8];
            std::snprintf(octal, sizeof octal, "%03o", static_cast<unsigned>(mode) & 0777);
            shared.push_back(path.string() + " " + octal);
        }
    };
    note(root);
    seen = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        ++seen;
        note(entry.path());
    }
    return shared;
}

std::string jpegBytes() {
    RgbImage image;
    image.width = image.height = 16;
    image.pixels.assign(16 * 16 * 3, 120);
    return ImageCodec::encodeJpeg(image, 90);
}

// The umask of a careless start (022) while `work` runs: svc must not rely on the caller's.
template <typename Work>
void withUmask022(Work work) {
    mode_t previous = ::umask(022);
    work();
    ::umask(previous);
}

}  // namespace

TEST_CASE("data dir: a new data dir made by the real server holds only 0700 directories and 0600 files") {
    test::TempDir parent;
    std::string dataDir = parent.path() + "/data";  // not there yet: the server makes it
    withUmask022([&] {
        test::RunningServer server(dataDir);
        Tenant tenant = TenantService(server.storage->tenants()).create("Shop")->tenant;
        REQUIRE(test::importFeedFile(*server.storage, tenant, dataDir,
                                     parent.file("feed.csv", test::feedCsv({{"sku", "name", "stock", "retail-price"}, {"A1", "Tee", "3", "1000"}}))));
        std::string key = "operator-key-for-tests-0123456789";
        REQUIRE(server.storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(key)}));
        auto client = server.client();
        auto photo = client.Post("/operator/api/tenants/" + tenant.apiId + "/sets/photos", {{"Authorization", "Bearer " + key}}, jpegBytes(),
                                 "image/jpeg");
        REQUIRE(photo);
        REQUIRE(photo->status == 201);
        // A feed file pushed over HTTP: an encrypted upload awaiting its import.
        auto upload = client.Post("/operator/api/tenants/" + tenant.apiId + "/imports", {{"Authorization", "Bearer " + key}},
                                  test::feedCsv({{"sku", "name", "stock", "retail-price"}, {"A1", "Tee", "2", "1000"}}), "text/csv");
        REQUIRE(upload);
        CHECK(upload->status / 100 == 2);
        size_t seen = 0;
        auto shared = sharedPaths(dataDir, seen);
        if (test::TestStorage::onPostgres()) {
            // The stores are PostgreSQL's (its files are its own business): the data dir keeps the rest.
            CHECK_FALSE(fs::exists(dataDir + "/svc.sqlite3"));
            CHECK(seen >= 8);  // keys/ (master, credentials), set-photos/ with the photo, uploads/ with the pushed feed
        } else {
            // While it runs: the databases' -wal and -shm files are there too.
            CHECK(fs::exists(dataDir + "/svc.sqlite3-wal"));
            CHECK(fs::exists(dataDir + "/events.sqlite3-shm"));
            CHECK(seen >= 12);  // svc.sqlite3 (-wal, -shm), events.sqlite3, catalog/, keys/, photos/, uploads/ ...
        }
        CHECK(fs::exists(dataDir + "/keys/master.key"));
        for (const auto& path : shared) CAPTURE(path);
        CHECK_MESSAGE(shared.empty(), "readable by others: ", shared.size() > 0 ? shared.front() : std::string());
    });
    size_t seen = 0;
    auto shared = sharedPaths(dataDir, seen);
    for (const auto& path : shared) CAPTURE(path);
    CHECK_MESSAGE(shared.empty(), "readable by others: ", shared.size() > 0 ? shared.front() : std::string());
}

TEST_CASE("data dir: one made by the CLI binary, started with umask 022, is private too") {
    test::TempDir parent;
    std::string dataDir = parent.path() + "/data";
    std::string feed = parent.file("feed.csv", test::feedCsv({{"sku", "name", "stock", "retail-price"}, {"A1", "Tee", "3", "1000"}}));
    withUmask022([&] {
        std::string out = parent.path() + "/out.txt";
        test::ChildProcess create({SVC_SERVER_BINARY, "tenant", "create", "--data-dir", dataDir, "--name", "CLI shop"}, out);
        REQUIRE(create.wait() == 0);
        std::ifstream created(out);
        std::string apiId = nlohmann::json::parse(created)["apiId"];
        test::ChildProcess import({SVC_SERVER_BINARY, "feed", "import", "--data-dir", dataDir, "--api-id", apiId, feed}, out);
        REQUIRE(import.wait() == 0);
    });
    size_t seen = 0;
    auto shared = sharedPaths(dataDir, seen);
    CHECK(seen >= 4);
    for (const auto& path : shared) CAPTURE(path);
    CHECK_MESSAGE(shared.empty(), "readable by others: ", shared.size() > 0 ? shared.front() : std::string());
}

TEST_CASE("data dir: an existing data dir with 0755 directories and 0644 files is tightened when opened") {
    test::TempDir parent;
    std::string dataDir = parent.path() + "/data";
    {
        auto storage = Storage::open(dataDir, systemClock());
        REQUIRE(storage);
    }
    // As an older svc left it: everything readable by everyone.
    fs::create_directories(dataDir + "/catalog");
    std::ofstream(dataDir + "/catalog/tenant-1.sqlite3") << "";
    for (const auto& entry : fs::recursive_directory_iterator(dataDir)) {
        fs::permissions(entry.path(), entry.is_directory() ? fs::perms(0755) : fs::perms(0644));
    }
    fs::permissions(dataDir, fs::perms(0755));
    // Not svc's: a data dir pointed at a directory with other things in it leaves them alone.
    std::string notes = dataDir + "/notes.txt";
    std::ofstream(notes) << "the operator's";
    fs::permissions(notes, fs::perms(0644));
    std::string outside = parent.file("outside.txt", "not svc's");
    fs::permissions(outside, fs::perms(0644));
    fs::create_symlink(outside, dataDir + "/link");  // not followed, not changed
    size_t seen = 0;
    REQUIRE_FALSE(sharedPaths(dataDir, seen).empty());

    auto reopened = Storage::open(dataDir, systemClock());
    REQUIRE(reopened);
    fs::remove(dataDir + "/link");
    CHECK(fs::status(notes).permissions() == fs::perms(0644));
    fs::remove(notes);
    auto shared = sharedPaths(dataDir, seen);
    for (const auto& path : shared) CAPTURE(path);
    CHECK_MESSAGE(shared.empty(), "readable by others: ", shared.size() > 0 ? shared.front() : std::string());
    CHECK((fs::status(outside).permissions() & fs::perms::others_read) != fs::perms::none);
}
