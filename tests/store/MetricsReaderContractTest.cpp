// The MetricsReader contract (shared/store/MetricsReader.hpp) on every backend.
#include "StoreBackends.hpp"

#include <tuple>

namespace svc::contract {

TEST_CASE("MetricsReader: an empty storage answers zeros and empty lists") {
    forEachBackend([](Backend& backend) {
        MetricsReader& metrics = backend.storage->metrics();
        auto queue = metrics.importQueue();
        REQUIRE(queue);
        CHECK(queue->queued == 0);
        CHECK(queue->running == 0);
        CHECK(queue->held == 0);
        CHECK(queue->oldestQueuedAt == 0);
        CHECK(metrics.pullSources().value().empty());
        CHECK(metrics.pushedFeeds().value().empty());
        auto backlog = metrics.bookingBacklog(MetricsReader::kCountCap);
        REQUIRE(backlog);
        CHECK(backlog->claims == 0);
        CHECK(backlog->quarantinedLines == 0);
        auto sizes = metrics.databaseSizes();
        REQUIRE(sizes.size() >= 2);
        CHECK(sizes[0].label == "svc");
        CHECK(sizes[1].label == "events");
    });
}

TEST_CASE("MetricsReader: pull sources are listed by API ID, then feed; queued imports are counted") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        for (const auto& [tenant, feed] : std::vector<std::pair<Tenant, std::string>>{{b, "x"}, {a, "z"}, {a, "m"}}) {
            PullSource source;
            source.tenantId = tenant.id;
            source.feed = feed;
            source.url = "https://shop.example/f.csv";
            source.intervalSeconds = 3600;
            REQUIRE(backend.storage->pullSources().add(source));
        }
        auto listed = backend.storage->metrics().pullSources();
        REQUIRE_MESSAGE(listed, (listed ? "" : listed.error().message));
        std::vector<std::string> order;
        for (const auto& figures : *listed) order.push_back(figures.apiId + "/" + figures.feed);
        // API IDs are random: the expected order follows whichever tenant's ID sorts first.
        std::vector<std::string> expected = {a.apiId + "/m", a.apiId + "/z", b.apiId + "/x"};
        if (b.apiId < a.apiId) expected = {b.apiId + "/x", a.apiId + "/m", a.apiId + "/z"};
        CHECK(order == expected);

        FeedImportRecord record;
        record.tenantId = a.id;
        record.source = "push";
        record.createdAt = 42;
        REQUIRE(backend.storage->imports().create(record));
        auto queue = backend.storage->metrics().importQueue().value();
        CHECK(queue.queued == 1);
        CHECK(queue.oldestQueuedAt == 42);
    });
}

TEST_CASE("MetricsReader: pushed feeds are the feeds with finished imports and no pull source, each with its newest finish and application") {
    forEachBackend([](Backend& backend) {
        Storage& storage = *backend.storage;
        Tenant a = newTenant(storage, "A");
        auto finish = [&](const std::string& feed, ImportStatus status, int64_t finishedAt) {
            FeedImportRecord record;
            record.tenantId = a.id;
            record.feed = feed;
            record.source = "push";
            record.createdAt = finishedAt - 1;
            auto id = storage.imports().create(record);
            REQUIRE_MESSAGE(id, (id ? "" : id.error().message));
            record.id = *id;
            record.status = status;
            record.finishedAt = finishedAt;
            REQUIRE(storage.imports().update(record));
        };
        finish("default", ImportStatus::Applied, 100);
        finish("second", ImportStatus::Failed, 200);
        finish("pulled", ImportStatus::Applied, 250);
        PullSource source;
        source.tenantId = a.id;
        source.feed = "pulled";
        source.url = "https://shop.example/f.csv";
        source.intervalSeconds = 3600;
        REQUIRE(storage.pullSources().add(source));
        finish("default", ImportStatus::Failed, 300);  // a failure after the last application

        auto feeds = storage.metrics().pushedFeeds();
        REQUIRE_MESSAGE(feeds, (feeds ? "" : feeds.error().message));
        std::vector<std::tuple<std::string, std::string, int64_t, int64_t>> seen;
        for (const auto& feed : *feeds) seen.emplace_back(feed.apiId, feed.feed, feed.lastFinishedAt, feed.lastAppliedAt);
        CHECK(seen == decltype(seen){{a.apiId, "default", 300, 100}, {a.apiId, "second", 200, 0}});
    });
}

}  // namespace svc::contract
