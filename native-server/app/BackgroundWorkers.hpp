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

inline constexpr std::array<BackgroundWorker, 11> kBackgroundWorkers{{
    {"leader election", WorkerPlacement::EveryNode, "",
     "each node tries for the lease leader (app/LeaderElection) every 3 s; the holder renews it, a dead holder's lapses after 15 s"},
    {"import worker", WorkerPlacement::ClaimedWork, "lease import/<id> (ImportLeases) after claimNextQueued",
     "an import applies a feed to the shared catalog once; a dead owner's import is requeued"},
    {"pull scheduler", WorkerPlacement::ClaimedWork, "PullSourceStore::claimDue moves next_run_at by the pull's lease",
     "a feed is fetched once per interval, whichever node is free"},
    {"attributor", WorkerPlacement::ClaimedWork,
     "lease leader: only the leader's background pass books; a report's or return's catch-up books on its own node",
     "purchases are booked into the ledger once: a booking is idempotent (the ledger's keys, a cursor that never moves back), so a catch-up beside the leader's pass costs work, never a double entry"},
    {"retention of interactions", WorkerPlacement::ClaimedWork, "lease leader, once a day",
     "PostgreSQL drops the day partitions past the longest attribution window once; SQLite keeps its events (its reports count them)"},
    {"session and draft expiry", WorkerPlacement::ClaimedWork, "lease leader, every 5 minutes",
     "expired operator sessions and set previews are deleted from the shared tables once, whoever made them"},
    {"rate-limit buckets forgotten", WorkerPlacement::ClaimedWork, "lease leader, every 5 minutes",
     "buckets full again behave as new ones: the shared table keeps only the clients of the last minutes (docs/adr/0094)"},
    {"image bot", WorkerPlacement::ClaimedWork, "ImageFactStore::claimFetch per (tenant, url), released once its facts are saved",
     "each image is fetched once by whichever node claims it; its thumbnail goes to the shared bucket (--blob-url), so every node serves it"},
    {"content index rebuilds", WorkerPlacement::EveryNode, "", "each node serves from its own in-memory snapshot"},
    {"WAL checkpointer", WorkerPlacement::EveryNode, "", "SQLite's WAL is a file of the node that opened it"},
    {"migrations", WorkerPlacement::ClaimedWork, "lease migrations (a backend shared by nodes); SQLite: the write lock",
     "a schema is migrated once, before any node uses it"},
}};

}  // namespace svc
