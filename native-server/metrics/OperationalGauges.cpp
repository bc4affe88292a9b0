#include "metrics/OperationalGauges.hpp"

#include <algorithm>
#include <iostream>

#include "feed/FeedFreshness.hpp"
#include "imagebot/ImageBot.hpp"
#include "recommend/ContentIndex.hpp"
#include "store/TenantStore.hpp"
#include "tracking/EventWriter.hpp"

namespace svc {

void OperationalGauges::render(ExpositionWriter& out) {
    std::lock_guard lock(scrapeMutex_);
    int64_t now = sources_.clock->nowSeconds();
    if (sources_.storage) renderStorage(out, now);

    if (sources_.events) {
        out.family("svc_event_oldest_uncommitted_age_seconds", "gauge",
                   "Seconds since the oldest POST /events request not yet committed reached the event writer (0: none waits).");
        out.sample("svc_event_oldest_uncommitted_age_seconds", sources_.events->oldestUncommittedSeconds());
    }
    if (sources_.content) {
        auto freshness = sources_.content->freshness();
        out.family("svc_content_tenants_loaded", "gauge", "Tenants whose content snapshot is in memory.");
        out.sample("svc_content_tenants_loaded", static_cast<double>(freshness.tenantsLoaded));
        out.family("svc_content_tenants_behind", "gauge", "Tenants whose served content lacks a catalog or content change that arrived.");
        out.sample("svc_content_tenants_behind", static_cast<double>(freshness.tenantsBehind));
        out.family("svc_content_behind_seconds", "gauge",
                   "The longest a tenant's served content has lacked a change, in seconds since the change arrived (0: all current).");
        out.sample("svc_content_behind_seconds", freshness.maxBehindSeconds);
        out.family("svc_content_generation_age_seconds", "gauge", "Seconds since the oldest served content snapshot was built.");
        out.sample("svc_content_generation_age_seconds", freshness.maxAgeSeconds);
        if (sources_.tenants && freshness.tenantsLoaded > 0) {
            // Up to where each loaded tenant's content learned from its purchases (ADR 0074).
            auto learned = sources_.content->learned();
            out.family("svc_content_learned_orders", "gauge", "Orders the tenant's served content has learned from.");
            for (const auto& tenant : learned) {
                auto found = sources_.tenants->findById(tenant.tenantId);
                if (found && *found) out.sample("svc_content_learned_orders", {{"tenant", (*found)->apiId}}, static_cast<double>(tenant.orders));
            }
            out.family("svc_content_learned_last_order_timestamp_seconds", "gauge",
                       "Unix time the newest order the tenant's served content learned from arrived (0: none yet).");
            for (const auto& tenant : learned) {
                auto found = sources_.tenants->findById(tenant.tenantId);
                if (found && *found)
                    out.sample("svc_content_learned_last_order_timestamp_seconds", {{"tenant", (*found)->apiId}},
                               static_cast<double>(tenant.lastOrderReceivedAt));
            }
        }
    }
    if (sources_.imageBot) {
        auto backlog = sources_.imageBot->backlog();
        auto stats = sources_.imageBot->stats();
        out.family("svc_imagebot_queue_urls", "gauge", "Image URLs waiting for the image bot.");
        out.sample("svc_imagebot_queue_urls", static_cast<double>(backlog.queued));
        out.family("svc_imagebot_in_flight", "gauge", "Image fetches under way.");
        out.sample("svc_imagebot_in_flight", static_cast<double>(backlog.inFlight));
        out.family("svc_imagebot_fetches_total", "counter", "Image requests the image bot sent, retries included.");
        out.sample("svc_imagebot_fetches_total", static_cast<double>(stats.fetches));
        out.family("svc_imagebot_images_total", "counter", "Image URLs the image bot finished, by outcome (ok, failed).");
        out.sample("svc_imagebot_images_total", {{"outcome", "ok"}}, static_cast<double>(stats.succeeded));
        out.sample("svc_imagebot_images_total", {{"outcome", "failed"}}, static_cast<double>(stats.failed));
        out.family("svc_imagebot_failures_total", "counter", "Image URLs the image bot gave up on (not an image, too large, unreachable).");
        out.sample("svc_imagebot_failures_total", static_cast<double>(stats.failed));
    }
    if (sources_.storage) renderFiles(out);
}

void OperationalGauges::renderStorage(ExpositionWriter& out, int64_t now) {
    // A failed query leaves its family out (promtool and alerts see it absent); the reason is logged.
    auto report = [](const Error& error) { std::cerr << "svc-server: metrics: " << error.message << std::endl; };
    if (auto queue = sources_.storage->importQueue()) {
        out.family("svc_feed_imports_pending", "gauge", "Feed imports waiting (queued) or under way (running).");
        out.sample("svc_feed_imports_pending", {{"status", "queued"}}, static_cast<double>(queue->queued));
        out.sample("svc_feed_imports_pending", {{"status", "running"}}, static_cast<double>(queue->running));
        out.family("svc_feed_imports_held", "gauge", "Full feeds held for the operator's confirmation (they would delete too much).");
        out.sample("svc_feed_imports_held", static_cast<double>(queue->held));
        out.family("svc_feed_import_oldest_queued_age_seconds", "gauge", "Seconds the oldest queued import has waited (0: none queued).");
        out.sample("svc_feed_import_oldest_queued_age_seconds",
                   queue->oldestQueuedAt ? static_cast<double>(std::max<int64_t>(0, now - queue->oldestQueuedAt)) : 0.0);
    } else {
        report(queue.error());
    }
    // Pulled feeds are stale after twice their interval, pushed ones after 48 hours (FeedFreshness,
    // the console's rule); a feed never applied counts from when it was added or first failed.
    auto sources = sources_.storage->pullSources();
    auto pushed = sources_.storage->pushedFeeds();
    if (sources && pushed) {
        out.family("svc_feed_seconds_since_import", "gauge",
                   "Seconds since the feed was last applied (since it was added or first failed when never), by tenant, feed and source (pull, push).");
        int64_t stale = 0;
        double oldest = 0;
        auto sample = [&](const std::string& apiId, const std::string& feed, const char* source, int64_t lastAppliedAt, int64_t since,
                          std::optional<int64_t> interval) {
            double age = static_cast<double>(std::max<int64_t>(0, now - (lastAppliedAt ? lastAppliedAt : since)));
            out.sample("svc_feed_seconds_since_import", {{"tenant", apiId}, {"feed", feed}, {"source", source}}, age);
            oldest = std::max(oldest, age);
            auto state = FeedFreshness::of({lastAppliedAt, interval}, now).state;
            int64_t staleAfter = interval ? 2 * *interval : FeedFreshness::kPushedStaleAfter;
            if (state == FeedState::Stale || (state == FeedState::Never && now - since > staleAfter)) ++stale;
        };
        for (const auto& source : *sources) {
            sample(source.apiId, source.feed, "pull", source.lastAppliedAt, source.createdAt, source.intervalSeconds);
        }
        for (const auto& feed : *pushed) sample(feed.apiId, feed.feed, "push", feed.lastAppliedAt, feed.lastFinishedAt, std::nullopt);
        out.family("svc_feed_max_seconds_since_import", "gauge", "The largest svc_feed_seconds_since_import (0: no feeds).");
        out.sample("svc_feed_max_seconds_since_import", oldest);
        out.family("svc_feeds_stale", "gauge",
                   "Feeds not applied for twice their pull interval, or for 48 hours when pushed (the console's stale).");
        out.sample("svc_feeds_stale", static_cast<double>(stale));
    } else {
        report(sources ? pushed.error() : sources.error());
    }
    if (auto backlog = sources_.storage->bookingBacklog(MetricsReader::kCountCap)) {
        out.family("svc_purchases_unbooked", "gauge",
                   "Claims on orders (purchases, the shop's confirmations) stored but not yet booked into the ledger (per tenant at most 100000).");
        out.sample("svc_purchases_unbooked", static_cast<double>(backlog->claims));
        out.family("svc_purchases_unbooked_oldest_age_seconds", "gauge", "Seconds since the oldest claim not yet booked arrived (0: none).");
        out.sample("svc_purchases_unbooked_oldest_age_seconds",
                   backlog->oldestReceivedAt ? static_cast<double>(std::max<int64_t>(0, now - backlog->oldestReceivedAt)) : 0.0);
        out.family("svc_ledger_quarantined_lines", "gauge", "Order lines set aside because their money could not be booked (ledger_quarantine).");
        out.sample("svc_ledger_quarantined_lines", static_cast<double>(backlog->quarantinedLines));
    } else {
        report(backlog.error());
    }
}

void OperationalGauges::renderFiles(ExpositionWriter& out) const {
    auto sizes = sources_.storage->databaseSizes();
    out.family("svc_database_size_bytes", "gauge", "Bytes of storage: on SQLite each database file of the data dir (without its WAL); on PostgreSQL the whole database (svc) and its event and ledger tables (events).");
    for (const auto& database : sizes) {
        if (database.bytes) out.sample("svc_database_size_bytes", {{"database", database.label}}, static_cast<double>(*database.bytes));
    }
    out.family("svc_database_wal_size_bytes", "gauge", "Bytes of each SQLite database's write-ahead log in the data dir.");
    for (const auto& database : sizes) {
        if (database.walBytes) out.sample("svc_database_wal_size_bytes", {{"database", database.label}}, static_cast<double>(*database.walBytes));
    }
}

}  // namespace svc
