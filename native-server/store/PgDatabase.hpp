#pragma once
// The connections of one PostgreSQL database (docs/adr/0086): a store borrows one per call, so
// stores are safe to use from many threads and calls on different threads run side by side. A
// connection found broken after a call is dropped; the next call opens a new one, so a
// restarted server costs the calls in flight, not the process.
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "store/PgConnection.hpp"

namespace svc {

class PgDatabase {
public:
    // Connects once, so that a wrong URL or an unreachable server fails here, naming host and port.
    static Result<std::unique_ptr<PgDatabase>> open(const std::string& url);

    // Runs `body(PgConnection&)` on a borrowed connection; its Result or Status is returned, or
    // the error of connecting.
    template <typename Body>
    auto withConnection(Body&& body) -> std::invoke_result_t<Body, PgConnection&> {
        auto connection = borrow();
        if (!connection) return connection.error();
        auto result = body(**connection);
        giveBack(std::move(*connection));
        return result;
    }

    // For work that spans several calls (a catalog import's transaction): the connection is the
    // caller's until it gives it back.
    Result<std::unique_ptr<PgConnection>> borrow();
    void giveBack(std::unique_ptr<PgConnection> connection);

private:
    explicit PgDatabase(std::string url) : url_(std::move(url)) {}

    const std::string url_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<PgConnection>> idle_;
};

}  // namespace svc
