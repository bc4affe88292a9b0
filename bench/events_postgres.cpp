// bench-events-postgres: the events endpoint's group commit on PostgreSQL (issue 24, docs/adr/0089) against its floor.
//
// In process, on the PostgreSQL server in SVC_BENCH_DATABASE_URL (a postgresql:// URI whose role may create schemas;
// each run works in schemas of its own, dropped at the end), for each commit size (events per transaction):
//   (b) svc: PgEventStore::append with batches of requests as the endpoint's group commit hands them over
//       (SDK beacons of 10 widget events, 2% purchases of 2 lines as their own requests, 1,000 tenants): the tenants'
//       ordering locks, the claims' classification, interactions, daily view counters, orders, one transaction each;
//   (a) the floor: the same events as a bare INSERT loop, one INSERT per event (and per order line) into a plain table
//       of every event's columns, one BEGIN/COMMIT per batch of the same size, on the same kind of connection.
// Both are durable before they return only if the server runs with fsync=on and synchronous_commit=on (printed).
// The issue's target: (b) >= 50% of (a). After each run the stored rows are counted against the events acknowledged.
// Exit status: 0 when every step ran (PASS or FAIL is a measurement), 1 when a step failed, 2 on a bad command line.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "BenchSupport.hpp"
#include "PgInsertFloor.hpp"
#include "store/PgConnection.hpp"
#include "store/PgStorage.hpp"

namespace {

using namespace bench;
using namespace bench::pg;
using SteadyClock = std::chrono::steady_clock;

struct Options {
    long events = 100000;
    std::vector<long> batches{32, 320, 1000};
    long writers = 1;
    long tenants = 1000;
};

class FixedClock : public svc::Clock {
public:
    int64_t nowSeconds() const override { return 1'750'000'000; }
};

// One request of the endpoint: a tenant and its events.
struct Request {
    int64_t tenantId = 0;
    std::vector<svc::TrackingEvent> events;
};
using Batch = std::vector<Request>;

std::vector<Batch> generate(const Options& options, long batchEvents, uint32_t seed) {
    Rng rng(seed);
    std::vector<Batch> batches;
    long made = 0, orders = 0;
    while (made < options.events) {
        Batch& batch = batches.emplace_back();
        long inBatch = 0;
        while (inBatch < batchEvents && made < options.events) {
            Request& request = batch.emplace_back();
            request.tenantId = 1 + rng.below(static_cast<uint32_t>(options.tenants));
            std::string cid = "c" + std::to_string(rng.next());
            if (rng.percent(2)) {
                request.events.push_back(svc::PurchaseEvent{"o" + std::to_string(seed) + "-" + std::to_string(++orders), cid,
                                                            {{"SKU-" + std::to_string(rng.below(5000)), 1, 1999}, {"SKU-1", 2, 500}}});
            } else {
                for (int i = 0; i < 10 && made + static_cast<long>(request.events.size()) < options.events; ++i) {
                    svc::WidgetEvent event;
                    uint32_t kind = rng.below(10);
                    event.type = kind < 7 ? svc::WidgetEventType::View : kind < 9 ? svc::WidgetEventType::Click : svc::WidgetEventType::AddToCart;
                    event.cid = cid;
                    event.sku = "SKU-" + std::to_string(rng.below(5000));
                    event.setId = "set-" + std::to_string(rng.below(50));
                    event.clientTimeMs = 1'750'000'000'000;
                    request.events.push_back(std::move(event));
                }
            }
            made += static_cast<long>(request.events.size());
            inBatch += static_cast<long>(request.events.size());
        }
    }
    return batches;
}

struct RunResult {
    double seconds = 0;
    long events = 0;
    std::vector<double> commitMs;
};

// Runs `commit` for every batch on `writers` threads (each its own connection or store call); the wall time.
template <typename Commit>
RunResult timed(const std::vector<Batch>& batches, long writers, Commit commit) {
    RunResult result;
    std::atomic<size_t> next{0};
    std::vector<std::vector<double>> latencies(static_cast<size_t>(writers));
    std::vector<std::string> errors(static_cast<size_t>(writers));
    auto start = SteadyClock::now();
    std::vector<std::thread> threads;
    for (long w = 0; w < writers; ++w) {
        threads.emplace_back([&, w] {
            try {
                for (size_t i = next++; i < batches.size(); i = next++) {
                    auto began = SteadyClock::now();
                    commit(static_cast<size_t>(w), batches[i]);
                    latencies[static_cast<size_t>(w)].push_back(std::chrono::duration<double, std::milli>(SteadyClock::now() - began).count());
                }
            } catch (const std::exception& error) {
                errors[static_cast<size_t>(w)] = error.what();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    result.seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    for (const auto& error : errors) {
        if (!error.empty()) throw StepFailure(error);
    }
    for (const auto& batch : batches) {
        for (const auto& request : batch) result.events += static_cast<long>(request.events.size());
    }
    for (auto& list : latencies) result.commitMs.insert(result.commitMs.end(), list.begin(), list.end());
    std::sort(result.commitMs.begin(), result.commitMs.end());
    return result;
}

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())))];
}

RunResult runSvc(const std::string& serverUrl, const std::vector<Batch>& batches, long writers, long batchEvents) {
    Schema schema(serverUrl, "svc_bench_events_" + std::to_string(::getpid()) + "_" + std::to_string(batchEvents));
    FixedClock clock;
    auto storage = svc::PgStorage::open(schema.url(), clock);
    if (!storage) throw StepFailure(storage.error().message);
    svc::EventStore& events = (*storage)->events();
    RunResult result = timed(batches, writers, [&](size_t, const Batch& batch) {
        std::vector<svc::EventAppend> requests;
        for (const auto& request : batch) requests.push_back({request.tenantId, request.events});
        auto appended = events.append(requests, clock.nowSeconds());
        if (!appended) throw StepFailure("append: " + appended.error().message);
    });
    auto check = connect(schema.url());
    int64_t stored = single(*check, "SELECT (SELECT coalesce(sum(views + clicks + add_to_carts), 0) FROM event_counts) + "
                                    "(SELECT count(*) FROM order_claims)");
    if (stored != result.events) {
        throw StepFailure("svc stored " + std::to_string(stored) + " events of " + std::to_string(result.events) + " acknowledged");
    }
    return result;
}

// The same events as FloorEvent rows, made before the clock starts.
std::vector<FloorBatch> floorBatches(const std::vector<Batch>& batches) {
    std::vector<FloorBatch> rows;
    for (const auto& batch : batches) {
        FloorBatch& floorBatch = rows.emplace_back();
        for (const auto& request : batch) {
            for (const auto& event : request.events) {
                FloorEvent& row = floorBatch.emplace_back();
                row.tenantId = request.tenantId;
                if (const auto* purchase = std::get_if<svc::PurchaseEvent>(&event)) {
                    row.type = "purchase";
                    row.cid = purchase->cid;
                    row.orderId = purchase->orderId;
                    for (const auto& line : purchase->lines) row.lines.push_back({line.sku, line.amount, line.price.cents()});
                    continue;
                }
                const auto& widget = std::get<svc::WidgetEvent>(event);
                row.type = svc::widgetEventTypeName(widget.type);
                row.cid = widget.cid;
                row.sid = widget.sid;
                row.widget = std::string(svc::widgetTypeName(widget.widget));
                row.touchpoint = std::string(svc::touchpointName(widget.touchpoint));
                row.sku = widget.sku;
                row.setId = widget.setId;
                row.testGroup = widget.testGroup;
                row.variant = widget.variant;
                row.clientTime = widget.clientTimeMs;
            }
        }
    }
    return rows;
}

RunResult runFloor(const std::string& serverUrl, const std::vector<Batch>& batches, long writers, long batchEvents) {
    Schema schema(serverUrl, "svc_bench_floor_" + std::to_string(::getpid()) + "_" + std::to_string(batchEvents));
    std::vector<std::unique_ptr<InsertFloor>> floors;
    for (long w = 0; w < writers; ++w) floors.push_back(std::make_unique<InsertFloor>(schema.url(), w == 0));
    std::vector<FloorBatch> rows = floorBatches(batches);
    const int64_t now = 1'750'000'000;
    RunResult result = timed(batches, writers, [&](size_t writer, const Batch& batch) {
        floors[writer]->commit(rows[static_cast<size_t>(&batch - batches.data())], now);
    });
    int64_t stored = floors[0]->storedEvents();
    if (stored != result.events) throw StepFailure("the floor stored " + std::to_string(stored) + " of " + std::to_string(result.events));
    return result;
}

void printHelp() {
    std::cout << R"(bench-events-postgres: the events group commit on PostgreSQL against a bare INSERT loop (issue 24)

usage: SVC_BENCH_DATABASE_URL=postgresql://USER@HOST:PORT/DB build/bin/bench-events-postgres
           [--events N] [--batch N[,N...]] [--writers N] [--tenants N]

  --events N    events per run (default 100000)
  --batch LIST  events per commit, one run each (default 32,320,1000: the group commits of 32 clients sending
                single events and beacons of 10, and a large one)
  --writers N   concurrent committers, each with its own connection (default 1; 2 or 3: as many nodes)
  --tenants N   tenants the events are spread over (default 1000)

The role in SVC_BENCH_DATABASE_URL must be allowed to create schemas; the run's schemas are dropped at the end.
Durable only with the server's fsync=on and synchronous_commit=on (the run prints them).
)";
}

int parseOptions(int argc, char** argv, Options& options) {
    CommandLine args(argc, argv);
    while (args.next()) {
        if (args.isHelp()) {
            printHelp();
            return 1;
        } else if (args.is("--events")) {
            options.events = args.number(1, 100'000'000);
        } else if (args.is("--writers")) {
            options.writers = args.number(1, 64);
        } else if (args.is("--tenants")) {
            options.tenants = args.number(1, 1'000'000);
        } else if (args.is("--batch")) {
            options.batches.clear();
            std::string list = args.value();
            for (size_t at = 0; at <= list.size();) {
                size_t comma = std::min(list.find(',', at), list.size());
                std::string item = list.substr(at, comma - at);
                if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 6 || std::stol(item) < 1) {
                    throw std::invalid_argument("--batch: '" + item + "' is not a whole number from 1 to 999999");
                }
                options.batches.push_back(std::stol(item));
                at = comma + 1;
            }
        } else {
            args.unknown();
        }
    }
    return 0;
}

int run(const Options& options) {
    const char* url = std::getenv("SVC_BENCH_DATABASE_URL");
    if (!url || !*url) throw StepFailure("SVC_BENCH_DATABASE_URL is not set (a postgresql:// URI; see --help)");
    auto server = connect(url);
    std::cout << "bench-events-postgres: " << withThousands(static_cast<uint64_t>(options.events)) << " events per run, "
              << options.writers << " writer(s), " << options.tenants << " tenants; PostgreSQL " << setting(*server, "server_version")
              << ", " << durability(*server)
              << "\n\n";
    std::cout << padRight("events/commit", 15) << padLeft("svc events/s", 14) << padLeft("p50 ms", 9) << padLeft("p99 ms", 9)
              << padLeft("floor events/s", 16) << padLeft("p50 ms", 9) << padLeft("share", 8) << "  target >= 50%\n";
    uint32_t seed = 1;
    for (long batchEvents : options.batches) {
        auto batches = generate(options, batchEvents, seed++);
        RunResult floor = runFloor(url, batches, options.writers, batchEvents);
        RunResult svcRun = runSvc(url, batches, options.writers, batchEvents);
        double svcRate = static_cast<double>(svcRun.events) / svcRun.seconds;
        double floorRate = static_cast<double>(floor.events) / floor.seconds;
        double share = svcRate / floorRate;
        std::cout << padRight(std::to_string(batchEvents), 15) << padLeft(withThousands(static_cast<uint64_t>(svcRate + 0.5)), 14)
                  << padLeft(fixed(percentile(svcRun.commitMs, 0.5), 2), 9) << padLeft(fixed(percentile(svcRun.commitMs, 0.99), 2), 9)
                  << padLeft(withThousands(static_cast<uint64_t>(floorRate + 0.5)), 16) << padLeft(fixed(percentile(floor.commitMs, 0.5), 2), 9)
                  << padLeft(fixed(100 * share, 0) + "%", 8) << "  " << (share >= 0.5 ? "PASS" : "FAIL") << "\n";
    }
    std::cout << "\n  svc: PgEventStore::append (ordering locks, claims classified, interactions + daily view counters); stored = acknowledged, checked\n"
              << "  floor: one INSERT per event and order line into a plain table, one transaction per commit\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::benchMain<Options>("bench-events-postgres", argc, argv, parseOptions, run); }
