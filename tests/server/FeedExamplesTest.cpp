// What docs/integration.md and the README tell a shop to do, done against a real server
// (issue 20, point 4): the example feed a shop can copy imports whole, every column read,
// and the push script uses the import id the PUT returned (for any tenant, not just the first).
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "support/Skip.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::string kExamples = std::string(SVC_SOURCE_DIR) + "/docs/examples";

std::string readFile(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    REQUIRE_MESSAGE(file, path);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

struct Shop {
    Tenant tenant;
    std::string secret;
};

Shop createShop(test::RunningServer& server, const std::string& name) {
    auto created = TenantService(server.storage->tenants()).create(name);
    REQUIRE(created);
    return {created->tenant, created->apiSecret};
}

bool hasTool(const std::string& tool) { return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0; }

// Runs the example script as a shop would; returns its exit code and output.
std::pair<int, std::string> runPushScript(const test::RunningServer& server, const Shop& shop, const std::string& feedPath) {
    std::string command = "SVC_URL=http://127.0.0.1:" + std::to_string(server.server->port()) + " API_ID=" + shop.tenant.apiId +
                          " API_SECRET=" + shop.secret + " bash " + kExamples + "/push-feed.sh " + feedPath + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::string output;
    std::array<char, 4096> buffer{};
    while (size_t got = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), got);
    int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace

TEST_CASE("docs/examples/feed-full.csv imports whole: every row, every column read, no warning") {
    test::TempDir dir;
    test::RunningServer server(dir.path());
    Shop shop = createShop(server, "Example shop");
    auto report = test::importFeedFile(*server.storage, shop.tenant, dir.path(), kExamples + "/feed-full.csv");
    REQUIRE(report);
    CHECK(report->rowsRead == 4);
    CHECK(report->rejected == 0);
    CHECK(report->counts.inserted == 4);
    CHECK(report->warnings.empty());
    CHECK(report->describesProducts == std::optional<bool>(true));

    auto variants = server.storage->catalog().articleVariants(shop.tenant.id, "PUMP-100-BLK");
    REQUIRE(variants);
    REQUIRE(variants->size() == 2);
    const Product& pump = variants->front();
    CHECK(pump.sku == "PUMP-100-BLK-37");
    CHECK(pump.model == "PUMP-100");
    CHECK(pump.stock == 3);
    CHECK(pump.variant == "37");
    CHECK(pump.name == "Pump \"Lina\" in black suede");
    CHECK(pump.retailPrice == 8995);
    CHECK(pump.discountPrice == 6995);
    CHECK(pump.lowestPrice30d == 7495);
    CHECK(pump.deeplink == "https://shop.example/pump-lina-black?size=37");
    CHECK(pump.image == "https://shop.example/images/pump-lina-black.jpg");
    CHECK(pump.thumbnail == "https://shop.example/images/pump-lina-black-300.jpg");
    CHECK(pump.categoryPaths == std::vector<std::string>{"Women > Shoes > Pumps", "Sale > Shoes"});
    CHECK(pump.brand == "Lina & Co");
    CHECK(pump.color == "black");
    CHECK(pump.description == "<p>Classic pump in <strong>suede</strong>, 8 cm heel.</p>");
    // Content-pool and free columns are kept as properties, by their lower-case names.
    CHECK(pump.properties.size() == 17);
    CHECK(pump.properties.at("absatzhöhe") == "8 cm");
    CHECK(pump.properties.at("tags") == "evening, classic");
    CHECK(pump.properties.at("pflegehinweis") == "brush only");
    CHECK(pump.properties.at("ean") == "4006381333931");
    // An empty value is no property and no price.
    auto red = server.storage->catalog().articleVariants(shop.tenant.id, "PUMP-100-RED-37");
    REQUIRE(red);
    REQUIRE(red->size() == 1);
    CHECK_FALSE(red->front().discountPrice);
    CHECK(red->front().sellingPrice() == 8995);
    CHECK(red->front().properties.count("kategorie3") == 0);
}

TEST_CASE("the README's push script uses the import id its PUT returned, also for a second tenant" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, hasTool("bash") && hasTool("curl") && hasTool("jq"), "push example: bash, curl or jq is missing")) {
    if (!hasTool("bash") || !hasTool("curl") || !hasTool("jq")) {
        SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "push example: bash, curl or jq is missing");
        return;
    }
    test::TempDir dir;
    test::RunningServer server(dir.path());
    Shop first = createShop(server, "First shop");
    Shop second = createShop(server, "Second shop");
    // The first shop's import takes the first id of this svc.
    REQUIRE(test::importFeedFile(*server.storage, first.tenant, dir.path(), kExamples + "/feed-full.csv"));

    auto [exitCode, output] = runPushScript(server, second, kExamples + "/feed-full.csv");
    INFO(output);
    REQUIRE(exitCode == 0);
    json record = json::parse(output);
    CHECK(record["status"] == "applied");
    CHECK(record["id"] != 1);
    CHECK(record["inserted"] == 4);

    // The README shows that script's steps, never a fixed import id.
    std::string readme = readFile(std::string(SVC_SOURCE_DIR) + "/README.md");
    CHECK(readme.find("docs/examples/push-feed.sh") != std::string::npos);
    CHECK(readme.find("/feeds/imports/1 ") == std::string::npos);
    CHECK(readme.find("/feeds/imports/1\n") == std::string::npos);
}
