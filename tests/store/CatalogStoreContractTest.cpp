// The CatalogStore contract (shared/store/CatalogStore.hpp) on every backend.
#include "StoreBackends.hpp"
#include "catalog/Availability.hpp"

#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <thread>

namespace svc::contract {
namespace {

// A feed that describes products: name, main SKU, stock, both prices, category paths and two properties.
const FeedShape& describingShape() {
    static const FeedShape shape{{FeedField::Sku, FeedField::MainSku, FeedField::Name, FeedField::Stock, FeedField::RetailPrice,
                                  FeedField::DiscountPrice, FeedField::CategoryPaths, FeedField::Description},
                                 {"fabric", "fit"}};
    return shape;
}

// A stock-and-price feed (no name column): it updates products, never describes them.
const FeedShape& stockShape() {
    static const FeedShape shape{{FeedField::Sku, FeedField::Stock, FeedField::RetailPrice}, {}};
    return shape;
}

Product productOf(const std::string& sku, const std::string& mainSku, const std::string& name = "Shirt", int64_t stock = 3) {
    Product product;
    product.sku = sku;
    product.mainSku = mainSku;
    product.name = name;
    product.stock = stock;
    product.retailPrice = 1999;
    return product;
}

// Applies `products` as one import of `feed` at `now`; a full feed when `full`.
ImportCounts importAll(CatalogStore& catalog, int64_t tenantId, int64_t now, const std::vector<Product>& products, bool full = false,
                       const FeedShape& shape = describingShape(), const std::string& feed = "default") {
    auto import = catalog.beginImport(tenantId, now, feed);
    REQUIRE_MESSAGE(import, (import ? "" : import.error().message));
    SkuSet listed;
    for (const auto& product : products) {
        auto written = (*import)->upsert(product, shape);
        REQUIRE_MESSAGE(written, (written ? "" : written.error().message));
        listed.insert(product.sku);
    }
    auto counts = (*import)->commit(full ? &listed : nullptr);
    REQUIRE_MESSAGE(counts, (counts ? "" : counts.error().message));
    return *counts;
}

std::vector<std::string> liveSkus(CatalogStore& catalog, int64_t tenantId) {
    std::vector<std::string> skus;
    auto read = catalog.forEachLiveProduct(tenantId, [&](Product&& product) { skus.push_back(product.sku); });
    REQUIRE_MESSAGE(read, (read ? "" : read.error().message));
    return skus;
}

std::optional<Product> variant(CatalogStore& catalog, int64_t tenantId, const std::string& sku) {
    auto variants = catalog.articleVariants(tenantId, sku);
    REQUIRE_MESSAGE(variants, (variants ? "" : variants.error().message));
    for (auto& product : *variants) {
        if (product.sku == sku) return product;
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("CatalogStore: an empty catalog answers no products and zero counts, not errors") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        CHECK(catalog.articleVariants(a.id, "nothing").value().empty());
        CHECK(liveSkus(catalog, a.id).empty());
        int visited = 0;
        auto changed = catalog.forEachProductChangedSince(a.id, -1, [&](Product&&) { ++visited; });
        REQUIRE_MESSAGE(changed, (changed ? "" : changed.error().message));
        CHECK(visited == 0);
        auto stats = catalog.stats(a.id);
        REQUIRE(stats);
        CHECK(stats->products == 0);
        CHECK(stats->available == 0);
    });
}

TEST_CASE("CatalogStore: an import dropped without commit leaves the catalog as before; nothing is seen before commit") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        importAll(catalog, a.id, now, {productOf("A-1", "A"), productOf("A-2", "A"), productOf("B-1", "B")});
        const std::vector<std::string> before{"A-1", "A-2", "B-1"};
        for (bool commit : {false, true}) {
            CAPTURE(commit);
            {
                auto import = catalog.beginImport(a.id, now + 10, "default");
                REQUIRE(import);
                REQUIRE((*import)->upsert(productOf("A-1", "A", "Renamed", 0), describingShape()));
                REQUIRE((*import)->upsert(productOf("C-1", "C"), describingShape()));
                CHECK((*import)->pendingCounts().inserted == 1);
                CHECK((*import)->pendingCounts().updated == 1);
                // Open, not committed: readers see the catalog as it was.
                CHECK(liveSkus(catalog, a.id) == before);
                CHECK(variant(catalog, a.id, "A-1")->name == "Shirt");
                if (commit) REQUIRE((*import)->commit(nullptr));
            }
            if (!commit) {
                CHECK(liveSkus(catalog, a.id) == before);
                CHECK(variant(catalog, a.id, "A-1")->name == "Shirt");
                CHECK(variant(catalog, a.id, "A-1")->stock == 3);
                CHECK(catalog.articleVariants(a.id, "C-1").value().empty());
                CHECK(catalog.stats(a.id).value().products == 3);
                CHECK(catalog.stats(a.id).value().available == 3);
            } else {
                CHECK(liveSkus(catalog, a.id) == std::vector<std::string>{"A-1", "A-2", "B-1", "C-1"});
                CHECK(variant(catalog, a.id, "A-1")->name == "Renamed");
                CHECK(catalog.stats(a.id).value().products == 4);
                CHECK(catalog.stats(a.id).value().available == 3);
            }
        }
    });
}

TEST_CASE("CatalogStore: one tenant's products never appear in another's reads") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B"), empty = newTenant(*backend.storage, "C");
        int64_t now = backend.clock.now;
        importAll(catalog, a.id, now, {productOf("X-1", "X", "Theirs"), productOf("ONLY-A", "ONLY-A")});
        importAll(catalog, b.id, now, {productOf("X-1", "X", "Mine")});
        CHECK(variant(catalog, b.id, "X-1")->name == "Mine");
        CHECK(variant(catalog, a.id, "X-1")->name == "Theirs");
        CHECK(catalog.articleVariants(b.id, "ONLY-A").value().empty());
        CHECK(catalog.articleVariants(b.id, "X").value().size() == 1);
        CHECK(liveSkus(catalog, b.id) == std::vector<std::string>{"X-1"});
        CHECK(catalog.stats(b.id).value().products == 1);
        std::vector<std::string> changed;
        REQUIRE(catalog.forEachProductChangedSince(b.id, -1, [&](Product&& product) { changed.push_back(product.sku); }));
        CHECK(changed == std::vector<std::string>{"X-1"});
        CHECK(liveSkus(catalog, empty.id).empty());
        CHECK(catalog.stats(empty.id).value().products == 0);
        CHECK(catalog.articleVariants(empty.id, "X-1").value().empty());
    });
}

TEST_CASE("CatalogStore: live products are read by main SKU, then SKU, in byte order, whatever order they arrived in") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        // The first import is an initial load, the second a change: both paths must keep the order.
        importAll(catalog, a.id, now, {productOf("b-2", "b"), productOf("B-10", "B"), productOf("b-1", "b"), productOf("B-2", "B")});
        importAll(catalog, a.id, now + 1, {productOf("a-1", "a"), productOf("B-1", "B"), productOf("_-1", "_"), productOf("B-0", "B")});
        const std::vector<std::string> expected{"B-0", "B-1", "B-10", "B-2", "_-1", "a-1", "b-1", "b-2"};
        CHECK(liveSkus(catalog, a.id) == expected);
        std::vector<std::string> all;
        REQUIRE(catalog.forEachProductChangedSince(a.id, -1, [&](Product&& product) { all.push_back(product.sku); }));
        CHECK(all == expected);
        std::vector<std::string> variants;
        auto article = catalog.articleVariants(a.id, "B-2");
        REQUIRE(article);
        for (const auto& product : *article) variants.push_back(product.sku);
        CHECK(variants == std::vector<std::string>{"B-0", "B-1", "B-10", "B-2"});
    });
}

TEST_CASE("CatalogStore: a changed-since read returns the changed articles whole, once, and its sequence is the next cursor") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        importAll(catalog, a.id, now, {productOf("A-1", "A"), productOf("A-2", "A"), productOf("B-1", "B"), productOf("B-2", "B")});
        auto readSince = [&](int64_t since, std::vector<std::string>& skus) {
            skus.clear();
            auto sequence = catalog.forEachProductChangedSince(a.id, since, [&](Product&& product) {
                skus.push_back(product.sku + (product.deleted ? " deleted" : ""));
            });
            REQUIRE_MESSAGE(sequence, (sequence ? "" : sequence.error().message));
            return *sequence;
        };
        std::vector<std::string> skus;
        int64_t first = readSince(-1, skus);
        CHECK(skus.size() == 4);
        CHECK(readSince(first, skus) == first);
        CHECK(skus.empty());

        // A stock change of one variant: its whole article (both variants), not the other one.
        Product changed = productOf("B-1", "B");
        changed.stock = 0;
        importAll(catalog, a.id, now + 10, {changed}, false, stockShape());
        int64_t second = readSince(first, skus);
        CHECK(second > first);
        CHECK(skus == std::vector<std::string>{"B-1", "B-2"});
        CHECK(readSince(second, skus) == second);
        CHECK(skus.empty());

        // Dropped imports change nothing a cursor sees.
        {
            auto dropped = catalog.beginImport(a.id, now + 20, "default");
            REQUIRE(dropped);
            REQUIRE((*dropped)->upsert(productOf("A-1", "A", "Gone"), describingShape()));
        }
        CHECK(readSince(second, skus) == second);
        CHECK(skus.empty());

        // A full feed leaving A-2 out: A's variants, A-2 marked deleted (and still read, marked).
        auto counts = importAll(catalog, a.id, now + 30, {productOf("A-1", "A"), changed, productOf("B-2", "B")}, true);
        CHECK(counts.markedDeleted == 1);
        int64_t third = readSince(second, skus);
        CHECK(third > second);
        CHECK(skus == std::vector<std::string>{"A-1", "A-2 deleted"});
        CHECK(liveSkus(catalog, a.id) == std::vector<std::string>{"A-1", "B-1", "B-2"});
        auto gone = variant(catalog, a.id, "A-2");
        REQUIRE(gone);
        CHECK(gone->deleted);
    });
}

TEST_CASE("CatalogStore: told this process's changes, the changed read reads them by key and visits what the scan does") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        importAll(catalog, a.id, now, {productOf("A-1", "A"), productOf("A-2", "A"), productOf("B-1", "B"), productOf("C-1", "C")});
        int64_t since = catalog.forEachProductChangedSince(a.id, -1, [](Product&&) {}).value();
        auto import = catalog.beginImport(a.id, now + 10, "default");
        REQUIRE(import);
        REQUIRE((*import)->upsert(productOf("C-1", "C", "New name"), describingShape()));
        REQUIRE((*import)->upsert(productOf("A-2", "A", "New name"), describingShape()));
        REQUIRE((*import)->commit(nullptr));
        CatalogChange change = (*import)->takeChange();
        CHECK(change.sequence > since);
        KnownChanges known;
        known[change.sequence] = std::make_shared<const CatalogChange>(change);
        for (const KnownChanges& told : {known, KnownChanges{}}) {
            std::vector<Product> read;
            auto result = catalog.forEachChangedProduct(a.id, since, told, [&](Product&& product) { read.push_back(std::move(product)); });
            REQUIRE_MESSAGE(result, (result ? "" : result.error().message));
            std::vector<Product> scanned;
            CHECK(catalog.forEachProductChangedSince(a.id, since, [&](Product&& product) { scanned.push_back(std::move(product)); }).value() ==
                  result->sequence);
            CHECK(read == scanned);
            REQUIRE(read.size() == 3);
            CHECK(read[0].mainSku == "A");
            CHECK(read[2].name == "New name");
            if (change.complete) CHECK(result->byKey == !told.empty());
        }
    });
}

TEST_CASE("CatalogStore: a feed's products are written as its shape says; full feeds delete only what no other feed owns") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        Product shared = productOf("S-1", "S", "Shared");
        shared.properties = {{"fabric", "wool"}, {"fit", "slim"}};
        importAll(catalog, a.id, now, {shared, productOf("M-1", "M")}, true, describingShape(), "main");
        importAll(catalog, a.id, now, {shared}, true, describingShape(), "outlet");
        // A stock-and-price row: price and stock change, names and properties stay; unknown SKUs are not written.
        {
            auto import = catalog.beginImport(a.id, now + 1, "stock");
            REQUIRE(import);
            Product price;
            price.sku = "S-1";
            price.stock = 7;
            price.retailPrice = 2500;
            CHECK((*import)->upsert(price, stockShape()).value() == UpsertOutcome::Written);
            price.sku = "NEW-1";
            CHECK((*import)->upsert(price, stockShape()).value() == UpsertOutcome::UnknownSku);
            CHECK((*import)->pendingCounts().unknown == 1);
            REQUIRE((*import)->commit(nullptr));
        }
        auto stored = variant(catalog, a.id, "S-1");
        REQUIRE(stored);
        CHECK(stored->name == "Shared");
        CHECK(stored->stock == 7);
        CHECK(stored->retailPrice == 2500);
        CHECK(stored->properties == shared.properties);
        CHECK(catalog.articleVariants(a.id, "NEW-1").value().empty());
        // "main" gives up both; S-1 stays live through "outlet", M-1 had no other owner.
        auto counts = importAll(catalog, a.id, now + 2, {productOf("Z-1", "Z")}, true, describingShape(), "main");
        CHECK(counts.markedDeleted == 1);
        CHECK(liveSkus(catalog, a.id) == std::vector<std::string>{"S-1", "Z-1"});
        counts = importAll(catalog, a.id, now + 3, {productOf("Z-1", "Z")}, true, describingShape(), "outlet");
        CHECK(counts.markedDeleted == 1);
        CHECK(liveSkus(catalog, a.id) == std::vector<std::string>{"Z-1"});
    });
}

TEST_CASE("CatalogStore: hostile text, absent and extreme prices are read back exactly") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        struct Prices {
            std::optional<int64_t> retail, discount;
            int64_t stock;
        };
        const std::vector<Prices> prices{
            {std::numeric_limits<int64_t>::max(), 0, std::numeric_limits<int64_t>::max()},
            {std::nullopt, 0, 0},
            {0, std::nullopt, 1},
            {std::nullopt, std::nullopt, 1},
        };
        std::vector<Product> products;
        size_t i = 0;
        for (const auto& text : hostileStrings()) {
            Product product = productOf("H-" + std::to_string(i), "H-" + std::to_string(i), text);
            product.description = text;
            product.categoryPaths = {text, "Women > " + text};
            product.properties = {{"fabric", text}};
            product.retailPrice = prices[i % prices.size()].retail;
            product.discountPrice = prices[i % prices.size()].discount;
            product.stock = prices[i % prices.size()].stock;
            product.lastSeenAt = now;
            products.push_back(product);
            // The same text as the only category path (kept apart from several) and as SKUs.
            Product single = productOf(text, text + "/main", text);
            single.categoryPaths = {text};
            single.lastSeenAt = now;
            products.push_back(single);
            ++i;
        }
        importAll(catalog, a.id, now, products);
        for (const auto& product : products) {
            CAPTURE(product.sku);
            auto stored = variant(catalog, a.id, product.sku);
            REQUIRE(stored);
            const Product& expected = product;
            CHECK(stored->name == expected.name);
            CHECK(stored->description == expected.description);
            CHECK(stored->mainSku == expected.mainSku);
            CHECK(stored->categoryPaths == expected.categoryPaths);
            CHECK(stored->properties == expected.properties);
            CHECK(stored->retailPrice == expected.retailPrice);
            CHECK(stored->discountPrice == expected.discountPrice);
            CHECK(stored->stock == expected.stock);
            CHECK(stored->lastSeenAt == now);
        }
        // Again as a full feed into the catalog that now exists (compared with the stored rows, not
        // loaded), every text changed, the first product left out: only that one is marked deleted.
        std::vector<Product> again(products.begin() + 1, products.end());
        for (auto& product : again) {
            product.name += "\t\\n\n";
            product.properties["fit"] = product.name;
        }
        auto counts = importAll(catalog, a.id, now + 10, again, true);
        CHECK(counts.updated == static_cast<int64_t>(again.size()));
        CHECK(counts.markedDeleted == 1);
        CHECK(variant(catalog, a.id, products.front().sku)->deleted);
        for (const auto& product : again) {
            CAPTURE(product.sku);
            auto stored = variant(catalog, a.id, product.sku);
            REQUIRE(stored);
            CHECK_FALSE(stored->deleted);
            CHECK(stored->name == product.name);
            CHECK(stored->description == product.description);
            CHECK(stored->categoryPaths == product.categoryPaths);
            CHECK(stored->properties == product.properties);
        }
    });
}

TEST_CASE("CatalogStore: a node that did not run an import reads its changed articles as the scan does") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        importAll(backend.storage->catalog(), a.id, now, {productOf("A-1", "A"), productOf("A-2", "A"), productOf("B-1", "B")});
        auto other = backend.openAnother();
        int64_t since = other->catalog().forEachProductChangedSince(a.id, -1, [](Product&&) {}).value();
        importAll(backend.storage->catalog(), a.id, now + 10, {productOf("A-2", "A", "New name")});
        std::vector<std::string> read, scanned;
        auto changed = other->catalog().forEachChangedProduct(a.id, since, KnownChanges{}, [&](Product&& product) { read.push_back(product.sku); });
        REQUIRE_MESSAGE(changed, (changed ? "" : changed.error().message));
        CHECK(other->catalog().forEachProductChangedSince(a.id, since, [&](Product&& product) { scanned.push_back(product.sku); }).value() ==
              changed->sequence);
        CHECK(read == std::vector<std::string>{"A-1", "A-2"});
        CHECK(read == scanned);
        // PostgreSQL keeps each import's change list where every node reads it (docs/adr/0087);
        // SQLite's lists live in the importing process only.
        CHECK(changed->byKey == (backend.name == "postgres"));
    });
}

TEST_CASE("CatalogStore: a full feed seen again after an hour stamps every product seen, changed or not; on PostgreSQL each row stays on its page") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        std::vector<Product> feed;
        for (int i = 0; i < 400; ++i) {
            Product product = productOf("S-" + std::to_string(1000 + i), "M-" + std::to_string(1000 + i / 2));
            product.description = std::string(180, static_cast<char>('a' + i % 26));  // rows of a realistic width, ~25 to a page
            feed.push_back(product);
        }
        importAll(catalog, a.id, now, feed, true);
        // Where each row lives (PostgreSQL: its heap page), before the feed comes again.
        auto pages = [&]() {
            std::map<std::string, std::string> located;
            if (!backend.schema) return located;
            auto connection = PgConnection::open(backend.schema->url());
            REQUIRE(connection);
            auto rows = (*connection)->execute("read row pages",
                                               "SELECT sku, (ctid::text::point)[0]::bigint::text FROM catalog_products WHERE tenant_id = $1", {a.id});
            REQUIRE(rows);
            for (int row = 0; row < rows->rows(); ++row) located[rows->text(row, 0)] = rows->text(row, 1);
            return located;
        };
        auto before = pages();
        int64_t cursor = catalog.forEachProductChangedSince(a.id, -1, [](Product&&) {}).value();
        int64_t later = now + 2 * kSeenResolutionSeconds;
        feed[7].stock = 99;
        ImportCounts counts = importAll(catalog, a.id, later, feed, true);
        CHECK(counts.updated == 1);
        CHECK(counts.unchanged == 399);
        CHECK(counts.markedDeleted == 0);
        // Seen again after an hour: every product is stamped (availability may change with it) and read as changed.
        int64_t visited = 0;
        CHECK(catalog.forEachProductChangedSince(a.id, cursor, [&](Product&& product) {
                         ++visited;
                         CHECK(product.lastSeenAt == later);
                     }).value() > cursor);
        CHECK(visited == 400);
        CHECK(variant(catalog, a.id, "S-1007")->stock == 99);
        // The stamp rewrites every row; the partition's free half of each page keeps every new
        // version beside the old one (a heap-only update: no index entry written), docs/adr/0093.
        auto after = pages();
        int moved = 0;
        for (const auto& [sku, page] : before) moved += after[sku] != page;
        CHECK(after.size() == before.size());
        CHECK(moved == 0);
    });
}

TEST_CASE("CatalogStore: a tenant's imports run one at a time, so a later import's sequence is never read before an earlier one's") {
    forEachBackend([](Backend& backend) {
        CatalogStore& catalog = backend.storage->catalog();
        Tenant a = newTenant(*backend.storage, "A");
        int64_t now = backend.clock.now;
        importAll(catalog, a.id, now, {productOf("A-1", "A")});
        auto first = catalog.beginImport(a.id, now + 10, "default");
        REQUIRE(first);
        REQUIRE((*first)->upsert(productOf("A-1", "A", "First"), describingShape()));
        std::atomic<bool> secondBegun{false};
        std::string secondError;
        std::thread second([&] {
            auto import = catalog.beginImport(a.id, now + 20, "default");
            secondBegun = true;
            if (!import) {
                secondError = import.error().message;
                return;
            }
            auto written = (*import)->upsert(productOf("A-1", "A", "Second"), describingShape());
            auto counts = written ? (*import)->commit(nullptr) : Result<ImportCounts>(written.error());
            if (!counts) secondError = counts.error().message;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CHECK_FALSE(secondBegun.load());
        REQUIRE((*first)->commit(nullptr));
        int64_t firstSequence = (*first)->takeChange().sequence;
        second.join();
        CHECK(secondError == "");
        CHECK(variant(catalog, a.id, "A-1")->name == "Second");
        std::vector<std::string> skus;
        CHECK(catalog.forEachProductChangedSince(a.id, firstSequence, [&](Product&& product) { skus.push_back(product.name); }).value() > firstSequence);
        CHECK(skus == std::vector<std::string>{"Second"});
    });
}

}  // namespace svc::contract
