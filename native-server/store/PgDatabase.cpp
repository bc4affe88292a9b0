#include "store/PgDatabase.hpp"

namespace svc {
namespace {

// Idle connections kept for the next calls; more are opened under load and closed after it.
constexpr size_t kIdleConnections = 8;

}  // namespace

Result<std::unique_ptr<PgDatabase>> PgDatabase::open(const std::string& url) {
    auto database = std::unique_ptr<PgDatabase>(new PgDatabase(url));
    auto first = PgConnection::open(url);
    if (!first) return first.error();
    database->giveBack(std::move(*first));
    return database;
}

Result<std::unique_ptr<PgConnection>> PgDatabase::borrow() {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            auto connection = std::move(idle_.back());
            idle_.pop_back();
            return connection;
        }
    }
    return PgConnection::open(url_);  // outside the lock: connecting takes a round trip or more
}

void PgDatabase::giveBack(std::unique_ptr<PgConnection> connection) {
    if (connection->broken()) return;
    std::lock_guard lock(mutex_);
    if (idle_.size() < kIdleConnections) idle_.push_back(std::move(connection));
}

}  // namespace svc
