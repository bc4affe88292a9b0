#pragma once
// Moves SQLite's WAL checkpoints off a writer's commit path. By default the connection
// that commits runs the checkpoint (copying the log into the database file and syncing
// it) inside the commit that crosses the threshold, and every request of that group
// commit waits for it. Here the writer's commit only signals; a thread with its own
// connection runs a PASSIVE checkpoint, which never blocks the writer or readers.
// Should the thread fall behind, the writer takes over (onCommit) so the log stays bounded.
// Durability is unchanged: a commit is durable once the log is synced (synchronous=FULL).
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class WalCheckpointer {
public:
    // Opens its own connection to `path` and takes over `writer`'s checkpoints: once the
    // log holds `thresholdPages` pages after a commit (SQLite's default is 1000), the
    // thread checkpoints. `writer` must outlive this object.
    static Result<std::unique_ptr<WalCheckpointer>> attach(const std::string& path, SqliteDatabase& writer, int thresholdPages = 1000);
    // Runs a last checkpoint, stops the thread and gives the writer its own checkpoints back.
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer&) = delete;
    WalCheckpointer& operator=(const WalCheckpointer&) = delete;

    // Checkpoints run so far (for tests and diagnostics).
    size_t checkpoints() const;

private:
    WalCheckpointer(std::unique_ptr<SqliteDatabase> connection, SqliteDatabase& writer, int thresholdPages);
    static int onCommit(void* self, sqlite3* db, const char* schema, int pages);
    // A log this many thresholds long is checkpointed by the writer itself (see onCommit).
    static constexpr int kInlineFactor = 4;
    void run();

    std::unique_ptr<SqliteDatabase> connection_;
    SqliteDatabase& writer_;
    int thresholdPages_;
    mutable std::mutex mutex_;
    std::mutex checkpointing_;  // held while either the thread or the writer checkpoints
    std::condition_variable wake_;
    bool due_ = false;
    bool stopping_ = false;
    size_t checkpoints_ = 0;
    std::thread thread_;
};

}  // namespace svc
