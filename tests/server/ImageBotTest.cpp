// The image bot against real HTTP servers on loopback (LoopbackImageServer) and a real
// svc-server: thumbnails made and served with cache headers, fetched once per URL, polite to
// hosts (per-host limit, Retry-After), refused addresses and bodies recorded with their reason,
// and (when ../shared/data is present) the real fashion photos.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "LoopbackImageServer.hpp"
#include "ServerFixture.hpp"
#include "image/ImageCodec.hpp"
#include "image/PerceptualHash.hpp"
#include "imagebot/ImageBot.hpp"
#include "support/TestImages.hpp"
#include "support/Skip.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "deeplink", "image", "thumbnail",
                                          "category-path"};

std::vector<std::string> productRow(const std::string& id, const std::string& image, const std::string& thumbnail = "") {
    return {id + "-M", id, "Model " + id, "5", "Item " + id, "4990", "https://shop.example/" + id, image, thumbnail, "Women > Dresses"};
}

ServerOptions botOptions(FetchLimits limits = {2'000, 10'000, int64_t{2} << 20, 3}) {
    ImageBotOptions bot;
    bot.allowList = {"127.0.0.1:*"};
    bot.infoUrl = "http://info.example/imagebot";
    bot.workers = 4;
    bot.politeness.perHostLimit = 2;
    bot.politeness.maxAttempts = 3;
    bot.politeness.backoffBaseMs = 100;
    bot.politeness.backoffMaxMs = 1'000;
    bot.politeness.maxRetryAfterMs = 5'000;
    bot.limits = limits;
    bot.maxPixels = 1'000'000;
    bot.rescanInterval = std::chrono::hours(1);  // scans come from the tests
    ServerOptions options;
    options.imageBot = bot;
    return options;
}

struct BotFixture {
    test::TempDir dir;
    test::LoopbackImageServer images;
    std::unique_ptr<test::RunningServer> server;
    Tenant tenant;
    std::string secret;
    int feeds = 0;

    explicit BotFixture(ServerOptions options = botOptions()) {
        server = std::make_unique<test::RunningServer>(dir.path(), nullptr, options);
        auto created = TenantService(server->storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
        secret = created->apiSecret;
    }
    ImageBot& bot() {
        REQUIRE(server->services->imageBot());
        return *server->services->imageBot();
    }
    // Imports as the CLI would (another process: the bot hears of it through a scan request).
    void import(const Tenant& into, const std::vector<std::vector<std::string>>& rows) {
        std::vector<std::vector<std::string>> all{kHeader};
        all.insert(all.end(), rows.begin(), rows.end());
        auto imported = test::importFeedFile(*server->storage, into, dir.path(), dir.file("feed" + std::to_string(++feeds) + ".csv", test::feedCsv(all)));
        INFO((imported ? std::string() : imported.error().message));
        REQUIRE(imported);
        bot().catalogChanged(into.id);
    }
    void settle() { REQUIRE(bot().waitIdle(std::chrono::seconds(15))); }
    ImageFacts facts(const std::string& url, const Tenant* of = nullptr) {
        auto found = bot().facts().find((of ? *of : tenant).id, url);
        REQUIRE(found);
        REQUIRE(found->has_value());
        return **found;
    }
    httplib::Result thumbnail(const std::string& key, const std::string& apiId = "", const httplib::Headers& headers = {}) {
        return server->client().Get("/" + (apiId.empty() ? tenant.apiId : apiId) + "/thumbs/" + key + ".jpg", headers);
    }
};

}  // namespace

TEST_CASE("Image bot: thumbnails are made after a pushed import and served with long-lived cache headers, per tenant") {
    BotFixture f;
    f.images.put("/dress.jpg", test::productJpeg(800, 600, 1));
    f.images.put("/coat.png", ImageCodec::encodePng(test::productImage(200, 300, 2)), "image/png");
    f.images.put("/coat-small.jpg", test::productJpeg(100, 150, 2));
    // Pushed over HTTP: the server's own import triggers the bot, nothing else asks it.
    auto upload = f.server->client().Post("/feeds/uploads", {{"x-api-id", f.tenant.apiId}, {"x-api-secret", f.secret}},
                                          std::string(R"({"identifier":"sku","format":{"type":"csv","options":{"delimiter":";"}}})"),
                                          "application/json");
    REQUIRE(upload);
    REQUIRE(upload->status == 200);
    auto answer = json::parse(upload->body);
    httplib::Headers headers;
    std::string contentType;
    for (const auto& [name, value] : answer["headers"].items()) {
        if (name == "content-type") contentType = value;
        else headers.emplace(name, value.get<std::string>());
    }
    std::string url = answer["url"];
    std::string feed = test::feedCsv({kHeader, productRow("A", f.images.url("/dress.jpg")),
                                      productRow("B", f.images.url("/coat.png"), f.images.url("/coat-small.jpg"))});
    auto put = f.server->client().Put(url.substr(url.find("/feeds/")), headers, feed, contentType.c_str());
    REQUIRE(put);
    REQUIRE(put->status == 200);
    for (int i = 0; i < 400 && f.images.totalRequests() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    f.settle();
    CHECK(f.images.requests("/dress.jpg") == 1);
    CHECK(f.images.requests("/coat.png") == 1);
    CHECK(f.images.requests("/coat-small.jpg") == 1);  // the feed's own thumbnail is fetched too (facts, reachability)
    for (const auto& agent : f.images.userAgents()) CHECK(agent == "svc-imagebot/1.0 (+http://info.example/imagebot)");

    auto dress = f.facts(f.images.url("/dress.jpg"));
    CHECK(dress.ok());
    CHECK(dress.thumbKey == ImageBot::thumbKeyOf(f.images.url("/dress.jpg")));
    CHECK(dress.width == 800);
    CHECK(dress.height == 600);
    CHECK(dress.httpStatus == 200);
    CHECK(dress.contentSha256.size() == 64);
    REQUIRE_FALSE(dress.colors.empty());
    bool red = false;
    for (const auto& c : dress.colors) red = red || (c.red > 150 && c.green < 80 && c.blue < 80);
    CHECK(red);
    CHECK(dress.phash != 0);

    auto response = f.thumbnail(dress.thumbKey);
    REQUIRE(response);
    REQUIRE(response->status == 200);
    CHECK(response->get_header_value("Content-Type") == "image/jpeg");
    CHECK(response->get_header_value("Cache-Control") == "public, max-age=31536000, immutable");
    std::string etag = response->get_header_value("ETag");
    CHECK(etag.size() == 34);
    auto decoded = ImageCodec::decode(response->body, 1'000'000);
    REQUIRE(decoded);
    CHECK(decoded->width == 320);  // longest side 320, aspect kept
    CHECK(decoded->height == 240);
    auto png = f.thumbnail(f.facts(f.images.url("/coat.png")).thumbKey);
    REQUIRE(png);
    CHECK(png->status == 200);
    CHECK(ImageCodec::probe(png->body)->height == 300);  // never enlarged

    auto revalidated = f.thumbnail(dress.thumbKey, "", {{"If-None-Match", etag}});
    REQUIRE(revalidated);
    CHECK(revalidated->status == 304);

    // Another tenant cannot read this tenant's thumbnail by its key; unknown and malformed keys are 404.
    auto other = TenantService(f.server->storage->tenants()).create("Other shop");
    REQUIRE(other);
    auto foreign = f.thumbnail(dress.thumbKey, other->tenant.apiId);
    REQUIRE(foreign);
    CHECK(foreign->status == 404);
    CHECK(foreign->get_header_value("Cache-Control").empty());
    for (const std::string key : {ImageBot::thumbKeyOf("https://elsewhere.example/x.jpg"), std::string("..%2F..%2Fsvc"), std::string(64, 'A')}) {
        auto missing = f.thumbnail(key);
        REQUIRE(missing);
        CHECK(missing->status == 404);
    }
    auto info = f.server->client().Get("/imagebot");
    REQUIRE(info);
    CHECK(info->status == 200);
    CHECK(info->body.find("svc-imagebot") != std::string::npos);
}

TEST_CASE("Image bot: an unchanged URL is never fetched again, not even after a restart; a changed URL makes a new thumbnail") {
    BotFixture f;
    f.images.put("/a.jpg", test::productJpeg(400, 400, 3));
    f.images.put("/a-v2.jpg", test::productJpeg(400, 400, 4));
    f.import(f.tenant, {productRow("A", f.images.url("/a.jpg"))});
    f.settle();
    CHECK(f.images.requests("/a.jpg") == 1);
    auto first = f.facts(f.images.url("/a.jpg"));

    f.import(f.tenant, {productRow("A", f.images.url("/a.jpg"))});  // the same feed again
    f.settle();
    CHECK(f.images.requests("/a.jpg") == 1);

    // A restart scans every tenant: still nothing to fetch.
    f.server.reset();
    f.server = std::make_unique<test::RunningServer>(f.dir.path(), nullptr, botOptions());
    f.settle();
    CHECK(f.images.requests("/a.jpg") == 1);

    f.import(f.tenant, {productRow("A", f.images.url("/a-v2.jpg"))});
    f.settle();
    CHECK(f.images.requests("/a-v2.jpg") == 1);
    auto second = f.facts(f.images.url("/a-v2.jpg"));
    CHECK(second.thumbKey != first.thumbKey);
    CHECK(second.contentSha256 != first.contentSha256);
    auto fresh = f.thumbnail(second.thumbKey);
    auto old = f.thumbnail(first.thumbKey);  // pages cached with the old URL keep working
    REQUIRE(fresh);
    REQUIRE(old);
    CHECK(fresh->status == 200);
    CHECK(old->status == 200);
    CHECK(fresh->body != old->body);
}

TEST_CASE("Image bot: a disabled tenant's images are not fetched until the operator enables it again") {
    BotFixture f;
    f.images.put("/a.jpg", test::productJpeg(400, 400, 3));
    REQUIRE(f.server->storage->tenants().setDisabled(f.tenant.id, true));
    f.import(f.tenant, {productRow("A", f.images.url("/a.jpg"))});
    f.settle();
    CHECK(f.images.requests("/a.jpg") == 0);

    REQUIRE(f.server->storage->tenants().setDisabled(f.tenant.id, false));
    f.bot().catalogChanged(f.tenant.id);
    f.settle();
    CHECK(f.images.requests("/a.jpg") == 1);
}

TEST_CASE("Image bot: waits as 429 and 503 Retry-After ask, retries, and never has more than 2 requests at one host") {
    BotFixture f;
    f.images.setDelay(std::chrono::milliseconds(60));
    std::vector<std::vector<std::string>> rows;
    for (int i = 0; i < 10; ++i) {
        std::string path = "/p" + std::to_string(i) + ".jpg";
        f.images.put(path, test::productJpeg(120, 160, 10 + i));
        rows.push_back(productRow("P" + std::to_string(i), f.images.url(path)));
    }
    f.images.throttle("/p0.jpg", 1, 429, "1");
    f.images.throttle("/p1.jpg", 1, 503, "");  // no Retry-After: backoff (100 ms)
    f.images.throttle("/p2.jpg", 5, 503, "1");  // more than 3 attempts: given up, recorded
    auto started = test::LoopbackImageServer::Clock::now();
    f.import(f.tenant, rows);
    f.settle();
    auto elapsed = test::LoopbackImageServer::Clock::now() - started;

    CHECK(f.images.maxInProgress == 2);  // the per-host limit, reached and never exceeded
    auto p0 = f.images.requestTimes("/p0.jpg");
    REQUIRE(p0.size() == 2);
    CHECK(p0[1] - p0[0] >= std::chrono::milliseconds(950));  // Retry-After: 1
    CHECK(f.facts(f.images.url("/p0.jpg")).ok());
    CHECK(f.facts(f.images.url("/p0.jpg")).attempts == 2);
    // The whole host waited: nothing reached it in the second after the 429 but answers under way.
    int during = 0;
    for (auto at : f.images.allRequestTimes()) during += at > p0[0] + std::chrono::milliseconds(100) && at < p0[0] + std::chrono::milliseconds(900);
    CHECK(during == 0);
    CHECK(f.images.requests("/p1.jpg") == 2);
    CHECK(f.facts(f.images.url("/p1.jpg")).ok());
    CHECK(f.images.requests("/p2.jpg") == 3);
    auto givenUp = f.facts(f.images.url("/p2.jpg"));
    CHECK_FALSE(givenUp.ok());
    CHECK(givenUp.httpStatus == 503);
    CHECK(givenUp.reason == "HTTP 503 after 3 attempts (Retry-After: 1)");
    for (int i = 3; i < 10; ++i) CHECK(f.images.requests("/p" + std::to_string(i) + ".jpg") == 1);
    CHECK(elapsed < std::chrono::seconds(8));
}

TEST_CASE("Image bot: refused addresses and bodies are recorded with a clear reason and not fetched again") {
    FetchLimits limits{2'000, 10'000, 100'000, 3};  // bodies up to 100 kB
    BotFixture f(botOptions(limits));
    std::string jpeg = test::productJpeg(300, 300, 7);
    f.images.put("/page.jpg", "<!doctype html><html><body>Image not found</body></html>", "text/html");
    f.images.put("/corrupt.jpg", jpeg.substr(0, jpeg.size() / 3));
    f.images.put("/header-only.jpg", jpeg.substr(0, 20));
    f.images.put("/huge.jpg", std::string(300'000, 'x'));
    f.images.put("/many-pixels.jpg", test::productJpeg(1200, 1000, 8, 30));  // 1.2 Mpx > the test's limit of 1 Mpx
    struct Case {
        std::string url;
        std::string reason;  // the start of the recorded reason
        bool reachesServer;
    };
    const std::vector<Case> cases{
        {f.images.url("/page.jpg"), "image: an HTML page (Content-Type text/html)", true},
        {f.images.url("/corrupt.jpg"), "image: corrupt jpeg", true},
        {f.images.url("/header-only.jpg"), "image: corrupt jpeg header", true},
        {f.images.url("/huge.jpg"), "too large: the announced size exceeds the limit of 100000 bytes", true},
        {f.images.url("/many-pixels.jpg"), "image: 1200 x 1000 pixels is more than the limit of 1000000", true},
        {f.images.url("/missing.jpg"), "not found: 127.0.0.1 answered 404", true},
        {f.images.url("/other.jpg", "127.0.0.2"), "SSRF: ", false},  // loopback, but only 127.0.0.1 is allowed
        {"http://10.1.2.3/x.jpg", "SSRF: ", false},
        {"ftp://127.0.0.1/x.jpg", "bad URL: 'ftp://127.0.0.1/x.jpg' is not an http or https URL", false},  // FTP is for feeds only
    };
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < cases.size(); ++i) rows.push_back(productRow("R" + std::to_string(i), cases[i].url));
    f.import(f.tenant, rows);
    f.settle();
    for (const auto& c : cases) {
        CAPTURE(c.url);
        auto facts = f.facts(c.url);
        CHECK_FALSE(facts.ok());
        INFO(facts.reason);
        CHECK(facts.reason.rfind(c.reason, 0) == 0);
        CHECK(facts.nextAttemptAt > facts.fetchedAt);
        auto thumbnail = f.thumbnail(facts.thumbKey);
        REQUIRE(thumbnail);
        CHECK(thumbnail->status == 404);
    }
    CHECK(f.facts(f.images.url("/other.jpg", "127.0.0.2")).reason.find("loopback") != std::string::npos);
    CHECK(f.facts("http://10.1.2.3/x.jpg").reason.find("private") != std::string::npos);
    int before = f.images.totalRequests();
    CHECK(before == 6);
    f.import(f.tenant, rows);  // a failed URL waits (6 hours) before it is tried again
    f.settle();
    CHECK(f.images.totalRequests() == before);
}

TEST_CASE("Image bot on the real fashion photos: 50 thumbnails served and decodable, near-duplicates found by the hash" *
          svc::test::needs(svc::test::SkipReason::DataOutsideTheRepository, std::filesystem::exists(test::fashionImagesDir()), "the fashion images of ../shared are absent")) {
    auto paths = test::fashionImages(50);
    if (paths.empty()) {
        SVC_SKIP(test::SkipReason::DataOutsideTheRepository, "the fashion images of ../shared are absent (" << test::fashionImagesDir() << ")");
    }
    BotFixture f;
    f.images.serveDirectory("/fashion", test::fashionImagesDir());
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> urls;
    for (const auto& path : paths) {
        std::string name = std::filesystem::path(path).filename().string();
        urls.push_back(f.images.url("/fashion/" + name));
        rows.push_back(productRow("F" + name.substr(0, name.find('.')), urls.back()));
    }
    // A near-duplicate: the first photo, smaller and re-encoded, under another URL.
    auto original = ImageCodec::decode(test::readBytes(paths[0]), 10'000'000);
    REQUIRE(original);
    f.images.put("/copy.jpg", ImageCodec::encodeJpeg(ImageCodec::resize(*original, original->width * 3 / 4, original->height * 3 / 4), 60));
    rows.push_back(productRow("COPY", f.images.url("/copy.jpg")));
    auto started = std::chrono::steady_clock::now();
    f.import(f.tenant, rows);
    f.settle();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    MESSAGE(rows.size() << " fashion images fetched, analysed and thumbnailed in " << seconds << " s (" << rows.size() / seconds << " per second)");

    std::vector<uint64_t> hashes;
    for (const auto& url : urls) {
        auto facts = f.facts(url);
        REQUIRE(facts.ok());
        hashes.push_back(facts.phash);
        auto thumbnail = f.thumbnail(facts.thumbKey);
        REQUIRE(thumbnail);
        REQUIRE(thumbnail->status == 200);
        auto decoded = ImageCodec::decode(thumbnail->body, 1'000'000);
        REQUIRE(decoded);
        CHECK(decoded->width == facts.width);  // these photos are smaller than 320 px: kept at their size
        CHECK_FALSE(facts.colors.empty());
    }
    auto copy = f.facts(f.images.url("/copy.jpg"));
    CHECK(PerceptualHash::distance(copy.phash, hashes[0]) <= PerceptualHash::kNearDuplicateDistance);
    int nearOthers = 0;
    for (size_t i = 1; i < hashes.size(); ++i) nearOthers += PerceptualHash::distance(copy.phash, hashes[i]) <= PerceptualHash::kNearDuplicateDistance;
    CHECK(nearOthers <= 1);
}

namespace {

// Four products by picture size, for the thumbnail tests: A a large anchor, B large (svc makes a
// thumbnail), C already thumbnail-sized, D large with the feed's own thumbnail.
void putPicturesBySize(BotFixture& f) {
    f.images.put("/a.jpg", test::productJpeg(600, 800, 20));
    f.images.put("/large.jpg", test::productJpeg(800, 600, 21));
    f.images.put("/small.jpg", test::productJpeg(150, 200, 22));
    f.images.put("/with-thumb.jpg", test::productJpeg(900, 900, 23));
    f.images.put("/feed-thumb.jpg", test::productJpeg(120, 120, 23));
}

void importPicturesBySize(BotFixture& f) {
    f.import(f.tenant, {productRow("A", f.images.url("/a.jpg")), productRow("B", f.images.url("/large.jpg")),
                        productRow("C", f.images.url("/small.jpg")),
                        productRow("D", f.images.url("/with-thumb.jpg"), f.images.url("/feed-thumb.jpg"))});
}

}  // namespace

TEST_CASE("Image bot: the content answer shows svc's thumbnail for large feed images once made, and keeps small ones and feed thumbnails") {
    BotFixture f;
    putPicturesBySize(f);
    auto similarImages = [&f] {
        auto response = f.server->client().Get("/" + f.tenant.apiId + "/content?w=SIMILAR&t=product&s=A-M&i=");
        REQUIRE(response);
        REQUIRE(response->status == 200);
        std::map<std::string, std::string> images;
        json body = json::parse(response->body);
        for (const auto& item : body["widgets"][0]["items"]) images[item["mainSku"].get<std::string>()] = item["image"].get<std::string>();
        return images;
    };
    f.images.throttle("/large.jpg", 1, 503, "1");  // made a second after the others
    importPicturesBySize(f);
    // Right after B's 503: its retry (and the whole host) waits a second.
    for (int i = 0; i < 500 && f.images.requests("/large.jpg") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto before = similarImages();  // B's thumbnail is not made yet: the feed's URL
    REQUIRE(before.count("B"));
    CHECK(before["B"] == f.images.url("/large.jpg"));
    f.settle();
    auto after = similarImages();
    REQUIRE(after.size() == 3);
    std::string base = "http://127.0.0.1:" + std::to_string(f.server->server->port()) + "/" + f.tenant.apiId + "/thumbs/";
    CHECK(after["B"] == base + ImageBot::thumbKeyOf(f.images.url("/large.jpg")) + ".jpg");
    CHECK(after["C"] == f.images.url("/small.jpg"));       // already thumbnail-sized
    CHECK(after["D"] == f.images.url("/feed-thumb.jpg"));  // the feed's own thumbnail
    auto served = f.server->client().Get(after["B"].substr(after["B"].find("/", 7)));
    REQUIRE(served);
    CHECK(served->status == 200);
}

TEST_CASE("Image bot: GraphQL's Image.thumbnailUrl is the picture the widgets show: svc's thumbnail of a large image, the feed's own") {
    BotFixture f;
    putPicturesBySize(f);
    importPicturesBySize(f);
    f.settle();
    std::string query = R"({"query":"{ product(id: \"A-M\") { similarProducts { edges { node { modelId images { edges { node { url thumbnailUrl } } } } } } } }"})";
    auto response = f.server->client().Post("/graphql", {{"x-api-id", f.tenant.apiId}}, query, "application/json");
    REQUIRE(response);
    CAPTURE(response->body);
    REQUIRE(response->status == 200);
    json body = json::parse(response->body);
    std::map<std::string, json> images;  // model -> its first image
    for (const auto& edge : body["data"]["product"]["similarProducts"]["edges"]) {
        images[edge["node"]["modelId"].get<std::string>()] = edge["node"]["images"]["edges"][0]["node"];
    }
    REQUIRE(images.size() == 3);
    std::string thumbs = "http://127.0.0.1:" + std::to_string(f.server->server->port()) + "/" + f.tenant.apiId + "/thumbs/";
    CHECK(images["Model B"]["url"] == f.images.url("/large.jpg"));
    CHECK(images["Model B"]["thumbnailUrl"] == thumbs + ImageBot::thumbKeyOf(f.images.url("/large.jpg")) + ".jpg");
    CHECK(images["Model C"]["thumbnailUrl"].is_null());  // already thumbnail-sized: the image itself
    CHECK(images["Model D"]["thumbnailUrl"] == f.images.url("/feed-thumb.jpg"));
}

TEST_CASE("Image bot: a SIMILAR list does not show the same picture twice under two URLs") {
    BotFixture f;
    auto dress = test::productImage(400, 500, 30);
    f.images.put("/a.jpg", test::productJpeg(400, 500, 31));
    f.images.put("/b.jpg", ImageCodec::encodeJpeg(dress, 85));
    // The same photo, smaller and re-encoded, as a second product's image (e.g. another size's listing).
    f.images.put("/b-copy.jpg", ImageCodec::encodeJpeg(ImageCodec::resize(dress, 300, 375), 60));
    f.images.put("/c.jpg", test::productJpeg(400, 500, 32));
    f.import(f.tenant, {productRow("A", f.images.url("/a.jpg")), productRow("B", f.images.url("/b.jpg")),
                        productRow("BB", f.images.url("/b-copy.jpg")), productRow("C", f.images.url("/c.jpg"))});
    f.settle();
    auto response = f.server->client().Get("/" + f.tenant.apiId + "/content?w=SIMILAR&t=product&s=A-M&i=");
    REQUIRE(response);
    REQUIRE(response->status == 200);
    json body = json::parse(response->body);
    std::vector<std::string> shown;
    for (const auto& item : body["widgets"][0]["items"]) shown.push_back(item["mainSku"].get<std::string>());
    CAPTURE(response->body);
    CHECK(shown.size() == 2);
    CHECK(std::count(shown.begin(), shown.end(), "C") == 1);
    CHECK(std::count(shown.begin(), shown.end(), "B") + std::count(shown.begin(), shown.end(), "BB") == 1);
    CHECK(PerceptualHash::distance(f.facts(f.images.url("/b.jpg")).phash, f.facts(f.images.url("/b-copy.jpg")).phash) <=
          PerceptualHash::kNearDuplicateDistance);
}

TEST_CASE("Image bot: thumbnail URLs in the content answer start with the public URL; a foreign Host never appears in them") {
    auto thumbnailOf = [](BotFixture& f, const std::string& host) {
        f.images.put("/a.jpg", test::productJpeg(600, 800, 30));
        f.images.put("/b.jpg", test::productJpeg(800, 600, 31));
        f.import(f.tenant, {productRow("A", f.images.url("/a.jpg")), productRow("B", f.images.url("/b.jpg"))});
        f.settle();
        auto response = f.server->client().Get("/" + f.tenant.apiId + "/content?w=SIMILAR&t=product&s=A-M&i=", {{"Host", host}});
        REQUIRE(response);
        REQUIRE(response->status == 200);
        json body = json::parse(response->body);
        REQUIRE(body["widgets"][0]["items"].size() == 1);
        return body["widgets"][0]["items"][0]["image"].get<std::string>();
    };
    {
        BotFixture f;
        std::string image = thumbnailOf(f, "evil.example");
        std::string listen = "http://127.0.0.1:" + std::to_string(f.server->server->port()) + "/" + f.tenant.apiId + "/thumbs/";
        CHECK(image == listen + ImageBot::thumbKeyOf(f.images.url("/b.jpg")) + ".jpg");
    }
    {
        ServerOptions options = botOptions();
        options.publicUrl = *PublicUrl::parse("https://svc.example.com");
        BotFixture f(options);
        std::string image = thumbnailOf(f, "evil.example");
        CHECK(image == "https://svc.example.com/" + f.tenant.apiId + "/thumbs/" + ImageBot::thumbKeyOf(f.images.url("/b.jpg")) + ".jpg");
    }
}

TEST_CASE("Image bot: two bots on one storage (two nodes) fetch each URL once and keep the per-host limit between them") {
    test::TempDir dir;
    test::LoopbackImageServer images;
    images.setDelay(std::chrono::milliseconds(40));
    auto storage = test::openStorage(dir.path());
    auto created = TenantService(storage->tenants()).create("Shop");
    REQUIRE(created);
    std::vector<std::vector<std::string>> rows{kHeader};
    constexpr int kImages = 16;
    for (int i = 0; i < kImages; ++i) {
        std::string path = "/n" + std::to_string(i) + ".jpg";
        images.put(path, test::productJpeg(120, 160, 10 + i));
        rows.push_back(productRow("N" + std::to_string(i), images.url(path)));
    }
    REQUIRE(test::importFeedFile(*storage, created->tenant, dir.path(), dir.file("feed.csv", test::feedCsv(rows))));

    std::vector<std::unique_ptr<ImageBot>> nodes;
    for (const char* node : {"node-a", "node-b"}) {
        ImageBotOptions options = *botOptions().imageBot;
        options.dataDir = dir.path() + "/" + node;
        options.leaseOwner = node;
        auto bot = ImageBot::open(options, storage->catalog(), storage->tenants(), storage->imageFacts(), storage->leases(), storage->clock());
        REQUIRE(bot);
        nodes.push_back(std::move(*bot));
    }
    for (auto& bot : nodes) bot->start();  // each scans every tenant: both queue every URL
    for (auto& bot : nodes) REQUIRE(bot->waitIdle(std::chrono::seconds(20)));

    for (int i = 0; i < kImages; ++i) {
        std::string path = "/n" + std::to_string(i) + ".jpg";
        CHECK_MESSAGE(images.requests(path) == 1, path);
        auto facts = storage->imageFacts().find(created->tenant.id, images.url(path));
        REQUIRE(facts);
        REQUIRE(facts->has_value());
        CHECK((*facts)->ok());
    }
    CHECK(images.maxInProgress <= 2);  // one bot's per-host limit, for both together
    CHECK(nodes[0]->stats().succeeded + nodes[1]->stats().succeeded == kImages);
}
