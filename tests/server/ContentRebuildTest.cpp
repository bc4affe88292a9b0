// Content rebuilds in the background (ContentIndex): queries keep answering from the
// previous snapshot while a new one is built, and switch to the new one whole.
#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                          "marke", "farbe", "abteilung"};

// `n` jeans; `variant` changes every name and colour, so every profile and list is recomputed.
std::string catalog(int n, int variant) {
    std::vector<std::vector<std::string>> rows{kHeader};
    const char* colours[] = {"Blue", "Black", "White", "Red", "Green", "Grey"};
    const char* words[] = {"slim", "wide", "flared", "straight", "cropped", "relaxed", "skinny", "bootcut"};
    for (int i = 0; i < n; ++i) {
        std::string id = "J" + std::to_string(i);
        std::string name = std::string(words[(i * 7 + variant * 3) % 8]) + " " + words[(i + variant) % 8] + " jeans " + std::to_string(i % 50);
        rows.push_back({id + "-M", id, "3", name, std::to_string(3000 + (i * 37 + variant * 11) % 5000), "https://shop.example/" + id,
                        "https://shop.example/" + id + ".jpg", "Women > Bottomwear > Jeans", "Brand", colours[(i + variant) % 6], "Women"});
    }
    return test::feedCsv(rows);
}

std::vector<std::string> similarIds(const json& body) {
    std::vector<std::string> ids;
    for (const auto& edge : body["data"]["product"]["similarProducts"]["edges"]) ids.push_back(edge["node"]["id"]);
    return ids;
}

}  // namespace

TEST_CASE("a rebuild never shows a gap or a half state: every answer is the old list or the new one") {
    test::TempDir dir;
    test::RunningServer server(dir.path());
    auto created = TenantService(server.storage->tenants()).create("Shop");
    REQUIRE(created);
    Tenant tenant = created->tenant;
    REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("a.csv", catalog(4000, 0))));
    const std::string query = json{{"query", R"({ product(id: "J7") { id similarProducts(first: 12) { edges { node { id } } } } })"}}.dump();
    auto ask = [&](httplib::Client& client) {
        auto response = client.Post("/graphql", {{"x-api-id", tenant.apiId}}, query, "application/json");
        REQUIRE(response);
        REQUIRE(response->status == 200);
        return json::parse(response->body);
    };
    auto client = server.client();  // catches up: the first snapshot is built
    auto before = similarIds(ask(client));
    REQUIRE(before.size() == 12);

    // Import the changed catalog in this thread while another keeps asking. The import bumps
    // the tenant's content generation (as a CLI import in another process does); catchUp()
    // lets the index notice it and rebuild in its own thread.
    std::atomic<bool> done{false};
    std::vector<std::vector<std::string>> seen;
    size_t nullAnswers = 0;
    std::thread asker([&] {
        httplib::Client http("127.0.0.1", server.server->port());
        while (!done) {
            auto response = http.Post("/graphql", {{"x-api-id", tenant.apiId}}, query, "application/json");
            if (!response || response->status != 200) continue;
            auto body = json::parse(response->body);
            if (body["data"]["product"].is_null()) ++nullAnswers;
            else seen.push_back(similarIds(body));
        }
    });
    auto imported = test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("b.csv", catalog(4000, 1)));
    REQUIRE(imported);
    server.server->contentIndex().catchUp();
    auto after = similarIds(ask(client));
    done = true;
    asker.join();

    CHECK(after.size() == 12);
    CHECK(after != before);  // the change is visible once the rebuild is complete
    CHECK(nullAnswers == 0);
    size_t old = 0, fresh = 0;
    for (const auto& answer : seen) {
        bool isOld = answer == before, isNew = answer == after;
        CHECK_MESSAGE((isOld || isNew), "an answer that is neither the old nor the new list");
        old += isOld;
        fresh += isNew;
    }
    MESSAGE("answers during the rebuild: " << old << " from the previous snapshot, " << fresh << " from the new one");
    CHECK(old + fresh == seen.size());
    CHECK(old > 0);
}

TEST_CASE("the catalog gives the content engine only what imports changed since its last read") {
    test::TempDir dir;
    auto storage = SqliteStorage::open(dir.path());
    REQUIRE(storage);
    auto created = TenantService((*storage)->tenants()).create("Shop");
    REQUIRE(created);
    Tenant tenant = created->tenant;
    REQUIRE((*storage)->tenants().setMaxDeleteShare(tenant.id, 1.0));
    auto row = [](const std::string& sku, const std::string& mainSku, const std::string& stock) {
        return std::vector<std::string>{sku, mainSku, stock, "Item " + mainSku, "4000", "https://shop.example/" + mainSku,
                                        "https://shop.example/" + mainSku + ".jpg", "Women > Jeans", "Brand", "Blue", "Women"};
    };
    auto read = [&](int64_t since, int64_t& sequence) {
        std::vector<std::string> seen;
        auto result = (*storage)->catalog().forEachProductChangedSince(tenant.id, since, [&](Product&& product) {
            seen.push_back(product.sku + (product.deleted ? " deleted" : ""));
        });
        REQUIRE(result);
        sequence = *result;
        return seen;
    };
    REQUIRE(test::importFeedFile(**storage, tenant, dir.path(), dir.file("1.csv", test::feedCsv({kHeader, row("A-1", "A", "1"), row("A-2", "A", "1"),
                                 row("B-1", "B", "1"), row("B-2", "B", "1"), row("C-1", "C", "1")}))));
    int64_t first = 0;
    CHECK(read(-1, first).size() == 5);
    CHECK(first == 1);

    // A delta changing one variant of B: both of B's variants, nothing else.
    tenant.maxDeleteShare = 1.0;
    FeedImportOptions delta;
    delta.delta = true;
    REQUIRE(test::importFeedFile(**storage, tenant, dir.path(), dir.file("2.csv", test::feedCsv({{"sku", "stock"}, {"B-2", "0"}})), delta));
    int64_t second = 0;
    CHECK(read(first, second) == std::vector<std::string>{"B-1", "B-2"});
    CHECK(second == 2);
    int64_t unchanged = 0;
    CHECK(read(second, unchanged).empty());

    // A full feed without C: C comes back deleted, so the engine drops it.
    REQUIRE(test::importFeedFile(**storage, tenant, dir.path(), dir.file("3.csv", test::feedCsv({kHeader, row("A-1", "A", "1"), row("A-2", "A", "1"),
                                 row("B-1", "B", "1"), row("B-2", "B", "0")}))));
    int64_t third = 0;
    CHECK(read(second, third) == std::vector<std::string>{"C-1 deleted"});
}
