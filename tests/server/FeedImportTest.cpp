#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "DataDirSql.hpp"
#include "ServerFixture.hpp"
#include "recommend/RecommendationService.hpp"
#include "store/SqliteCatalogStore.hpp"
#include "store/SqliteDatabase.hpp"

using namespace svc;

namespace {

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "variant", "name", "retail-price",
                                          "discount-price", "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> row(const std::string& sku, const std::string& mainSku, const std::string& stock,
                             const std::string& name, const std::string& price = "4999") {
    return {sku, mainSku, "M1", stock, "M", name, price, price, "https://shop.example/p/" + sku,
            "https://shop.example/i/" + mainSku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

struct Catalog {
    test::TempDir dir;
    std::unique_ptr<Storage> storage;
    Tenant tenant;
    Catalog() {
        auto opened = svc::test::TestStorage::open(dir.path(), systemClock());
        REQUIRE(opened);
        storage = std::move(*opened);
        auto created = TenantService(storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
    }
    Result<FeedImportReport> import(const std::string& csv, bool delta = false, const std::string& identifier = "sku",
                                    const std::string& feed = "default") {
        FeedImportOptions options;
        options.delta = delta;
        options.identifier = identifier;
        options.feed = feed;
        return test::importFeedFile(*storage, tenant, dir.path(), dir.file("feed.csv", csv), options);
    }
    std::vector<Product> variants(const std::string& id) {
        auto found = storage->catalog().articleVariants(tenant.id, id);
        REQUIRE(found);
        return *found;
    }
};

}  // namespace

TEST_CASE("a full feed inserts, a repeated feed changes nothing, a changed row is an update") {
    Catalog catalog;
    std::string feed = test::feedCsv({kHeader, row("A-S", "A", "3", "Jeans A"), row("A-M", "A", "0", "Jeans A"),
                                      row("B-S", "B", "5", "Jeans B")});
    auto first = catalog.import(feed);
    REQUIRE(first);
    CHECK(first->rowsRead == 3);
    CHECK(first->counts.inserted == 3);
    CHECK(first->counts.updated == 0);

    auto again = catalog.import(feed);
    REQUIRE(again);
    CHECK(again->counts.inserted == 0);
    CHECK(again->counts.unchanged == 3);

    auto changed = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "Jeans A"), row("A-M", "A", "7", "Jeans A"),
                                                 row("B-S", "B", "5", "Jeans B")}));
    REQUIRE(changed);
    CHECK(changed->counts.updated == 1);
    CHECK(changed->counts.unchanged == 2);
    auto a = catalog.variants("A-M");
    REQUIRE(a.size() == 2);
    CHECK(a[1].sku == "A-S");
    CHECK(a[0].stock == 7);
}

TEST_CASE("full feeds mark missing products deleted; delta feeds leave them alone") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "5", "B")})));

    auto delta = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "9", "A")}), /*delta=*/true);
    REQUIRE(delta);
    CHECK(delta->counts.markedDeleted == 0);
    CHECK_FALSE(catalog.variants("B-S").front().deleted);
    CHECK(catalog.variants("A-S").front().stock == 9);

    auto full = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "9", "A")}));
    REQUIRE(full);
    CHECK(full->counts.markedDeleted == 1);
    CHECK(catalog.variants("B-S").front().deleted);

    // A deleted product that comes back is live again.
    auto back = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "9", "A"), row("B-S", "B", "5", "B")}));
    REQUIRE(back);
    CHECK(back->counts.updated == 1);
    CHECK_FALSE(catalog.variants("B-S").front().deleted);
}

TEST_CASE("a stock-and-price feed updates only its columns") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "Jeans A", "4999")})));
    auto partial = catalog.import(test::feedCsv({{"sku", "stock", "discount-price"}, {"A-S", "0", "2999"}}), true);
    REQUIRE(partial);
    CHECK(partial->counts.updated == 1);
    auto product = catalog.variants("A-S").front();
    CHECK(product.stock == 0);
    CHECK(product.discountPrice == 2999);
    CHECK(product.retailPrice == 4999);
    CHECK(product.name == "Jeans A");
    CHECK(product.mainSku == "A");
    CHECK(product.categoryPaths == std::vector<std::string>{"Women > Jeans"});
}

TEST_CASE("bad rows are rejected with line, column and reason; good rows still apply") {
    Catalog catalog;
    std::string csv = test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "lots", "B"), row("A-S", "A", "1", "dup")});
    csv += "\"C-S\";\"C\"\n";                  // too few fields
    csv += test::feedCsv({row("D-S", "D", "2", "D", "12,99")});
    auto report = catalog.import(csv);
    REQUIRE(report);
    CHECK(report->rowsRead == 5);
    CHECK(report->rejected == 4);
    CHECK(report->counts.inserted == 1);
    REQUIRE(report->errors.size() == 4);
    CHECK(report->errors[0].kind == RowErrorKind::InvalidInteger);
    CHECK(report->errors[0].line == 3);
    CHECK(report->errors[0].column == 4);
    CHECK(report->errors[0].message == "stock: 'lots' is not a non-negative integer");
    CHECK(report->errors[1].kind == RowErrorKind::DuplicateIdentifier);
    CHECK(report->errors[1].line == 4);
    CHECK(report->errors[2].kind == RowErrorKind::TooFewFields);
    CHECK(report->errors[2].line == 5);
    CHECK(report->errors[3].kind == RowErrorKind::InvalidInteger);
    CHECK(report->errors[3].message == "retail-price: '12,99' is not a non-negative integer number of cents");
}

TEST_CASE("a file that is not a usable feed changes nothing") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A")})));
    auto notCsv = catalog.import("PK\x03\x04 this is a zip file, not a feed\n\x01\x02");
    REQUIRE_FALSE(notCsv);
    CHECK(notCsv.error().code == ErrorCode::InvalidArgument);
    CHECK(notCsv.error().message.find("identifier column 'sku' is missing") != std::string::npos);
    auto allBad = catalog.import(test::feedCsv({kHeader, row("", "A", "3", "A")}));
    REQUIRE_FALSE(allBad);
    CHECK(allBad.error().message.find("no valid row") != std::string::npos);
    auto variants = catalog.variants("A-S");
    REQUIRE(variants.size() == 1);
    CHECK_FALSE(variants.front().deleted);
}

TEST_CASE("the identifier column named by the upload is the record key") {
    Catalog catalog;
    auto report = catalog.import(test::feedCsv({{"product_id", "name", "stock"}, {"P-1", "Belt", "4"}}), false, "product_id");
    REQUIRE(report);
    CHECK(report->counts.inserted == 1);
    auto variants = catalog.variants("P-1");
    REQUIRE(variants.size() == 1);
    CHECK(variants.front().name == "Belt");
    CHECK(variants.front().mainSku == "P-1");
}

TEST_CASE("readers keep the previous catalog until an import commits") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "Old name")})));
    auto import = catalog.storage->catalog().beginImport(catalog.tenant.id, catalog.storage->clock().nowSeconds(), "default");
    REQUIRE(import);
    Product changed = catalog.variants("A-S").front();
    changed.name = "New name";
    const svc::FeedShape nameOnly{{FeedField::Sku, FeedField::Name}, {}};
    REQUIRE((*import)->upsert(changed, nameOnly));
    CHECK(catalog.variants("A-S").front().name == "Old name");
    REQUIRE((*import)->commit(nullptr));
    CHECK(catalog.variants("A-S").front().name == "New name");

    // An import abandoned without commit leaves nothing behind.
    {
        auto abandoned = catalog.storage->catalog().beginImport(catalog.tenant.id, catalog.storage->clock().nowSeconds(), "default");
        REQUIRE(abandoned);
        changed.name = "Never";
        REQUIRE((*abandoned)->upsert(changed, nameOnly));
    }
    CHECK(catalog.variants("A-S").front().name == "New name");
}

namespace {

// The journal mode stored in a database file's header: 1 rollback journal, 2 WAL.
int storedJournalMode(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    char header[20] = {};
    file.read(header, sizeof header);
    REQUIRE(file);
    return header[18];
}

}  // namespace

TEST_CASE("an initial load writes through a rollback journal, then the catalog is back in WAL mode" *
          test::sqliteOnly("SQLite's journal modes of a tenant's catalog file")) {
    Catalog catalog;
    auto& store = dynamic_cast<SqliteCatalogStore&>(catalog.storage->catalog());
    std::string path = store.pathFor(catalog.tenant.id);
    Product product = {};
    product.sku = product.mainSku = "A-S";
    product.name = "First";
    const svc::FeedShape shape{{FeedField::Sku, FeedField::MainSku, FeedField::Name}, {}};
    {
        // Abandoned: the catalog stays empty, and the hot journal is rolled back.
        auto import = store.beginImport(catalog.tenant.id, catalog.storage->clock().nowSeconds(), "default");
        REQUIRE(import);
        REQUIRE((*import)->upsert(product, shape));
        CHECK(std::filesystem::exists(path + "-journal"));
    }
    CHECK(catalog.variants("A-S").empty());

    // A reader now holds the file open: the load stays in WAL mode, and still applies.
    {
        auto import = store.beginImport(catalog.tenant.id, catalog.storage->clock().nowSeconds(), "default");
        REQUIRE(import);
        REQUIRE((*import)->upsert(product, shape));
        CHECK_FALSE(std::filesystem::exists(path + "-journal"));
        REQUIRE((*import)->commit(nullptr));
    }
    CHECK(catalog.variants("A-S").front().name == "First");
    CHECK(storedJournalMode(path) == 2);

    // A second tenant, never read before its first import, loads through the journal.
    auto other = TenantService(catalog.storage->tenants()).create("Other shop");
    REQUIRE(other);
    std::string otherPath = store.pathFor(other->tenant.id);
    REQUIRE(test::importFeedFile(*catalog.storage, other->tenant, catalog.dir.path(),
                                 catalog.dir.file("other.csv", test::feedCsv({kHeader, row("B-S", "B", "2", "Other")})), {}));
    CHECK(storedJournalMode(otherPath) == 2);
    CHECK_FALSE(std::filesystem::exists(otherPath + "-journal"));
    auto found = store.articleVariants(other->tenant.id, "B-S");
    REQUIRE(found);
    REQUIRE(found->size() == 1);
    CHECK(found->front().name == "Other");
}

TEST_CASE("a stock change writes only the rows' table pages, not an index page per row" *
          test::sqliteOnly("pages of a tenant's SQLite catalog file; PostgreSQL's heap-only updates are ADR 0087's")) {
    // SQLite rewrites an index entry whenever an UPDATE sets a column of that index (or of
    // its condition), even to the same value; the import sets only the columns that
    // changed. Long main SKUs and categories spread the index entries over many pages, so
    // rewriting them would show as about one extra WAL frame per changed row.
    Catalog catalog;
    constexpr int kRows = 3000;
    constexpr int kEvery = 30;  // 100 changed rows, each on its own table page
    auto feed = [&](bool changed) {
        std::vector<std::vector<std::string>> rows = {kHeader};
        for (int i = 0; i < kRows; ++i) {
            std::string id = std::to_string(i);
            std::string mainSku = "M-" + std::string(180, 'm') + "-" + id;
            std::vector<std::string> fields = row("S-" + id, mainSku, changed && i % kEvery == 0 ? "0" : "5", "Name " + id);
            fields[10] = "Women > " + std::string(180, 'c') + " > " + std::to_string(i % 1000);
            rows.push_back(fields);
        }
        return test::feedCsv(rows);
    };
    REQUIRE(catalog.import(feed(false)));
    CHECK(catalog.variants("S-0").front().stock == 5);  // also opens a reader: the WAL stays after the import
    auto& store = dynamic_cast<SqliteCatalogStore&>(catalog.storage->catalog());
    std::string wal = store.pathFor(catalog.tenant.id) + "-wal";
    auto walFrames = [&] {
        std::error_code missing;
        auto bytes = std::filesystem::file_size(wal, missing);
        return missing || bytes < 32 ? 0 : static_cast<int>((bytes - 32) / (4096 + 24));  // header, then frames
    };
    int before = walFrames();
    REQUIRE(before == 0);
    auto report = catalog.import(feed(true), true);
    REQUIRE(report);
    CHECK(report->counts.updated == kRows / kEvery);
    CHECK(catalog.variants("S-0").front().stock == 0);
    CHECK(catalog.variants("S-1").front().stock == 5);
    int frames = walFrames();
    MESSAGE((kRows / kEvery) << " changed rows wrote " << frames << " WAL frames");
    CHECK(frames >= kRows / kEvery);
    CHECK(frames < kRows / kEvery * 5 / 4);
}

TEST_CASE("a catalog at schema version 1 is migrated on open, its rows kept" *
          test::sqliteOnly("a catalog file as an older svc wrote it, migrated by the data dir's migrations")) {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "Kept")})));
    std::string path = dynamic_cast<SqliteCatalogStore&>(catalog.storage->catalog()).pathFor(catalog.tenant.id);
    catalog.storage.reset();  // closes every connection to the file
    auto indexNames = [&] {
        auto db = SqliteDatabase::open(path);
        REQUIRE(db);
        auto query = (*db)->prepare("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' "
                                    "AND tbl_name = 'products' ORDER BY name)");
        REQUIRE(query);
        REQUIRE(query->step());
        return query->text(0);
    };
    {
        // Back to version 1, as an older svc-server left it.
        auto db = SqliteDatabase::open(path);
        REQUIRE(db);
        REQUIRE((*db)->execute("DROP INDEX products_live_by_category; "
                               "CREATE INDEX products_available_by_category ON products(primary_category) WHERE deleted = 0 AND stock > 0; "
                               "ALTER TABLE products DROP COLUMN change_seq; ALTER TABLE products DROP COLUMN feeds; DROP TABLE catalog_changes; "
                               "DELETE FROM schema_migrations WHERE version >= 2"));
    }
    CHECK(indexNames() == "products_available_by_category products_by_main_sku products_by_sku");
    auto reopened = svc::test::TestStorage::open(catalog.dir.path(), systemClock());
    REQUIRE(reopened);
    catalog.storage = std::move(*reopened);
    CHECK(catalog.variants("A-S").front().name == "Kept");
    CHECK(indexNames() == "products_by_main_sku products_by_sku products_live_by_category");
    // Migration 3 stamps nothing on existing rows: an engine reading changes after sequence 0 sees none of them.
    auto changed = catalog.storage->catalog().forEachProductChangedSince(catalog.tenant.id, 0, [](Product&&) { FAIL("no change expected"); });
    REQUIRE(changed);
    CHECK(*changed == 0);
}

TEST_CASE("a server starting while another process runs a CLI import leaves it alone; ownerless imports are reclaimed") {
    Catalog cli;  // the CLI process: it runs imports and holds their leases
    auto runningImport = [&](const std::string& fileKey) {
        FeedImportRecord record;
        record.tenantId = cli.tenant.id;
        record.source = fileKey.empty() ? "cli" : "push";
        record.fileKey = fileKey;
        auto id = cli.storage->imports().create(record);
        REQUIRE(id);
        record.id = *id;
        record.status = ImportStatus::Running;
        REQUIRE(cli.storage->imports().update(record));
        return record;
    };
    FeedImportRecord live = runningImport("");
    FeedImportRecord finishing = runningImport("");

    auto server = svc::test::TestStorage::open(cli.dir.path(), systemClock());  // the server process, started now
    REQUIRE(server);
    auto statusOf = [&](const FeedImportRecord& record) {
        auto found = (*server)->imports().find(record.tenantId, record.id);
        REQUIRE(found);
        REQUIRE(*found);
        return (*found)->status;
    };
    REQUIRE((*server)->imports().requeueInterrupted());
    CHECK(statusOf(live) == ImportStatus::Running);
    CHECK(statusOf(finishing) == ImportStatus::Running);

    // One import ends normally; then the CLI process goes away with the other still running
    // (its leases go with it, as a killed process's locks do).
    finishing.status = ImportStatus::Applied;
    REQUIRE(cli.storage->imports().update(finishing));
    cli.storage.reset();
    REQUIRE((*server)->imports().requeueInterrupted());
    CHECK(statusOf(live) == ImportStatus::Failed);
    CHECK(statusOf(finishing) == ImportStatus::Applied);
}

TEST_CASE("tenants never see each other's products") {
    Catalog catalog;
    auto other = TenantService(catalog.storage->tenants()).create("Other");
    REQUIRE(other);
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "Mine")})));
    auto theirs = catalog.storage->catalog().articleVariants(other->tenant.id, "A-S");
    REQUIRE(theirs);
    CHECK(theirs->empty());
}

TEST_CASE("the truncation guard counts the catalog as it was before the import (revived and new rows excluded)") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "3", "B"), row("C-S", "C", "3", "C"),
                                          row("D-S", "D", "3", "D")})));
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "3", "B"), row("C-S", "C", "3", "C")})));
    // Live before: A, B, C (3). The feed revives D and adds E; it drops B and C: 2 of 3.
    auto held = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("D-S", "D", "3", "D"), row("E-S", "E", "3", "E")}));
    REQUIRE_FALSE(held);
    CHECK(held.error().message ==
          "held: this full feed would mark 2 of 3 products deleted, more than the allowed 50%; confirm it to apply, or discard it");
    CHECK(catalog.variants("D-S").front().deleted);  // nothing applied
    CHECK(catalog.variants("E-S").empty());
}

TEST_CASE("properties and category paths survive the store's compact encoding, and unchanged rows compare equal") {
    Catalog catalog;
    std::vector<std::vector<std::string>> rows = {
        {"sku", "name", "stock", "category-path", "material", "stil", "ean"},
        {"P-1", "Shirt", "2", "Men > Shirts, Sale > Men", "cotton", "casual", "4006381333931"},
        {"P-2", "Shirt", "2", "Men > Shirts", "linen \"fine\", washed", "", ""},  // empty properties are not kept
        {"P-3", "Shirt", "2", "", "", "", ""},
    };
    auto first = catalog.import(test::feedCsv(rows));
    REQUIRE(first);
    CHECK(first->counts.inserted == 3);
    auto p1 = catalog.variants("P-1").front();
    CHECK(p1.categoryPaths == std::vector<std::string>{"Men > Shirts", "Sale > Men"});
    CHECK(p1.properties == std::map<std::string, std::string>{{"ean", "4006381333931"}, {"material", "cotton"}, {"stil", "casual"}});
    auto p2 = catalog.variants("P-2").front();
    CHECK(p2.categoryPaths == std::vector<std::string>{"Men > Shirts"});
    CHECK(p2.properties == std::map<std::string, std::string>{{"material", "linen \"fine\", washed"}});
    auto p3 = catalog.variants("P-3").front();
    CHECK(p3.categoryPaths.empty());
    CHECK(p3.properties.empty());

    auto again = catalog.import(test::feedCsv(rows));
    REQUIRE(again);
    CHECK(again->counts.unchanged == 3);
    CHECK(again->counts.updated == 0);

    rows[2][5] = "smart";  // P-2 gains a style
    auto changed = catalog.import(test::feedCsv(rows));
    REQUIRE(changed);
    CHECK(changed->counts.updated == 1);
    CHECK(catalog.variants("P-2").front().properties ==
          std::map<std::string, std::string>{{"material", "linen \"fine\", washed"}, {"stil", "smart"}});
    // A feed without property columns leaves them as they are.
    REQUIRE(catalog.import(test::feedCsv({{"sku", "stock"}, {"P-1", "9"}}), true));
    CHECK(catalog.variants("P-1").front().properties.size() == 3);
}

TEST_CASE("stored arrays read back exactly: escapes, control characters and UTF-8, in the store's form or any other JSON") {
    Catalog catalog;
    std::string tricky = "a \"quoted\" back\\slash, tab\there, new\nline, bell\x07, \xc3\xbc and \xf0\x9f\x91\x97";
    std::vector<std::vector<std::string>> rows = {
        {"sku", "name", "stock", "category-path", "material", "stil"},
        {"P-1", "Shirt", "2", "Men > Shirts \"Best\", Sale > M\xc3\xa4nner\\Herren", tricky, "[\"not\",\"an array\"]"},
    };
    REQUIRE(catalog.import(test::feedCsv(rows)));
    auto p1 = catalog.variants("P-1").front();
    CHECK(p1.categoryPaths == std::vector<std::string>{"Men > Shirts \"Best\"", "Sale > M\xc3\xa4nner\\Herren"});
    CHECK(p1.properties == std::map<std::string, std::string>{{"material", tricky}, {"stil", "[\"not\",\"an array\"]"}});

    // Arrays in another JSON form (spaces, \u escapes beyond ASCII, \/) still read through the JSON parser.
    // (SQLite keeps the property values as an array beside the feed's column names; PostgreSQL
    // keeps an object, as jsonb, which stores the escapes decoded.)
    {
        auto sql = test::DataDirSql::open(catalog.dir.path(), "catalog/tenant-" + std::to_string(catalog.tenant.id) + ".sqlite3");
        REQUIRE(sql);
        const std::string paths = "'[ \"A \\/ B\", \"M\\u00e4nner \\ud83d\\udc57\" ]'";
        REQUIRE(sql->execute({"UPDATE products SET category_paths = " + paths + ", property_values = '[\"x\\u00fcy\", \"\\u0041\\t\"]' "
                              "WHERE sku = $1",
                              "UPDATE catalog_products SET category_paths = " + paths +
                                  ", properties = '{\"material\": \"x\\u00fcy\", \"stil\": \"\\u0041\\t\"}' WHERE tenant_id = $2 AND sku = $1"},
                             {std::string("P-1"), catalog.tenant.id}));
    }
    auto p2 = catalog.variants("P-1").front();
    CHECK(p2.categoryPaths == std::vector<std::string>{"A / B", "M\xc3\xa4nner \xf0\x9f\x91\x97"});
    CHECK(p2.properties == std::map<std::string, std::string>{{"material", "x\xc3\xbcy"}, {"stil", "A\t"}});
}

// Issue 20, points 1 and 3, at the importer (FeedImportService into the real catalog store):
// each feed writes exactly its columns, properties included, in every order.
TEST_CASE("importer: two feeds of different columns merge in both orders; a delta clears one property with an empty value") {
    const std::vector<std::string> fullHeader = {"sku", "name", "stock", "material", "kategorie2", "tags"};
    const std::string full = test::feedCsv({fullHeader, {"A", "Pump", "4", "Leather", "Pumps", "evening"}});
    const std::string stock = test::feedCsv({{"sku", "stock", "ean"}, {"A", "9", "4001"}});
    struct Step {
        std::string csv;
        std::string feed;
        bool delta;
    };
    struct OrderCase {
        const char* name;
        std::vector<Step> steps;
        int64_t stock;
        std::map<std::string, std::string> properties;
    };
    const std::vector<OrderCase> cases{
        {"full, stock", {{full, "default", false}, {stock, "stock", false}}, 9,
         {{"ean", "4001"}, {"kategorie2", "Pumps"}, {"material", "Leather"}, {"tags", "evening"}}},
        {"stock, full, stock", {{stock, "stock", false}, {full, "default", false}, {stock, "stock", false}}, 9,
         {{"ean", "4001"}, {"kategorie2", "Pumps"}, {"material", "Leather"}, {"tags", "evening"}}},
        {"full, stock, full", {{full, "default", false}, {stock, "stock", false}, {full, "default", false}}, 4,
         {{"ean", "4001"}, {"kategorie2", "Pumps"}, {"material", "Leather"}, {"tags", "evening"}}},
        {"full, stock, delta clearing tags", {{full, "default", false}, {stock, "stock", true},
                                              {test::feedCsv({{"sku", "tags", "material"}, {"A", "", "Suede"}}), "default", true}},
         9, {{"ean", "4001"}, {"kategorie2", "Pumps"}, {"material", "Suede"}}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        Catalog catalog;
        for (const auto& step : c.steps) {
            auto report = catalog.import(step.csv, step.delta, "sku", step.feed);
            REQUIRE(report);
            CHECK(report->counts.markedDeleted == 0);
        }
        auto a = catalog.variants("A");
        REQUIRE(a.size() == 1);
        CHECK(a[0].name == "Pump");
        CHECK(a[0].stock == c.stock);
        CHECK(a[0].properties == c.properties);
    }
}

TEST_CASE("importer: a feed without product descriptions creates nothing and owns nothing") {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "5", "B")})));
    auto stock = catalog.import(test::feedCsv({{"sku", "stock"}, {"A-S", "1"}, {"X-S", "2"}}), false, "sku", "stock");
    REQUIRE(stock);
    CHECK(stock->counts.unknown == 1);
    CHECK(stock->counts.inserted == 0);
    CHECK(stock->counts.markedDeleted == 0);  // B-S is not its product
    CHECK(stock->describesProducts == std::optional<bool>(false));
    REQUIRE(stock->errors.size() == 1);
    CHECK(stock->errors[0].kind == RowErrorKind::UnknownSku);
    CHECK(stock->errors[0].line == 3);
    CHECK(catalog.variants("X-S").empty());
    CHECK(catalog.variants("A-S").front().stock == 1);
    CHECK_FALSE(catalog.variants("B-S").front().deleted);
}

TEST_CASE("products stored before feeds owned them (catalog version 4) belong to the next full feed that lists them" *
          test::sqliteOnly("a catalog file as an older svc wrote it, migrated by the data dir's migrations")) {
    Catalog catalog;
    REQUIRE(catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("B-S", "B", "5", "B"), row("C-S", "C", "5", "C")})));
    std::string path = dynamic_cast<SqliteCatalogStore&>(catalog.storage->catalog()).pathFor(catalog.tenant.id);
    catalog.storage.reset();
    {
        // Back to version 4, as svc-server before ADR 0070 left it: no owners.
        auto db = SqliteDatabase::open(path);
        REQUIRE(db);
        REQUIRE((*db)->execute("ALTER TABLE products DROP COLUMN feeds; DELETE FROM schema_migrations WHERE version >= 5"));
    }
    auto reopened = svc::test::TestStorage::open(catalog.dir.path(), systemClock());
    REQUIRE(reopened);
    catalog.storage = std::move(*reopened);
    // A full feed named stock lists A and C: it claims them, and deletes B as every full feed did before.
    auto stock = catalog.import(test::feedCsv({kHeader, row("A-S", "A", "3", "A"), row("C-S", "C", "5", "C")}), false, "sku", "stock");
    REQUIRE(stock);
    CHECK(stock->counts.markedDeleted == 1);
    CHECK(catalog.variants("B-S").front().deleted);
    // From now on they are stock's: the default feed listing only B brings B back and deletes nothing of stock's.
    auto back = catalog.import(test::feedCsv({kHeader, row("B-S", "B", "5", "B")}), false, "sku", "default");
    REQUIRE(back);
    CHECK(back->counts.markedDeleted == 0);
    for (const char* sku : {"A-S", "B-S", "C-S"}) CHECK_FALSE_MESSAGE(catalog.variants(sku).front().deleted, sku);
}
