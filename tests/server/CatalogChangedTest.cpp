// The one "catalog changed" event (docs/adr/0079): every subscriber gets the change, in the
// order it subscribed, before other processes are told through the content generation.
#include <doctest/doctest.h>

#include "ServerFixture.hpp"
#include "feed/CatalogChanged.hpp"

using namespace svc;
using namespace svc::test;

namespace {

int64_t generationOf(Storage& storage, int64_t tenantId) {
    auto generations = storage.content().generations();
    REQUIRE(generations);
    auto found = generations->find(tenantId);
    return found == generations->end() ? 0 : found->second;
}

}  // namespace

TEST_CASE("a published change reaches every subscriber in order, then bumps the tenant's content generation") {
    TempDir dir;
    auto storage = std::move(TestStorage::open(dir.path(), systemClock()).value());
    auto tenant = TenantService(storage->tenants()).create("Shop");
    REQUIRE(tenant);
    int64_t id = tenant->tenant.id;
    int64_t before = generationOf(*storage, id);

    CatalogChanged changed(storage->content());
    std::vector<std::string> calls;
    changed.subscribe([&](int64_t tenantId, const CatalogChange& change) {
        // Other processes have not been told yet: a rebuild they start must find this change.
        CHECK(generationOf(*storage, tenantId) == before);
        calls.push_back("index " + change.skus.at(0));
    });
    changed.subscribe([&](int64_t, const CatalogChange&) { calls.push_back("image bot"); });
    changed.publish(id, CatalogChange{7, false, {"SKU-1"}});

    CHECK(calls == std::vector<std::string>{"index SKU-1", "image bot"});
    CHECK(generationOf(*storage, id) == before + 1);
}

TEST_CASE("an import applied by a process's import service is published once to the services' event") {
    TempDir dir;
    RunningServer server(dir.path());
    auto tenant = TenantService(server.storage->tenants()).create("Shop");
    REQUIRE(tenant);
    std::vector<int64_t> seen;
    // The server's own subscribers (content index, image bot) come first; this one is added later, as a test may.
    server.services->catalogChanged().subscribe([&](int64_t tenantId, const CatalogChange&) { seen.push_back(tenantId); });
    const std::vector<std::string> header = {"sku", "main-sku", "model", "stock", "variant", "name", "retail-price",
                                             "discount-price", "deeplink", "image", "category-path", "marke", "farbe"};
    auto row = [](const std::string& sku) {
        return std::vector<std::string>{sku, sku, "M1", "3", "M", "Jeans " + sku, "4999", "4999", "https://shop.example/p/" + sku,
                                        "https://shop.example/i/" + sku + ".jpg", "Women > Jeans", "Brand", "Blue"};
    };
    std::string feed = dir.file("feed.csv", feedCsv({header, row("A"), row("B")}));
    auto outcome = server.services->imports().importFile(tenant->tenant, feed, {}, "test");
    REQUIRE(outcome);
    CHECK(outcome->record.status == ImportStatus::Applied);
    CHECK(seen == std::vector<int64_t>{tenant->tenant.id});
    CHECK(generationOf(*server.storage, tenant->tenant.id) >= 1);
}
