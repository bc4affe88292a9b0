// The ImageFactStore contract (shared/store/ImageFactStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {
namespace {

ImageFacts factsOf(const Tenant& tenant, const std::string& url, bool ok, int64_t nextAttemptAt = 0) {
    ImageFacts facts;
    facts.tenantId = tenant.id;
    facts.url = url;
    facts.thumbKey = "key-" + url;
    facts.status = ok ? ImageFactStatus::Ok : ImageFactStatus::Failed;
    facts.reason = ok ? "" : "HTTP 429";
    facts.httpStatus = ok ? 200 : 429;
    facts.etag = "\"e1\"";
    facts.contentSha256 = "abc";
    facts.contentType = "image/jpeg";
    facts.bytes = 1234;
    facts.width = 640;
    facts.height = 480;
    facts.colors = {ColorShare{255, 0, 16, 0.6254}, ColorShare{1, 2, 3, 0.25}};
    facts.phash = 0xF00DFACEDEADBEEFull;  // the top bit set: kept through a signed column
    facts.attempts = 2;
    facts.fetchedAt = 100;
    facts.nextAttemptAt = nextAttemptAt;
    return facts;
}

}  // namespace

TEST_CASE("ImageFactStore: facts read back as saved; a save replaces (tenant, url); unknown URLs and keys are absent") {
    forEachBackend([](Backend& backend) {
        ImageFactStore& store = backend.storage->imageFacts();
        Tenant a = newTenant(*backend.storage, "A");
        REQUIRE(store.save(factsOf(a, "https://img.example/1.jpg", false, 500)));
        ImageFacts saved = factsOf(a, "https://img.example/1.jpg", true);
        REQUIRE(store.save(saved));
        auto found = store.find(a.id, saved.url).value();
        REQUIRE(found);
        CHECK(found->ok());
        CHECK(found->etag == saved.etag);
        CHECK(found->bytes == 1234);
        CHECK(found->width == 640);
        CHECK(found->height == 480);
        CHECK(found->phash == saved.phash);
        CHECK(found->attempts == 2);
        REQUIRE(found->colors.size() == 2);
        CHECK(found->colors[0].hex() == "#ff0010");
        CHECK(found->colors[0].share == doctest::Approx(0.625));  // three decimals
        auto byKey = store.findByThumbKey(a.id, saved.thumbKey).value();
        REQUIRE(byKey);
        CHECK(byKey->url == saved.url);
        CHECK(store.find(a.id, "https://img.example/none.jpg").value() == std::nullopt);
        CHECK(store.findByThumbKey(a.id, "no-such-key").value() == std::nullopt);
    });
}

TEST_CASE("ImageFactStore: settled URLs are the ok ones and failures not yet due; fetched holds only ok facts; tenants are apart") {
    forEachBackend([](Backend& backend) {
        ImageFactStore& store = backend.storage->imageFacts();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        REQUIRE(store.save(factsOf(a, "ok", true)));
        REQUIRE(store.save(factsOf(a, "waiting", false, 1000)));
        REQUIRE(store.save(factsOf(a, "due", false, 900)));
        REQUIRE(store.save(factsOf(b, "theirs", true)));
        CHECK(store.settledUrls(a.id, 900).value() == std::set<std::string>{"ok", "waiting"});
        auto fetched = store.fetched(a.id).value();
        REQUIRE(fetched.size() == 1);
        CHECK(fetched[0].url == "ok");
        CHECK(store.find(b.id, "ok").value() == std::nullopt);
        CHECK(store.findByThumbKey(a.id, "key-theirs").value() == std::nullopt);
        CHECK(store.settledUrls(b.id, 900).value() == std::set<std::string>{"theirs"});
    });
}

TEST_CASE("ImageFactStore: hostile URLs and reasons are stored byte for byte") {
    forEachBackend([](Backend& backend) {
        ImageFactStore& store = backend.storage->imageFacts();
        Tenant a = newTenant(*backend.storage, "A");
        for (const auto& text : hostileStrings()) {
            ImageFacts facts = factsOf(a, "https://img.example/" + text, false, 1);
            facts.reason = text;
            REQUIRE(store.save(facts));
            auto found = store.find(a.id, facts.url).value();
            REQUIRE(found);
            CHECK(found->reason == text);
        }
    });
}

TEST_CASE("ImageFactStore: of two storages on one database only one claims an image fetch; an expired or released claim is free again") {
    forEachBackend([](Backend& backend) {
        std::unique_ptr<Storage> other = backend.openAnother();
        ImageFactStore& nodeA = backend.storage->imageFacts();
        ImageFactStore& nodeB = other->imageFacts();
        Tenant shop = newTenant(*backend.storage, "Shop");
        Tenant another = newTenant(*backend.storage, "Another");
        const std::string url = "https://img.example/dress.jpg";
        CHECK(nodeA.claimFetch(shop.id, url, "node-a", 100, 60).value());
        CHECK_FALSE(nodeB.claimFetch(shop.id, url, "node-b", 159, 60).value());
        CHECK(nodeB.claimFetch(another.id, url, "node-b", 159, 60).value());  // another tenant's fetch of the same URL
        CHECK(nodeB.claimFetch(shop.id, url + "?v=2", "node-b", 159, 60).value());
        CHECK(nodeA.claimFetch(shop.id, url, "node-a", 150, 60).value());  // the holder again: renewed until 210
        CHECK_FALSE(nodeB.claimFetch(shop.id, url, "node-b", 200, 60).value());
        CHECK(nodeB.claimFetch(shop.id, url, "node-b", 210, 60).value());  // expired: taken over
        REQUIRE(nodeA.releaseFetch(shop.id, url, "node-a"));               // not A's any more: left alone
        CHECK_FALSE(nodeA.claimFetch(shop.id, url, "node-a", 211, 60).value());
        REQUIRE(nodeB.releaseFetch(shop.id, url, "node-b"));
        CHECK(nodeA.claimFetch(shop.id, url, "node-a", 212, 60).value());
    });
}

}  // namespace svc::contract
