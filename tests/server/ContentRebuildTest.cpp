// Content rebuilds in the background (ContentIndex): queries keep answering from the
// previous snapshot while a new one is built, and switch to the new one whole.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "ServerFixture.hpp"
#include "sets/SetJson.hpp"

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
    server.services->contentIndex().catchUp();
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
    auto storage = svc::test::TestStorage::open(dir.path(), systemClock());
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

namespace {

// Imports a file as svc-server does and hands back what the import changed (the list the
// server gives its content index); `keep` false drops it, as another process's import is
// only known by its content generation.
CatalogChange importKeepingChange(Storage& storage, const Tenant& tenant, const std::string& dataDir, const std::string& path,
                                  FeedImportOptions options = {}) {
    auto keys = ServerKeys::loadOrCreate(dataDir);
    REQUIRE(keys);
    EncryptedFileBlobStore files(dataDir + "/uploads", keys->fileEncryptionKey());
    FeedImportService service(storage.catalog(), storage.imports(), files, storage.clock());
    CatalogChange kept;
    bool applied = false;
    service.setAppliedListener([&](int64_t, CatalogChange change) {
        kept = std::move(change);
        applied = true;
    });
    auto outcome = service.importFile(tenant, path, options, "test");
    REQUIRE(outcome);
    INFO(outcome->record.message);
    REQUIRE(outcome->record.status == ImportStatus::Applied);
    REQUIRE(applied);
    return kept;
}

}  // namespace

TEST_CASE("an import's change list names every row it stamped: reading by key gives what the scan of the stamps gives") {
    test::TempDir dir;
    test::ManualClock clock;
    auto storage = svc::test::TestStorage::open(dir.path(), clock);
    REQUIRE(storage);
    auto created = TenantService((*storage)->tenants()).create("Shop");
    REQUIRE(created);
    Tenant tenant = created->tenant;
    tenant.maxDeleteShare = 1.0;
    REQUIRE((*storage)->tenants().setMaxDeleteShare(tenant.id, 1.0));
    auto row = [](const std::string& sku, const std::string& mainSku, const std::string& stock, const std::string& category = "Women > Jeans") {
        return std::vector<std::string>{sku, mainSku, stock, "Item " + mainSku, "4000", "https://shop.example/" + mainSku,
                                        "https://shop.example/" + mainSku + ".jpg", category, "Brand", "Blue", "Women"};
    };
    CatalogStore& catalog = (*storage)->catalog();
    // SQLite keeps change lists in the process that imported (`known`); PostgreSQL stores every
    // import's list, so any process reads it by key without being told (docs/adr/0087).
    const bool listsStored = svc::test::TestStorage::onPostgres();
    KnownChanges known;
    int64_t since = 0;
    int step = 0;
    // Reads the changes after `since` both ways; the key read must see exactly what the scan sees.
    auto compare = [&](bool expectByKey) {
        std::vector<std::string> scanned, keyed;
        auto describe = [](const Product& p) {
            return p.mainSku + "/" + p.sku + " " + std::to_string(p.stock) + " " + p.primaryCategory() + (p.deleted ? " deleted" : "");
        };
        auto scan = catalog.forEachProductChangedSince(tenant.id, since, [&](Product&& p) { scanned.push_back(describe(p)); });
        REQUIRE(scan);
        auto byKey = catalog.forEachChangedProduct(tenant.id, since, known, [&](Product&& p) { keyed.push_back(describe(p)); });
        REQUIRE(byKey);
        CHECK(byKey->sequence == *scan);
        CHECK(byKey->byKey == expectByKey);
        std::sort(scanned.begin(), scanned.end());
        std::sort(keyed.begin(), keyed.end());
        CHECK(keyed == scanned);
        since = *scan;
        return scanned;
    };
    auto import = [&](std::vector<std::vector<std::string>> rows, bool delta, bool keep = true) {
        FeedImportOptions options;
        options.delta = delta;
        auto change = importKeepingChange(**storage, tenant, dir.path(), dir.file(std::to_string(++step) + ".csv", test::feedCsv(rows)), options);
        if (keep) known[change.sequence] = std::make_shared<const CatalogChange>(change);
        return change;
    };

    // An initial load is not listed (everything changed): the read falls back to the scan.
    auto first = import({kHeader, row("A-1", "A", "1"), row("A-2", "A", "1"), row("B-1", "B", "1"), row("B-2", "B", "1"),
                         row("C-1", "C", "1")}, false);
    CHECK_FALSE(first.complete);
    since = -1;
    CHECK(compare(false).size() == 5);

    // A stock delta without a main-sku column: the rows' main SKUs come from the catalog.
    import({{"sku", "stock"}, {"B-2", "0"}}, true);
    CHECK(compare(true) == std::vector<std::string>{"B/B-1 1 Women > Jeans", "B/B-2 0 Women > Jeans"});

    // A new category for one variant, a new variant of A and a new article.
    import({kHeader, row("A-1", "A", "1", "Women > Shoes > Sneakers"), row("A-3", "A", "2"), row("E-1", "E", "4")}, true);
    CHECK(compare(true).size() == 4);

    // A full feed without C: C is stamped as deleted, nothing else changed.
    import({kHeader, row("A-1", "A", "1", "Women > Shoes > Sneakers"), row("A-2", "A", "1"), row("A-3", "A", "2"), row("B-1", "B", "1"),
            row("B-2", "B", "0"), row("E-1", "E", "4")}, false);
    CHECK(compare(true) == std::vector<std::string>{"C/C-1 1 Women > Jeans deleted"});

    // Two hours on, a feed listing an unchanged row refreshes its "last seen" (availability
    // follows it): that row is stamped, so its article is read.
    clock.advance(2 * 3600);
    import({kHeader, row("E-1", "E", "4")}, true);
    CHECK(compare(true) == std::vector<std::string>{"E/E-1 4 Women > Jeans"});

    // An import this process was not told of (the CLI's): the known list cannot account for
    // it, so the read scans, even with a known import after it; unless the lists are stored.
    import({{"sku", "stock"}, {"A-2", "7"}}, true, /*keep=*/false);
    import({{"sku", "stock"}, {"B-1", "0"}}, true);
    auto both = compare(listsStored);
    CHECK(std::count(both.begin(), both.end(), "A/A-2 7 Women > Jeans") == 1);
    CHECK(std::count(both.begin(), both.end(), "B/B-1 0 Women > Jeans") == 1);

    // Nothing since: nothing read, and no scan either.
    CHECK(compare(true).empty());
}

namespace {

// What a snapshot says about each article, by main SKU, in terms that do not depend on
// article indices (a full build numbers articles anew): availability, kind, the articles
// of its SIMILAR list (kinds here are smaller than a list, so a list holds every
// compatible article of the kind) and the set pools it is in.
struct ArticleView {
    bool available = false;
    std::string kind;
    std::set<std::string> similar;
    std::set<std::string> pools;
    bool operator==(const ArticleView&) const = default;
};

std::map<std::string, ArticleView> viewOf(const ContentSnapshot& snapshot) {
    std::map<std::string, ArticleView> views;
    for (uint32_t i = 0; i < snapshot.size(); ++i) {
        const ArticleEntry& entry = snapshot.entry(i);
        if (!entry.live) continue;
        ArticleView& view = views[entry.article->mainSku];
        view.available = snapshot.available(i);
        view.kind = snapshot.space().text(entry.profile.kind);
        for (const Neighbour& neighbour : snapshot.similarList(i)) view.similar.insert(snapshot.entry(neighbour.article).article->mainSku);
    }
    for (const auto& pool : snapshot.slotPools()) {
        for (size_t department = 0; department < pool.byDepartment.size(); ++department) {
            for (uint32_t article : pool.byDepartment[department]) {
                views[snapshot.entry(article).article->mainSku].pools.insert(std::to_string(pool.templateIndex) + "/" +
                                                                               std::to_string(pool.slotIndex) + "/" + std::to_string(department));
            }
        }
    }
    return views;
}

const std::vector<std::string> kShopHeader = {"sku", "main-sku", "stock", "name", "retail-price", "deeplink", "image", "category-path",
                                              "marke", "farbe", "abteilung"};

// Ten articles each of jeans, shirts and sneakers, three sizes each.
std::vector<std::vector<std::string>> shopRows() {
    const std::pair<const char*, const char*> kinds[] = {
        {"J", "Women > Bottomwear > Jeans"}, {"S", "Women > Topwear > Shirts"}, {"N", "Women > Footwear > Sneakers"}};
    const char* colours[] = {"Blue", "Black", "White", "Red", "Green"};
    std::vector<std::vector<std::string>> rows{kShopHeader};
    for (const auto& [prefix, path] : kinds) {
        for (int i = 0; i < 10; ++i) {
            std::string id = std::string(prefix) + std::to_string(i);
            for (const char* size : {"S", "M", "L"}) {
                rows.push_back({id + "-" + size, id, "3", std::string(prefix) + " item " + std::to_string(i % 4), std::to_string(3000 + i * 700),
                                "https://shop.example/" + id, "https://shop.example/" + id + ".jpg", path, "Brand", colours[i % 5], "Women"});
            }
        }
    }
    return rows;
}

}  // namespace

TEST_CASE("after a delta pushed to the server, the rebuild reads just the changed articles and shows what a full rebuild shows") {
    test::TempDir dir;
    ServerOptions options;
    // Other processes' imports are noticed when the test asks (catchUp), not by the poller,
    // so each step below decides which imports one rebuild sees.
    options.content.pollMilliseconds = 3600 * 1000;
    test::RunningServer server(dir.path(), nullptr, options);
    auto created = TenantService(server.storage->tenants()).create("Shop");
    REQUIRE(created);
    Tenant tenant = created->tenant;
    {
        std::ifstream in(std::string(SVC_ASSETS_DIR) + "/content-pool/fashion.json", std::ios::binary);
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        auto file = setFileFromJson(text.str());
        REQUIRE(file);
        REQUIRE(server.storage->content().importFile(std::nullopt, *file));
    }
    REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("shop.csv", test::feedCsv(shopRows()))));
    ContentIndex& index = server.services->contentIndex();
    auto initial = index.snapshot(tenant.id);
    REQUIRE(initial);
    REQUIRE_FALSE((*initial)->slotPools().empty());
    initial->reset();

    // A push through the HTTP endpoints, on a client of its own (the fixture's client() would
    // catch up first); returns when the import is applied and the content rebuilt.
    httplib::Client http("127.0.0.1", server.server->port());
    httplib::Headers credentials{{"x-api-id", tenant.apiId}, {"x-api-secret", created->apiSecret}};
    auto push = [&](const std::vector<std::vector<std::string>>& rows) {
        std::string request = json{{"identifier", "sku"}, {"format", {{"type", "csv"}, {"options", {{"delimiter", ";"}}}}}, {"delta", true}}.dump();
        auto upload = http.Post("/feeds/uploads", credentials, request, "application/json");
        REQUIRE(upload);
        REQUIRE(upload->status == 200);
        auto answer = json::parse(upload->body);
        std::string url = answer["url"];
        httplib::Headers headers;
        std::string contentType;
        for (const auto& [name, value] : answer["headers"].items()) {
            if (name == "content-type") contentType = value.get<std::string>();
            else headers.emplace(name, value.get<std::string>());
        }
        auto put = http.Put(url.substr(url.find("/feeds/")), headers, test::feedCsv(rows), contentType.c_str());
        REQUIRE(put);
        INFO(put->body);
        REQUIRE(put->status == 200);
        std::string importPath = "/feeds/imports/" + std::to_string(json::parse(put->body)["importId"].get<int64_t>());
        for (int attempt = 0;; ++attempt) {
            REQUIRE(attempt < 400);
            auto record = http.Get(importPath, credentials);
            REQUIRE(record);
            std::string status = json::parse(record->body)["status"];
            if (status == "applied") break;
            REQUIRE((status == "queued" || status == "running"));
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        index.waitIdle();
    };
    // The incremental snapshot against a full rebuild of the same catalog (which then
    // becomes the current one).
    auto compareWithFull = [&](const ContentSnapshot& incremental) {
        auto incrementalView = viewOf(incremental);
        REQUIRE(index.rebuild(tenant.id, true));
        auto full = index.snapshot(tenant.id);
        REQUIRE(full);
        auto fullView = viewOf(**full);
        CHECK(incrementalView.size() == fullView.size());
        for (const auto& [mainSku, view] : fullView) {
            INFO(mainSku);
            CHECK(incrementalView[mainSku] == view);
        }
        return incrementalView;
    };

    // The delta: J3 becomes a sneaker, S5 sells out, one size of N2 gets more stock.
    push({{"sku", "stock", "category-path"},
          {"J3-S", "3", "Women > Footwear > Sneakers"},
          {"J3-M", "3", "Women > Footwear > Sneakers"},
          {"J3-L", "3", "Women > Footwear > Sneakers"},
          {"S5-S", "0", "Women > Topwear > Shirts"},
          {"S5-M", "0", "Women > Topwear > Shirts"},
          {"S5-L", "0", "Women > Topwear > Shirts"},
          {"N2-M", "9", "Women > Footwear > Sneakers"}});
    CHECK(index.lastCatalogRead(tenant.id) == ContentIndex::CatalogRead::ChangedByKey);
    auto afterPush = index.snapshot(tenant.id);
    REQUIRE(afterPush);
    CHECK_FALSE((*afterPush)->buildInfo().full);
    auto view = compareWithFull(**afterPush);
    CHECK(view["J3"].kind == view["N0"].kind);
    CHECK(view["N0"].similar.count("J3") == 1);
    CHECK(view["J0"].similar.count("J3") == 0);
    CHECK_FALSE(view["S5"].available);
    CHECK(view["N2"].available);
    afterPush->reset();

    // An import by another process (the CLI): the server learns of it only through the
    // content generation, and finds what changed by scanning the change stamps, or on
    // PostgreSQL by the import's stored change list (docs/adr/0087).
    const auto otherProcessRead = svc::test::TestStorage::onPostgres() ? ContentIndex::CatalogRead::ChangedByKey
                                                                        : ContentIndex::CatalogRead::ChangedByScan;
    FeedImportOptions delta;
    delta.delta = true;
    REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("cli.csv", test::feedCsv({{"sku", "category-path"},
                                 {"N2-S", "Women > Bottomwear > Jeans"}, {"N2-M", "Women > Bottomwear > Jeans"},
                                 {"N2-L", "Women > Bottomwear > Jeans"}})), delta));
    index.catchUp();
    CHECK(index.lastCatalogRead(tenant.id) == otherProcessRead);
    auto afterCli = index.snapshot(tenant.id);
    REQUIRE(afterCli);
    view = compareWithFull(**afterCli);
    CHECK(view["N2"].kind == view["J0"].kind);
    afterCli->reset();

    // Another process's import, then a push before the server noticed the first: the push's
    // change list cannot account for the CLI import, so that rebuild scans (or on PostgreSQL
    // reads both stored lists) and shows both.
    REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("cli2.csv", test::feedCsv({{"sku", "stock"},
                                 {"J7-S", "0"}, {"J7-M", "0"}, {"J7-L", "0"}})), delta));
    push({{"sku", "stock"}, {"S5-S", "4"}});
    CHECK(index.lastCatalogRead(tenant.id) == otherProcessRead);
    auto afterBoth = index.snapshot(tenant.id);
    REQUIRE(afterBoth);
    view = compareWithFull(**afterBoth);
    CHECK_FALSE(view["J7"].available);
    CHECK(view["S5"].available);
}
