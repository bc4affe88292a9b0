#pragma once
// Tells this node what other nodes changed (docs/adr/0088): a dedicated libpq connection that
// LISTENs on svc_content (a tenant's content generation was bumped; payload: the tenant id, 0:
// the templates) and svc_settings (a tenant's record or widget settings changed), and a thread
// that hands each notification to `callback(channel, payload)`. NOTIFY is sent in the
// transaction that makes the change, so a notification means a committed change.
//
// When the server goes away the thread reconnects with backoff; notifications sent meanwhile
// are lost, so after every reconnect the callback gets ("", "") ("resync": poll everything).
// The callback runs on the listener's thread and should only wake someone up.
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace svc {

class PgChangeListener {
public:
    using Callback = std::function<void(const std::string& channel, const std::string& payload)>;

    struct Options {
        std::chrono::milliseconds pollTimeout{200};  // how long stop() may wait for the thread to notice
        std::chrono::milliseconds firstBackoff{100};
        std::chrono::milliseconds maxBackoff{5'000};
    };

    PgChangeListener(std::string url, Callback callback) : PgChangeListener(std::move(url), std::move(callback), Options{}) {}
    PgChangeListener(std::string url, Callback callback, Options options);
    ~PgChangeListener();
    PgChangeListener(const PgChangeListener&) = delete;
    PgChangeListener& operator=(const PgChangeListener&) = delete;

    // Starts the thread and returns once its first LISTEN has been attempted: whatever commits
    // after a successful start is reported. If that first attempt failed, the thread keeps
    // trying and reports a resync when it gets through.
    void start();
    void stop();
    // Listening now (tests, /readyz).
    bool listening() const { return listening_.load(); }

private:
    void run();
    // Connects and LISTENs; nullptr when either fails.
    PGconn* connect();
    // Waits for notifications until the connection breaks or stop(); false when it broke.
    bool listen(PGconn* connection);
    void sleepFor(std::chrono::milliseconds delay);

    const std::string url_;
    const Callback callback_;
    const Options options_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    bool firstAttemptDone_ = false;
    std::atomic<bool> listening_{false};
};

}  // namespace svc
