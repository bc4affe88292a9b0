// The TenantStore contract (shared/store/TenantStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {

TEST_CASE("TenantStore: a duplicate API ID is AlreadyExists; unknown IDs are absent; a change reaches only its tenant") {
    forEachBackend([](Backend& backend) {
        TenantStore& tenants = backend.storage->tenants();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        Tenant copy = a;
        copy.id = 0;
        copy.feedId = "ffffffff-0000-4000-8000-000000000000";
        auto duplicate = tenants.create(copy);
        REQUIRE_FALSE(duplicate);
        CHECK(duplicate.error().code == ErrorCode::AlreadyExists);
        CHECK(tenants.findByApiId("no-such-api-id").value() == std::nullopt);
        CHECK(tenants.findById(b.id + 1000).value() == std::nullopt);
        REQUIRE(tenants.setDisabled(a.id, true));
        REQUIRE(tenants.setLocale(a.id, "fr-FR"));
        CHECK(tenants.findById(a.id).value()->disabled);
        CHECK(tenants.findById(a.id).value()->locale == "fr-FR");
        CHECK_FALSE(tenants.findById(b.id).value()->disabled);
        CHECK(tenants.findById(b.id).value()->locale == "de-DE");
        CHECK(tenants.list().value().size() >= 2);
    });
}

TEST_CASE("TenantStore: hostile names are stored byte for byte") {
    forEachBackend([](Backend& backend) {
        for (const auto& text : hostileStrings()) {
            Tenant tenant = newTenant(*backend.storage, text);
            CHECK(backend.storage->tenants().findByApiId(tenant.apiId).value()->name == text);
        }
    });
}

}  // namespace svc::contract
