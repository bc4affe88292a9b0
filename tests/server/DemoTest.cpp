#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ServerFixture.hpp"
#include "app/DemoSetup.hpp"
#include "demo/DemoCatalogGenerator.hpp"

using namespace svc;

namespace {
std::string readAll(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}
}  // namespace

TEST_CASE("the demo catalog is deterministic, a few thousand variants, and imports without a rejected row") {
    test::TempDir one;
    test::TempDir two;
    auto first = DemoCatalogGenerator().generate(one.path());
    auto second = DemoCatalogGenerator().generate(two.path());
    REQUIRE(first);
    REQUIRE(second);
    CHECK(readAll(first->feedPath) == readAll(second->feedPath));
    CHECK(first->variants >= 2000);
    CHECK(first->variants <= 10000);
    CHECK(first->articles * 3 <= first->variants);  // several sizes per article
    auto otherSeed = DemoCatalogGenerator(7).generate(one.path() + "/other");
    REQUIRE(otherSeed);
    CHECK(readAll(otherSeed->feedPath) != readAll(first->feedPath));
    // Every article has its image file.
    auto shop = nlohmann::json::parse(readAll(one.path() + "/shop.json"));
    REQUIRE(shop["products"].size() == static_cast<size_t>(first->articles));
    for (const auto& product : shop["products"]) {
        std::string image = product["image"];  // /demo/images/<file>
        CHECK(std::filesystem::exists(one.path() + "/images/" + image.substr(std::string("/demo/images/").size())));
    }
}

TEST_CASE("demo setup is idempotent and the server serves the demo shop for the demo tenant") {
    test::TempDir dir;
    std::string apiId;
    {
        auto storage = svc::test::TestStorage::open(dir.path(), systemClock());
        REQUIRE(storage);
        auto keys = ServerKeys::loadOrCreate(dir.path());
        REQUIRE(keys);
        EncryptedFileBlobStore files(dir.path() + "/uploads", keys->fileEncryptionKey());
        FeedImportService imports((*storage)->catalog(), (*storage)->imports(), files, (*storage)->clock());
        auto first = setupDemo(**storage, imports, dir.path(), std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json");
        REQUIRE(first);
        CHECK(first->report.rejected == 0);
        CHECK(first->report.counts.inserted == first->report.rowsRead);
        // The demo tenant earns 5 % so its Performance page shows commission; a rate the
        // operator sets later survives the next `make demo`.
        auto created = (*storage)->tenants().findByApiId(first->apiId);
        REQUIRE(created);
        REQUIRE(*created);
        CHECK((*created)->commissionRates == "500");
        REQUIRE((*storage)->tenants().setCommission((*created)->id, (*created)->attributionWindowDays, "750"));
        auto again = setupDemo(**storage, imports, dir.path(), std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json");
        REQUIRE(again);
        CHECK(again->apiId == first->apiId);
        CHECK(again->report.counts.unchanged == first->report.rowsRead);
        auto tenants = (*storage)->tenants().list();
        REQUIRE(tenants);
        CHECK(tenants->size() == 1);
        CHECK(tenants->front().commissionRates == "750");
        apiId = first->apiId;
    }
    // The data dir keeps the API ID only, never a secret.
    auto tenantFile = nlohmann::json::parse(readAll(dir.path() + "/demo/tenant.json"));
    CHECK(tenantFile["apiId"] == apiId);
    CHECK_FALSE(tenantFile.contains("apiSecret"));

    test::RunningServer server(dir.path());
    auto client = server.client();
    auto page = client.Get("/demo/product.html");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("\"" + apiId + "\"") != std::string::npos);
    CHECK(page->body.find("__SVC_API_ID__") == std::string::npos);
    auto image = client.Get("/demo/images/M10001-BLACK.svg");
    REQUIRE(image);
    CHECK(image->status == 200);
    CHECK(image->get_header_value("Content-Type") == "image/svg+xml");
    CHECK(client.Get("/demo/")->status == 200);
    CHECK(client.Get("/demo/tenant.json")->status == 404);
}
