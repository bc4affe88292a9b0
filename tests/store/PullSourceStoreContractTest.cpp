// The PullSourceStore contract (shared/store/PullSourceStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {
namespace {

PullSource sourceOf(const Tenant& tenant, const std::string& feed, int64_t nextRunAt = 0) {
    PullSource source;
    source.tenantId = tenant.id;
    source.feed = feed;
    source.url = "https://shop.example/" + feed + ".csv";
    source.intervalSeconds = 3600;
    source.nextRunAt = nextRunAt;
    return source;
}

}  // namespace

TEST_CASE("PullSourceStore: one source per tenant and feed; the same feed name of another tenant is another source") {
    forEachBackend([](Backend& backend) {
        PullSourceStore& sources = backend.storage->pullSources();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        auto added = sources.add(sourceOf(a, "default"));
        REQUIRE(added);
        CHECK(added->id > 0);
        auto duplicate = sources.add(sourceOf(a, "default"));
        REQUIRE_FALSE(duplicate);
        CHECK(duplicate.error().code == ErrorCode::AlreadyExists);
        CHECK(duplicate.error().message.find("'default'") != std::string::npos);
        REQUIRE(sources.add(sourceOf(b, "default")));
        CHECK(sources.list(a.id)->size() == 1);
        CHECK(sources.list(b.id)->size() == 1);
        CHECK(sources.list(b.id)->front().tenantId == b.id);
    });
}

TEST_CASE("PullSourceStore: lists are ordered (a tenant's by feed, all by id); unknown feeds are absent, not errors") {
    forEachBackend([](Backend& backend) {
        PullSourceStore& sources = backend.storage->pullSources();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        for (const char* feed : {"stock", "default", "prices"}) REQUIRE(sources.add(sourceOf(a, feed)));
        REQUIRE(sources.add(sourceOf(b, "other")));
        std::vector<std::string> feeds;
        auto rows = sources.list(a.id).value();
        for (const auto& source : rows) feeds.push_back(source.feed);
        CHECK(feeds == std::vector<std::string>{"default", "prices", "stock"});
        auto all = sources.listAll().value();
        REQUIRE(all.size() == 4);
        for (size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1].id < all[i].id);
        CHECK(sources.find(a.id, "nothing").value() == std::nullopt);
        CHECK(sources.find(b.id, "stock").value() == std::nullopt);  // a's feed, not b's
        CHECK(sources.remove(a.id, "nothing").value() == false);
        CHECK(sources.remove(b.id, "stock").value() == false);
        CHECK(sources.find(a.id, "stock").value() != std::nullopt);
        PullSource unknown = sourceOf(a, "nothing");
        auto changed = sources.change(unknown);
        REQUIRE_FALSE(changed);
        CHECK(changed.error().code == ErrorCode::NotFound);
        CHECK(sources.remove(a.id, "stock").value() == true);
        CHECK(sources.find(a.id, "stock").value() == std::nullopt);
    });
}

TEST_CASE("PullSourceStore: the source due longest is claimed once; its next run moves by the lease") {
    forEachBackend([](Backend& backend) {
        PullSourceStore& sources = backend.storage->pullSources();
        Tenant a = newTenant(*backend.storage, "A");
        REQUIRE(sources.add(sourceOf(a, "later", 500)));
        REQUIRE(sources.add(sourceOf(a, "first", 100)));
        REQUIRE(sources.add(sourceOf(a, "future", 5000)));
        auto claimed = sources.claimDue(1000, 60);
        REQUIRE(claimed);
        REQUIRE(*claimed);
        CHECK((*claimed)->feed == "first");
        CHECK(sources.find(a.id, "first").value()->nextRunAt == 1060);
        // Another node claiming at the same time gets the next one, never the same.
        auto another = backend.openAnother();
        auto second = another->pullSources().claimDue(1000, 60);
        REQUIRE(second);
        REQUIRE(*second);
        CHECK((*second)->feed == "later");
        CHECK(sources.claimDue(1000, 60).value() == std::nullopt);
        // Their leases ran out together: due again, the tie going by id.
        CHECK(sources.claimDue(1060, 60).value()->feed == "later");
        CHECK(sources.claimDue(1060, 60).value()->feed == "first");
    });
}

TEST_CASE("PullSourceStore: URLs, feeds and sealed credentials are stored byte for byte") {
    forEachBackend([](Backend& backend) {
        PullSourceStore& sources = backend.storage->pullSources();
        Tenant a = newTenant(*backend.storage, "A");
        int n = 0;
        for (const auto& text : hostileStrings()) {
            PullSource source = sourceOf(a, text.substr(0, 100) + std::to_string(++n));
            source.url = "https://shop.example/?q=" + text;
            source.sealedCredentials = text;
            REQUIRE(sources.add(source));
            auto found = sources.find(a.id, source.feed);
            REQUIRE(found);
            REQUIRE(*found);
            CHECK((*found)->url == source.url);
            CHECK((*found)->sealedCredentials == text);
        }
    });
}

}  // namespace svc::contract
