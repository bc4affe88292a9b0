#pragma once
// The gauges of /metrics gathered at scrape time: import queue and held imports, feed
// staleness per pull source, purchases waiting to be booked, how current the served content
// is, the image bot's queue, the event writer's oldest uncommitted request, and the sizes of
// the data dir's database files. Each is bounded work: in-memory state, an index over a small
// set, configuration (pull sources, tenants), or a directory listing; never the event table
// or the import history. Scrapes run one at a time (the reader's connections are not shared).
#include <mutex>

#include "core/Clock.hpp"
#include "metrics/ExpositionWriter.hpp"
#include "store/MetricsReader.hpp"

namespace svc {

class ContentIndex;
class EventWriter;
class ImageBot;
class TenantStore;

struct GaugeSources {
    const Clock* clock = nullptr;
    MetricsReader* storage = nullptr;  // null: the storage gauges are left out
    const EventWriter* events = nullptr;
    const ContentIndex* content = nullptr;
    const ImageBot* imageBot = nullptr;  // null: the bot is off
    TenantStore* tenants = nullptr;      // names the tenants of per-tenant gauges; null: those are left out
};

class OperationalGauges {
public:
    explicit OperationalGauges(GaugeSources sources) : sources_(std::move(sources)) {}
    void render(ExpositionWriter& out);

private:
    void renderStorage(ExpositionWriter& out, int64_t now);
    void renderFiles(ExpositionWriter& out) const;

    GaugeSources sources_;
    std::mutex scrapeMutex_;
};

}  // namespace svc
