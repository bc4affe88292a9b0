// The ShopRegistrationStore contract (shared/store/ShopRegistrationStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {
namespace {

ShopRegistration registrationOf(const std::string& shopUrl) {
    ShopRegistration record;
    record.attributesUrl = shopUrl + "/svc/attributes";
    record.productsUrl = shopUrl + "/svc/products";
    record.variantDimensionsUrl = shopUrl + "/svc/dimensions";
    record.pluginVersion = "1.2.3";
    record.shopSoftware = "shopware";
    record.shopUrl = shopUrl;
    record.shopVersion = "6.5";
    return record;
}

}  // namespace

TEST_CASE("ShopRegistrationStore: a save replaces the tenant's registration, keeps createdAt and schedules a plugin pull") {
    forEachBackend([](Backend& backend) {
        ShopRegistrationStore& registrations = backend.storage->shopRegistrations();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        CHECK(registrations.find(a.id).value() == std::nullopt);
        REQUIRE(registrations.save(a.id, "default", a.feedId, registrationOf("https://a.example"), 100));
        auto again = registrations.save(a.id, "default", a.feedId, registrationOf("https://a2.example"), 200);
        REQUIRE(again);
        auto found = registrations.find(a.id).value();
        REQUIRE(found);
        CHECK(found->record.shopUrl == "https://a2.example");
        CHECK(found->createdAt == 100);
        CHECK(found->updatedAt == 200);
        CHECK(registrations.find(b.id).value() == std::nullopt);  // never another tenant's
        auto source = backend.storage->pullSources().find(a.id, "default").value();
        REQUIRE(source);
        CHECK(source->kind == kPullSourcePlugin);
    });
}

TEST_CASE("ShopRegistrationStore: a feed pulled from a file is refused, naming the feed, and nothing is stored") {
    forEachBackend([](Backend& backend) {
        ShopRegistrationStore& registrations = backend.storage->shopRegistrations();
        Tenant a = newTenant(*backend.storage, "A");
        PullSource file;
        file.tenantId = a.id;
        file.url = "https://a.example/feed.csv";
        file.intervalSeconds = 3600;
        REQUIRE(backend.storage->pullSources().add(file));
        auto refused = registrations.save(a.id, "default", a.feedId, registrationOf("https://a.example"), 100);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == ErrorCode::AlreadyExists);
        CHECK(refused.error().message.find("feed") != std::string::npos);
        CHECK(registrations.find(a.id).value() == std::nullopt);
        CHECK(backend.storage->pullSources().find(a.id, "default").value()->kind == kPullSourceFile);
    });
}

TEST_CASE("ShopRegistrationStore: the list is newest first; pull results are recorded per tenant; strings kept byte for byte") {
    forEachBackend([](Backend& backend) {
        ShopRegistrationStore& registrations = backend.storage->shopRegistrations();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B"), c = newTenant(*backend.storage, "C");
        REQUIRE(registrations.save(a.id, "default", a.feedId, registrationOf("https://a.example"), 200));
        REQUIRE(registrations.save(b.id, "default", b.feedId, registrationOf("https://b.example"), 300));
        ShopRegistration hostile = registrationOf("https://c.example");
        hostile.shopVersion = "'; DROP TABLE shop_registrations; -- \xE2\x82\xAC";
        REQUIRE(registrations.save(c.id, "default", c.feedId, hostile, 100));
        std::vector<int64_t> order;
        auto rows = registrations.list().value();
        for (const auto& stored : rows) order.push_back(stored.tenantId);
        CHECK(order == std::vector<int64_t>{b.id, a.id, c.id});
        CHECK(registrations.find(c.id).value()->record == hostile);
        REQUIRE(registrations.recordPull(a.id, 400, "failed: HTTP 500", 0, false));
        auto pulled = registrations.find(a.id).value();
        CHECK(pulled->lastPullAt == 400);
        CHECK(pulled->lastPullResult == "failed: HTTP 500");
        CHECK(registrations.find(b.id).value()->lastPullAt == 0);
    });
}

}  // namespace svc::contract
