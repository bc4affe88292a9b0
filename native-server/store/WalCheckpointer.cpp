#include "store/WalCheckpointer.hpp"

namespace svc {

Result<std::unique_ptr<WalCheckpointer>> WalCheckpointer::attach(const std::string& path, SqliteDatabase& writer, int thresholdPages) {
    auto connection = SqliteDatabase::open(path);
    if (!connection) return connection.error();
    std::unique_ptr<WalCheckpointer> checkpointer(new WalCheckpointer(std::move(*connection), writer, thresholdPages));
    // Replaces the automatic checkpoint hook (sqlite3_wal_autocheckpoint installs one too).
    sqlite3_wal_hook(writer.handle(), &WalCheckpointer::onCommit, checkpointer.get());
    return checkpointer;
}

WalCheckpointer::WalCheckpointer(std::unique_ptr<SqliteDatabase> connection, SqliteDatabase& writer, int thresholdPages)
    : connection_(std::move(connection)), writer_(writer), thresholdPages_(thresholdPages), thread_([this] { run(); }) {}

WalCheckpointer::~WalCheckpointer() {
    sqlite3_wal_autocheckpoint(writer_.handle(), thresholdPages_);
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

size_t WalCheckpointer::checkpoints() const {
    std::lock_guard lock(mutex_);
    return checkpoints_;
}

int WalCheckpointer::onCommit(void* self, sqlite3* db, const char*, int pages) {
    auto* checkpointer = static_cast<WalCheckpointer*>(self);
    if (pages < checkpointer->thresholdPages_) return SQLITE_OK;
    if (pages >= kInlineFactor * checkpointer->thresholdPages_) {
        // Under steady load the thread's checkpoints never catch up with the last commit,
        // and SQLite reuses the log from its start only once a checkpoint has copied all of
        // it: the log would grow without bound. The writer copies the rest itself (little:
        // the thread has copied most of it) and the next commit starts the log afresh. It
        // waits for a checkpoint of the thread in progress (a few milliseconds, and only when
        // the thread fell behind): run at the same time, one of the two would find the
        // checkpoint lock taken and do nothing, and the log would grow on.
        std::lock_guard running(checkpointer->checkpointing_);
        (void)sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        return SQLITE_OK;
    }
    {
        std::lock_guard lock(checkpointer->mutex_);
        checkpointer->due_ = true;
    }
    checkpointer->wake_.notify_one();
    return SQLITE_OK;
}

void WalCheckpointer::run() {
    while (true) {
        bool last = false;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return due_ || stopping_; });
            last = stopping_;
            due_ = false;
        }
        // PASSIVE copies what no reader still needs and never waits for a lock; what it
        // leaves behind is taken by the next one. A failure (e.g. SQLITE_BUSY) is harmless
        // for the same reason, so it is not reported.
        {
            std::lock_guard running(checkpointing_);
            (void)sqlite3_wal_checkpoint_v2(connection_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        }
        {
            std::lock_guard lock(mutex_);
            ++checkpoints_;
        }
        if (last) return;
    }
}

}  // namespace svc
