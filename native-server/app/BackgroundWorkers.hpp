#pragma once
// Where each background worker of svc may run once several nodes share one Storage
// (docs/adr/0078). Work on node-local state runs on every node; work whose effect lives in
// storage and must happen once is claimed through Storage::leases() (or a claim of its own
// rows, which is the same rule: an owner and an expiry, never a flock).
#include <array>
#include <string_view>

namespace svc {

enum class WorkerPlacement {
    EveryNode,   // node-local state (memory, local files): each node runs its own
    ClaimedWork  // shared state: each unit of work is claimed in storage before it runs
};

struct BackgroundWorker {
    std::string_view name;
    WorkerPlacement placement;
    std::string_view claim;  // the lease or row claim that makes it run once
    std::string_view why;
};

inline constexpr std::array<BackgroundWorker, 7> kBackgroundWorkers{{
    {"import worker", WorkerPlacement::ClaimedWork, "lease import/<id> (ImportLeases) after claimNextQueued",
     "an import applies a feed to the shared catalog once; a dead owner's import is requeued"},
    {"pull scheduler", WorkerPlacement::ClaimedWork, "PullSourceStore::claimDue moves next_run_at by the pull's lease",
     "a feed is fetched once per interval, whichever node is free"},
    {"attributor", WorkerPlacement::ClaimedWork, "lease attributor (with a shared backend); SQLite: the ledger's cursor moves in the booking's transaction",
     "purchases are booked into the ledger once"},
    {"image bot", WorkerPlacement::ClaimedWork, "ImageFactStore::claimFetch per (tenant, url), released once its facts are saved",
     "each image is fetched once by whichever node claims it; its thumbnail goes to the shared bucket (--blob-url), so every node serves it"},
    {"content index rebuilds", WorkerPlacement::EveryNode, "", "each node serves from its own in-memory snapshot"},
    {"WAL checkpointer", WorkerPlacement::EveryNode, "", "SQLite's WAL is a file of the node that opened it"},
    {"migrations", WorkerPlacement::ClaimedWork, "lease migrations (a backend shared by nodes); SQLite: the write lock",
     "a schema is migrated once, before any node uses it"},
}};

}  // namespace svc
