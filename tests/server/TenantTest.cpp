#include <doctest/doctest.h>

#include <regex>
#include <thread>

#include "DataDirSql.hpp"
#include "ServerFixture.hpp"
#include "store/TenantCache.hpp"
#include "tenant/SecretHasher.hpp"

using namespace svc;

TEST_CASE("a tenant gets random UUIDs and a secret that is stored only as a hash") {
    test::TempDir dir;
    auto storage = svc::test::TestStorage::open(dir.path(), systemClock());
    REQUIRE(storage);
    TenantService tenants((*storage)->tenants());
    auto first = tenants.create("Shop One");
    auto second = tenants.create("Shop Two");
    REQUIRE(first);
    REQUIRE(second);
    std::regex uuidV4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    CHECK(std::regex_match(first->tenant.apiId, uuidV4));
    CHECK(std::regex_match(first->tenant.feedId, uuidV4));
    CHECK(first->tenant.apiId != second->tenant.apiId);
    CHECK(first->apiSecret != second->apiSecret);
    CHECK(first->apiSecret.size() >= 43);

    // The secret's bytes appear nowhere in the database; its hash does.
    storage->reset();
    std::string bytes = test::DataDirSql::storedBytes(dir.path());
    CHECK(bytes.find(first->apiSecret) == std::string::npos);
    CHECK(bytes.find(SecretHasher::hash(first->apiSecret)) != std::string::npos);
}

TEST_CASE("authentication needs the matching API ID and secret") {
    test::TempDir dir;
    auto storage = svc::test::TestStorage::open(dir.path(), systemClock());
    REQUIRE(storage);
    TenantService tenants((*storage)->tenants());
    auto one = tenants.create("Shop One");
    auto two = tenants.create("Shop Two");
    REQUIRE(one);
    REQUIRE(two);
    CHECK(tenants.authenticate(one->tenant.apiId, one->apiSecret));
    auto swapped = tenants.authenticate(one->tenant.apiId, two->apiSecret);
    REQUIRE_FALSE(swapped);
    CHECK(swapped.error().code == ErrorCode::Unauthenticated);
    CHECK_FALSE(tenants.authenticate("", one->apiSecret));
    CHECK_FALSE(tenants.authenticate(one->tenant.apiId, ""));
    CHECK_FALSE(tenants.authenticate("unknown", one->apiSecret));
    auto blank = tenants.create("   ");
    REQUIRE_FALSE(blank);
    CHECK(blank.error().message == "name: must not be empty");
}

TEST_CASE("tenants survive a restart (reopened database, migrations idempotent)") {
    test::TempDir dir;
    std::string apiId;
    {
        auto storage = svc::test::TestStorage::open(dir.path(), systemClock());
        REQUIRE(storage);
        auto created = TenantService((*storage)->tenants()).create("Persistent Shop");
        REQUIRE(created);
        apiId = created->tenant.apiId;
    }
    auto reopened = svc::test::TestStorage::open(dir.path(), systemClock());
    REQUIRE(reopened);
    auto found = (*reopened)->tenants().findByApiId(apiId);
    REQUIRE(found);
    REQUIRE(found->has_value());
    CHECK((*found)->name == "Persistent Shop");
}

TEST_CASE("TenantCache: entries expire, a clear() wins over a lookup that read before it, unknown IDs are not kept") {
    TenantCache cache(std::chrono::milliseconds(150), 100);
    Tenant shop;
    shop.apiId = "api-1";
    shop.currency = "EUR";
    cache.put(shop, cache.generation());
    REQUIRE(cache.find("api-1"));
    CHECK(cache.find("api-1")->currency == "EUR");
    CHECK_FALSE(cache.find("api-2"));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK_FALSE(cache.find("api-1"));

    // A lookup read the row, then a write cleared the cache: the old row must not come back.
    uint64_t readAt = cache.generation();
    cache.clear();
    cache.put(shop, readAt);
    CHECK_FALSE(cache.find("api-1"));
    cache.put(shop, cache.generation());
    CHECK(cache.find("api-1"));
}

TEST_CASE("tenant lookups by API ID: the store's own writes show at once, another process's within two seconds") {
    test::TempDir dir;
    auto server = svc::test::TestStorage::open(dir.path(), systemClock());
    REQUIRE(server);
    TenantService tenants((*server)->tenants());
    auto created = tenants.create("Shop");
    REQUIRE(created);
    const std::string apiId = created->tenant.apiId;
    auto lookup = [&](Storage& storage) { return storage.tenants().findByApiId(apiId).value().value(); };
    CHECK(lookup(**server).currency == created->tenant.currency);

    REQUIRE((*server)->tenants().setCurrency(created->tenant.id, "PLN"));
    CHECK(lookup(**server).currency == "PLN");

    // The CLI writes through its own connection; the server's cache may show the old value
    // for up to its lifetime, never longer.
    auto cli = svc::test::TestStorage::open(dir.path(), systemClock());
    REQUIRE(cli);
    REQUIRE((*cli)->tenants().setCurrency(created->tenant.id, "USD"));
    CHECK(lookup(**cli).currency == "USD");
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    CHECK(lookup(**server).currency == "USD");
}
