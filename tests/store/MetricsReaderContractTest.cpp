// The MetricsReader contract (shared/store/MetricsReader.hpp) on every backend.
#include "StoreBackends.hpp"

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

}  // namespace svc::contract
