// Nodes sharing blobs through an S3-compatible bucket (serve --blob-url, docs/adr/0090): s3rver on
// loopback behind the SigV4-checking front (tests/support/S3TestServer.hpp), real servers on real
// ports. A photo uploaded on one node is served by another that shares only the bucket and the
// key files (and its stores: on SQLite a copy of the database made before the upload, on
// PostgreSQL the one database of the deployment); a node without the bucket has no such photo,
// which is what these tests would see without --blob-url. A held feed is kept sealed in the
// bucket, not in the data dir, and another node confirms it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "LoopbackImageServer.hpp"
#include "ServerFixture.hpp"
#include "image/ImageCodec.hpp"
#include "imagebot/ImageBot.hpp"
#include "support/TestImages.hpp"
#include "support/S3TestServer.hpp"
#include "support/Skip.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const S3Credentials kBucketKeys{"SVCNODEKEY", "svc-node-secret-5"};
const std::string kOperatorKey = "operator-key-for-tests-0123456789";

std::string jpegBytes(int width, int height) {
    RgbImage image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<size_t>(width) * height * 3, 0);
    for (size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<uint8_t>(i * 5 % 241);
    return ImageCodec::encodeJpeg(image, 90);
}

std::string readBytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

// The objects s3rver keeps for `bucket` (files under its data dir), by path.
std::vector<std::string> storedObjects(const test::TempDir& dir, const std::string& bucket) {
    std::vector<std::string> objects;
    std::string root = dir.path() + "/s3-data/" + bucket;
    if (!std::filesystem::exists(root)) return objects;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        std::string path = entry.path().string();
        if (entry.is_regular_file() && path.size() > 15 && path.compare(path.size() - 15, 15, "._S3rver_object") == 0) {
            objects.push_back(path);
        }
    }
    return objects;
}

size_t filesUnder(const std::string& path) {
    if (!std::filesystem::exists(path)) return 0;
    size_t count = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) count += entry.is_regular_file() ? 1 : 0;
    return count;
}

std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path"};

std::string fullFeed(const std::vector<std::string>& ids) {
    std::vector<std::vector<std::string>> rows{kHeader};
    for (const auto& id : ids) rows.push_back({id + "-M", id, "5", "Item " + id, "4000", "https://shop.example/" + id, "https://shop.example/" + id + ".jpg", "Women > Jeans"});
    return test::feedCsv(rows);
}

struct Cluster {
    test::TempDir dir;
    test::S3TestServer s3{dir.path(), kBucketKeys.accessKeyId, kBucketKeys.secretAccessKey, {"svc-blobs"}, {}};

    ServerOptions sharing() const {
        ServerOptions options;
        options.blobBucket = BlobStores::parseUrl(s3.url("svc-blobs", "cluster"), kBucketKeys).value();
        return options;
    }
    std::string node(const std::string& name) const { return dir.path() + "/" + name; }
    // Another node of the deployment: the key files of `from` (stopped) as they are now, and its
    // stores (on SQLite copied with the data dir; on PostgreSQL the same database).
    void copyNode(const std::string& from, const std::string& to) const {
        std::filesystem::copy(node(from), node(to), std::filesystem::copy_options::recursive);
        std::filesystem::remove(node(to) + "/svc.lock");
        test::TestStorage::shareDatabase(node(from), node(to));
    }
};

}  // namespace

TEST_CASE("shared blobs: the image bot's thumbnails go to the bucket, and another node serves them without fetching again" *
          test::needs(test::SkipReason::DependencyInstalledByScripts, test::S3TestServer::installed(),
                      "shared blobs: node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs them)")) {
    Cluster cluster;
    if (!cluster.s3.running()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "shared blobs: " << cluster.s3.why);
    test::LoopbackImageServer images;
    images.put("/dress.jpg", test::productJpeg(800, 600, 1));
    ServerOptions options = cluster.sharing();
    ImageBotOptions bot;
    bot.allowList = {"127.0.0.1:*"};
    bot.infoUrl = "http://info.example/imagebot";
    bot.rescanInterval = std::chrono::hours(1);
    options.imageBot = bot;
    std::filesystem::create_directories(cluster.node("a"));
    std::string key = ImageBot::thumbKeyOf(images.url("/dress.jpg"));
    Tenant tenant;
    std::string thumbnail;
    {
        test::RunningServer a(cluster.node("a"), nullptr, options);
        tenant = TenantService(a.storage->tenants()).create("Shop")->tenant;
        std::string feed = test::feedCsv({{"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path"},
                                          {"A-M", "A", "5", "Dress", "4990", "https://shop.example/A", images.url("/dress.jpg"), "Women > Dresses"}});
        REQUIRE(test::importFeedFile(*a.storage, tenant, cluster.node("a"), cluster.dir.file("feed.csv", feed)));
        REQUIRE(a.services->imageBot());
        a.services->imageBot()->catalogChanged(tenant.id);
        REQUIRE(a.services->imageBot()->waitIdle(std::chrono::seconds(15)));
        auto served = a.client().Get("/" + tenant.apiId + "/thumbs/" + key + ".jpg");
        REQUIRE(served);
        REQUIRE(served->status == 200);
        thumbnail = served->body;
    }
    CHECK(images.requests("/dress.jpg") == 1);
    size_t localJpegs = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(cluster.node("a"))) localJpegs += entry.path().extension() == ".jpg";
    CHECK(localJpegs == 0);
    auto objects = storedObjects(cluster.dir, "svc-blobs");
    REQUIRE(objects.size() == 1);
    CHECK(objects[0].find("cluster/thumbs/" + std::to_string(tenant.id) + "-" + key + ".jpg") != std::string::npos);
    CHECK(readBytes(objects[0]).size() == thumbnail.size() + 24 + 17);

    cluster.copyNode("a", "b");
    test::RunningServer b(cluster.node("b"), nullptr, options);
    REQUIRE(b.services->imageBot()->waitIdle(std::chrono::seconds(15)));
    auto served = b.client().Get("/" + tenant.apiId + "/thumbs/" + key + ".jpg");
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->body == thumbnail);
    CHECK(images.requests("/dress.jpg") == 1);
}

TEST_CASE("shared blobs: a photo uploaded on one node is served by another sharing only the bucket and the key" *
          test::needs(test::SkipReason::DependencyInstalledByScripts, test::S3TestServer::installed(),
                      "shared blobs: node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs them)")) {
    Cluster cluster;
    if (!cluster.s3.running()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "shared blobs: " << cluster.s3.why);
    std::filesystem::create_directories(cluster.node("a"));
    Tenant tenant;
    {
        auto storage = test::openStorage(cluster.node("a"));
        tenant = TenantService(storage->tenants()).create("Shop")->tenant;
        REQUIRE(storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(kOperatorKey)}));
        REQUIRE(ServerKeys::loadOrCreate(cluster.node("a")));
    }
    cluster.copyNode("a", "b");
    cluster.copyNode("a", "alone");

    test::RunningServer a(cluster.node("a"), nullptr, cluster.sharing());
    test::RunningServer b(cluster.node("b"), nullptr, cluster.sharing());
    test::RunningServer alone(cluster.node("alone"));
    std::string jpeg = jpegBytes(96, 64);
    auto uploaded = a.client().Post("/operator/api/tenants/" + tenant.apiId + "/sets/photos", {{"Authorization", "Bearer " + kOperatorKey}},
                                    jpeg, "image/jpeg");
    REQUIRE(uploaded);
    INFO(uploaded->body);
    REQUIRE(uploaded->status == 201);
    std::string path = json::parse(uploaded->body)["path"];

    auto onA = a.client().Get(path);
    auto onB = b.client().Get(path);
    REQUIRE(onA);
    REQUIRE(onB);
    CHECK(onA->status == 200);
    CHECK(onB->status == 200);
    CHECK(onB->body == onA->body);
    CHECK(onB->get_header_value("Content-Type") == "image/jpeg");
    CHECK(ImageCodec::probe(onB->body));
    CHECK(alone.client().Get(path)->status == 404);

    // In the bucket, sealed; nothing in either data dir.
    CHECK(filesUnder(cluster.node("a") + "/set-photos") == 0);
    auto objects = storedObjects(cluster.dir, "svc-blobs");
    REQUIRE(objects.size() == 1);
    CHECK(objects[0].find("cluster/set-photos/" + std::to_string(tenant.id) + "-") != std::string::npos);
    std::string stored = readBytes(objects[0]);
    CHECK(stored.size() == onA->body.size() + 24 + 17);
    CHECK(stored.find(onA->body.substr(0, 64)) == std::string::npos);
}

TEST_CASE("shared blobs: a held feed is kept sealed in the bucket, not the data dir, and another node confirms it from there" *
          test::needs(test::SkipReason::DependencyInstalledByScripts, test::S3TestServer::installed(),
                      "shared blobs: node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs them)")) {
    Cluster cluster;
    if (!cluster.s3.running()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "shared blobs: " << cluster.s3.why);
    std::filesystem::create_directories(cluster.node("a"));
    Tenant tenant;
    std::string secret;
    json held;
    auto credentials = [&] { return httplib::Headers{{"x-api-id", tenant.apiId}, {"x-api-secret", secret}}; };
    {
        test::RunningServer a(cluster.node("a"), nullptr, cluster.sharing());
        auto created = TenantService(a.storage->tenants()).create("Shop");
        tenant = created->tenant;
        secret = created->apiSecret;
        auto push = [&](const std::string& csv) {
            json request{{"identifier", "sku"}, {"format", {{"type", "csv"}, {"options", {{"delimiter", ";"}}}}}, {"delta", false}};
            std::string text = request.dump();
            auto upload = json::parse(a.client().Post("/feeds/uploads", credentials(), text, "application/json")->body);
            std::string url = upload["url"];
            httplib::Headers headers;
            std::string contentType;
            for (const auto& [name, value] : upload["headers"].items()) {
                if (name == "content-type") contentType = value;
                else headers.emplace(name, value.get<std::string>());
            }
            auto put = a.client().Put(url.substr(url.find("/feeds/")), headers, csv, contentType.c_str());
            REQUIRE(put);
            INFO(put->body);
            REQUIRE(put->status == 200);
            std::string id = std::to_string(json::parse(put->body)["importId"].get<int64_t>());
            for (int attempt = 0; attempt < 400; ++attempt) {
                auto record = json::parse(a.client().Get("/feeds/imports/" + id, credentials())->body);
                if (record["status"] != "queued" && record["status"] != "running") return record;
                std::this_thread::sleep_for(std::chrono::milliseconds(25));
            }
            FAIL("import " << id << " did not finish");
            return json();
        };
        CHECK(push(fullFeed({"A", "B", "C", "D", "E", "F"}))["status"] == "applied");
        held = push(fullFeed({"A", "SECRET-PLAINTEXT-SKU"}));
        REQUIRE(held["status"] == "held");
    }
    CHECK(filesUnder(cluster.node("a") + "/uploads") == 0);
    auto objects = storedObjects(cluster.dir, "svc-blobs");
    REQUIRE(objects.size() == 1);
    // The pushed body itself, kept under its upload's name until the import is confirmed or discarded.
    CHECK(objects[0].find("cluster/uploads/upload-") != std::string::npos);
    CHECK(readBytes(objects[0]).find("SECRET-PLAINTEXT-SKU") == std::string::npos);

    cluster.copyNode("a", "b");
    test::RunningServer b(cluster.node("b"), nullptr, cluster.sharing());
    auto confirm = b.client().Post("/feeds/imports/" + held["id"].dump() + "/confirm", credentials(), "", "text/plain");
    REQUIRE(confirm);
    INFO(confirm->body);
    CHECK(confirm->status == 200);
    CHECK(json::parse(confirm->body)["status"] == "applied");
    CHECK(json::parse(confirm->body)["markedDeleted"] == 5);
    // Applied, the kept feed is removed from the bucket.
    CHECK(storedObjects(cluster.dir, "svc-blobs").empty());
}

namespace {

// `svc-server serve` as a child on a free port; its stdout (where it says the port) and stderr kept in files.
struct ServeProcess {
    std::string out;
    std::string err;
    std::unique_ptr<test::ChildProcess> process;
    int port = 0;

    ServeProcess(const std::string& dataDir, const std::vector<std::string>& extra) : out(dataDir + ".out"), err(dataDir + ".err") {
        std::vector<std::string> arguments{"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"$SVC_ERR\"", SVC_SERVER_BINARY, "serve", "--data-dir",
                                           dataDir, "--listen", "127.0.0.1:0", "--no-image-bot"};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        arguments = test::TestStorage::withDatabaseUrl(std::move(arguments));
        setenv("SVC_ERR", err.c_str(), 1);
        process = std::make_unique<test::ChildProcess>(arguments, out);
        for (int attempt = 0; attempt < 500 && !process->hasExited(); ++attempt) {
            std::string said = readBytes(out);
            if (size_t at = said.find("listening on http://127.0.0.1:"); at != std::string::npos) {
                port = std::stoi(said.substr(at + 30));
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    ~ServeProcess() {
        if (!process->hasExited()) process->kill(SIGTERM);
        process->wait();
    }
    httplib::Client client() const {
        httplib::Client http("127.0.0.1", port);
        http.set_read_timeout(10);
        return http;
    }
};

}  // namespace

TEST_CASE("shared blobs: svc-server serve --blob-url with the key pair from SVC_S3_*; refusals name the option, never the secret" *
          test::needs(test::SkipReason::DependencyInstalledByScripts, test::S3TestServer::installed(),
                      "shared blobs: node or e2e/node_modules/s3rver is missing (scripts/install-deps.sh installs them)")) {
    Cluster cluster;
    if (!cluster.s3.running()) SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "shared blobs: " << cluster.s3.why);
    std::filesystem::create_directories(cluster.node("a"));
    Tenant tenant;
    {
        auto storage = test::openStorage(cluster.node("a"));
        tenant = TenantService(storage->tenants()).create("Shop")->tenant;
        REQUIRE(storage->operatorKeys().addOperatorKey({"tests", SecretHasher::hash(kOperatorKey)}));
        REQUIRE(ServerKeys::loadOrCreate(cluster.node("a")));
    }
    cluster.copyNode("a", "b");
    std::string url = cluster.s3.url("svc-blobs", "binary");
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");

    struct Refusal {
        std::vector<std::string> arguments;
        std::string error;
    };
    const std::vector<Refusal> refusals{
        {{"--blob-url", url}, "--blob-url: the bucket's credentials are missing"},
        {{"--blob-url", url, "--s3-access-key-id", kBucketKeys.accessKeyId}, "--blob-url: the bucket's credentials are missing"},
        {{"--blob-url", "s3://svc-blobs?endpoint=" + cluster.s3.endpoint()}, "--blob-url: give s3://bucket/prefix"},
        {{"--blob-url", "s3://svc-blobs/p?endpoint=ftp://x"}, "--blob-url: endpoint 'ftp://x' is not an http(s)://host[:port] origin"},
    };
    for (const auto& refusal : refusals) {
        CAPTURE(refusal.error);
        ServeProcess refused(cluster.node("refused"), refusal.arguments);
        CHECK(refused.port == 0);
        CHECK(refused.process->wait() == 1);
        CHECK(readBytes(refused.err).find(refusal.error) != std::string::npos);
    }
    cluster.copyNode("a", "wrong");

    setenv("SVC_S3_ACCESS_KEY_ID", kBucketKeys.accessKeyId.c_str(), 1);
    setenv("SVC_S3_SECRET_ACCESS_KEY", kBucketKeys.secretAccessKey.c_str(), 1);
    ServeProcess a(cluster.node("a"), {"--blob-url", url});
    ServeProcess b(cluster.node("b"), {"--blob-url", url});
    setenv("SVC_S3_SECRET_ACCESS_KEY", "wrong-secret-never-shown", 1);
    ServeProcess wrong(cluster.node("wrong"), {"--blob-url", url});
    unsetenv("SVC_S3_ACCESS_KEY_ID");
    unsetenv("SVC_S3_SECRET_ACCESS_KEY");
    REQUIRE(a.port != 0);
    REQUIRE(b.port != 0);

    auto uploaded = a.client().Post("/operator/api/tenants/" + tenant.apiId + "/sets/photos", {{"Authorization", "Bearer " + kOperatorKey}},
                                    jpegBytes(40, 40), "image/jpeg");
    REQUIRE(uploaded);
    REQUIRE(uploaded->status == 201);
    std::string path = json::parse(uploaded->body)["path"];
    auto served = b.client().Get(path);
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->body == a.client().Get(path)->body);

    // A node with a wrong secret: the bucket refuses it, the upload fails as unavailable, and the secret appears nowhere.
    auto refused = wrong.client().Post("/operator/api/tenants/" + tenant.apiId + "/sets/photos", {{"Authorization", "Bearer " + kOperatorKey}},
                                       jpegBytes(40, 40), "image/jpeg");
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(refused->body.find("SignatureDoesNotMatch") != std::string::npos);
    for (const ServeProcess* node : {&a, &b, &wrong}) {
        for (const std::string& file : {node->out, node->err}) {
            CHECK(readBytes(file).find(kBucketKeys.secretAccessKey) == std::string::npos);
            CHECK(readBytes(file).find("wrong-secret-never-shown") == std::string::npos);
        }
    }
    CHECK(refused->body.find("wrong-secret-never-shown") == std::string::npos);
}
