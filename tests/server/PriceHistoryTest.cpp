// The lowest price of the 30 days before a reduction (EU price indication directive,
// PAngV section 11): the catalog keeps each SKU's selling-price changes on import (bounded),
// and the content carries the lowest one only for reduced items of tenants whose country
// requires it. Real imports on a moved clock, real storage, the real content endpoint.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "DataDirSql.hpp"
#include "ServerFixture.hpp"

using namespace svc;
using nlohmann::json;

namespace {

constexpr int64_t kDay = 24 * 3600;

const std::vector<std::string> kHeader = {"sku", "main-sku", "model", "stock", "name", "retail-price", "discount-price",
                                          "deeplink", "image", "category-path", "marke", "farbe"};

std::vector<std::string> row(const std::string& mainSku, const std::string& model, const std::string& retail,
                             const std::string& discount) {
    return {mainSku + "-M", mainSku, model, "5", "Item " + mainSku, retail, discount, "https://shop.example/" + mainSku,
            "https://shop.example/" + mainSku + ".jpg", "Women > Jeans", "Brand", "Blue"};
}

struct PriceFixture {
    test::TempDir dir;
    test::ManualClock clock;
    test::RunningServer server{dir.path(), &clock};
    Tenant tenant;
    int feeds = 0;
    PriceFixture() {
        auto created = TenantService(server.storage->tenants()).create("Shop");
        REQUIRE(created);
        tenant = created->tenant;
    }
    // A full feed: the anchor A and B, whose prices the test changes, and C, never reduced.
    void importPrices(const std::string& bDiscount, const std::string& cDiscount = "5000") {
        auto feed = test::feedCsv({kHeader, row("A", "M1", "5000", "5000"), row("B", "M2", "5000", bDiscount),
                                   row("C", "M3", "5000", cDiscount)});
        REQUIRE(test::importFeedFile(*server.storage, tenant, dir.path(), dir.file("feed" + std::to_string(++feeds) + ".csv", feed)));
    }
    void setCountry(const std::string& country) {
        auto storeStorage = test::openStorage(dir.path());
        auto* store = &storeStorage->widgetSettings();
        REQUIRE(store);
        WidgetSettingsChange change;
        change.country = country;
        REQUIRE(store->change(tenant.id, change, clock.nowSeconds()));
    }
    // mainSku -> the item's JSON in the SIMILAR answer for A.
    std::map<std::string, json> items() {
        auto response = server.client().Get("/" + tenant.apiId + "/content?w=SIMILAR&t=product&s=A-M&i=");
        REQUIRE(response);
        REQUIRE(response->status == 200);
        std::map<std::string, json> out;
        json body = json::parse(response->body);
        for (const auto& item : body["widgets"][0]["items"]) out[item["mainSku"].get<std::string>()] = item;
        return out;
    }
    test::DataDirSql catalogSql() {
        auto sql = test::DataDirSql::open(dir.path(), "catalog/tenant-" + std::to_string(tenant.id) + ".sqlite3");
        REQUIRE(sql);
        return std::move(*sql);
    }
    int64_t historyRows(const std::string& sku) {
        auto count = catalogSql().integer(
            {"SELECT COUNT(*) FROM price_history WHERE sku = $1", "SELECT count(*) FROM price_history WHERE sku = $1 AND tenant_id = $2"},
            {sku, tenant.id});
        REQUIRE(count);
        return *count;
    }
};

}  // namespace

TEST_CASE("price history: the lowest 30-day price reaches reduced items where the country requires it, bounded to 30 days") {
    PriceFixture f;
    f.setCountry("DE");
    f.importPrices("5000");
    CHECK(f.historyRows("B-M") == 0);  // an initial price is no change

    f.clock.advance(kDay);
    f.importPrices("4000");  // B reduced from 50 to 40
    auto items = f.items();
    REQUIRE(items.count("B"));
    REQUIRE(items.count("C"));
    CHECK(items["B"]["price"] == 4000);
    CHECK(items["B"]["retailPrice"] == 5000);
    CHECK(items["B"]["lowestPrice30Days"] == 5000);
    CHECK(!items["C"].contains("lowestPrice30Days"));  // not reduced
    CHECK(f.historyRows("B-M") == 2);                  // the price before the first change, and the change
    CHECK(f.historyRows("C-M") == 0);

    f.clock.advance(10 * kDay);
    f.importPrices("3500");  // a further reduction: the 30 days before it saw 50 and 40
    CHECK(f.items()["B"]["lowestPrice30Days"] == 4000);

    f.clock.advance(40 * kDay);
    f.importPrices("3000");  // 30 days before this change, 35 had long been the price
    CHECK(f.items()["B"]["lowestPrice30Days"] == 3500);
    CHECK(f.historyRows("B-M") == 2);  // 50 and 40 ended more than 30 days before: dropped

    f.clock.advance(kDay);
    f.importPrices("5000");  // back to the retail price: no reduction, nothing to show
    CHECK(!f.items()["B"].contains("lowestPrice30Days"));
}

TEST_CASE("price history: not shown where the tenant's country does not require it") {
    PriceFixture f;
    f.importPrices("5000");
    f.clock.advance(kDay);
    f.importPrices("4000");
    CHECK(!f.items()["B"].contains("lowestPrice30Days"));  // no country set
    f.setCountry("CH");
    CHECK(!f.items()["B"].contains("lowestPrice30Days"));
    CHECK(f.historyRows("B-M") == 2);  // kept regardless: a country set later has it
}

TEST_CASE("price history: the feed's own lowest-price-30d comes first, svc's history fills in, the country rule decides") {
    // B reduced 50 -> 40 without a figure in the feed (svc's history: 50); C reduced 50 -> 45
    // with the shop's own figure 42.
    std::vector<std::string> header = kHeader;
    header.push_back("lowest-price-30d");
    auto withLowest = [](std::vector<std::string> values, const std::string& lowest) {
        values.push_back(lowest);
        return values;
    };
    auto reducedFeed = test::feedCsv({header, withLowest(row("A", "M1", "5000", "5000"), ""), withLowest(row("B", "M2", "5000", "4000"), ""),
                                      withLowest(row("C", "M3", "5000", "4500"), "4200")});
    for (const char* country : {"DE", "CH"}) {
        CAPTURE(country);
        PriceFixture f;
        f.setCountry(country);  // before the first answer: the server keeps settings for 2 s
        f.importPrices("5000");
        f.clock.advance(kDay);
        REQUIRE(test::importFeedFile(*f.server.storage, f.tenant, f.dir.path(), f.dir.file("feed-lowest.csv", reducedFeed)));
        auto items = f.items();
        REQUIRE(items.count("B"));
        REQUIRE(items.count("C"));
        if (std::string(country) == "DE") {
            CHECK(items["C"]["lowestPrice30Days"] == 4200);  // the shop's figure, not svc's history (5000)
            CHECK(items["B"]["lowestPrice30Days"] == 5000);  // no figure in the feed: svc's history
        } else {
            CHECK(!items["C"].contains("lowestPrice30Days"));  // the feed's figure too: not where the country does not ask for it
            CHECK(!items["B"].contains("lowestPrice30Days"));
        }
    }
}

TEST_CASE("price history: answers read no database: the snapshot carries the recorded lowest prices (ADR 0080)") {
    PriceFixture f;
    f.setCountry("DE");
    f.importPrices("5000");
    f.clock.advance(kDay);
    f.importPrices("4000");
    REQUIRE(f.items()["B"]["lowestPrice30Days"] == 5000);
    // The history is gone from the catalog, and nothing asks for a rebuild: an answer that read
    // it now would have no lowest price; one from the snapshot still has it. (SQLite's catalog
    // file fills the table by a trigger, which goes first; PostgreSQL's imports write it themselves.)
    REQUIRE(f.catalogSql().execute({"DROP TRIGGER price_history_on_change; DROP TABLE price_history", "DROP TABLE price_history"}));
    CHECK(f.items()["B"]["lowestPrice30Days"] == 5000);
    CHECK(!f.items()["C"].contains("lowestPrice30Days"));
}
