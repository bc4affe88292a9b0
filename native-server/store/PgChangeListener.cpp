#include "store/PgChangeListener.hpp"

#include <poll.h>

#include <cerrno>

#include <algorithm>
#include <memory>

#include "store/PgChangeNotifications.hpp"

namespace svc {

PgChangeListener::PgChangeListener(std::string url, Callback callback, Options options)
    : url_(std::move(url)), callback_(std::move(callback)), options_(options) {}

PgChangeListener::~PgChangeListener() { stop(); }

void PgChangeListener::start() {
    std::unique_lock lock(mutex_);
    if (thread_.joinable()) return;
    stopping_ = false;
    firstAttemptDone_ = false;
    thread_ = std::thread([this] { run(); });
    changed_.wait(lock, [this] { return firstAttemptDone_ || stopping_; });
}

void PgChangeListener::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

PGconn* PgChangeListener::connect() {
    // Keepalives first, so the URL may override them: a silently dropped connection (a network
    // partition, a failed-over server) is noticed within about 20 s, not the kernel's 2 h.
    const char* keywords[] = {"keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "connect_timeout",
                              "dbname", "fallback_application_name", "client_encoding", nullptr};
    const char* values[] = {"1", "10", "3", "3", "5", url_.c_str(), "svc-listener", "UTF8", nullptr};
    PGconn* connection = PQconnectdbParams(keywords, values, 1);
    if (connection == nullptr) return nullptr;
    if (PQstatus(connection) != CONNECTION_OK) {
        PQfinish(connection);
        return nullptr;
    }
    PQsetNoticeProcessor(connection, [](void*, const char*) {}, nullptr);
    // Channel names are svc's own constants, never input: identifiers take no parameters.
    std::string listen = std::string("LISTEN ") + PgChangeNotifications::kContentChannel + "; LISTEN " + PgChangeNotifications::kSettingsChannel;
    std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(connection, listen.c_str()), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
        PQfinish(connection);
        return nullptr;
    }
    return connection;
}

bool PgChangeListener::listen(PGconn* connection) {
    while (true) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return true;
        }
        pollfd descriptor{PQsocket(connection), POLLIN, 0};
        int ready = ::poll(&descriptor, 1, static_cast<int>(options_.pollTimeout.count()));
        if (ready < 0 && errno != EINTR) return false;
        if (ready <= 0) continue;
        // Readable with nothing to read is end of file: the server went away.
        if (PQconsumeInput(connection) == 0 || PQstatus(connection) != CONNECTION_OK) return false;
        while (PGnotify* notification = PQnotifies(connection)) {
            std::string channel = notification->relname, payload = notification->extra;
            PQfreemem(notification);
            callback_(channel, payload);
        }
    }
}

void PgChangeListener::sleepFor(std::chrono::milliseconds delay) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, delay, [this] { return stopping_; });
}

void PgChangeListener::run() {
    std::chrono::milliseconds backoff = options_.firstBackoff;
    bool missedSome = false;  // a connection was lost or never made: changes may have gone unseen
    while (true) {
        PGconn* connection = connect();
        listening_ = connection != nullptr;
        {
            std::lock_guard lock(mutex_);
            firstAttemptDone_ = true;
        }
        changed_.notify_all();
        if (connection == nullptr) {
            missedSome = true;
            sleepFor(backoff);
            backoff = std::min(backoff * 2, options_.maxBackoff);
        } else {
            backoff = options_.firstBackoff;
            if (missedSome) callback_("", "");
            missedSome = false;
            bool stopped = listen(connection);
            listening_ = false;
            PQfinish(connection);
            if (!stopped) missedSome = true;
        }
        std::lock_guard lock(mutex_);
        if (stopping_) return;
    }
}

}  // namespace svc
