#pragma once
// cpp-httplib's Server with svc's connection gate (docs/adr/0057). Debian's cpp-httplib 0.11.4
// serves each connection on one pool thread from accept to close, with a per-read timeout only:
// slow or idle clients hold every thread. This subclass takes the accepted socket
// (process_and_close_socket, a private virtual) and runs its own connection lifecycle: the
// WaitingRoom holds connections until a request head has arrived whole, a worker then runs
// cpp-httplib's process_request once on a GatedStream, and hands the connection back.
// A request whose body was not read to its end (an early answer, a refusal, a GET with a body)
// closes its connection: the unread bytes are never parsed as a next request.
#include <httplib.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "http/ConnectionLimits.hpp"
#include "http/GatedConnection.hpp"
#include "http/GatedStream.hpp"
#include "http/WaitingRoom.hpp"

namespace svc {

class GatedServer : public httplib::Server {
public:
    // threads: the workers that run requests (only requests with a complete head reach them).
    GatedServer(ConnectionLimits limits, int threads);
    ~GatedServer() override;

    // Bind as cpp-httplib does, then widen the kernel's queue of connections not yet accepted to SOMAXCONN:
    // Debian's libcpp-httplib listens with a backlog of 5 (compiled into the library, so its
    // CPPHTTPLIB_LISTEN_BACKLOG cannot be set from here), and a burst of connections arriving
    // before the accept loop runs (a node given traffic the moment it starts, an attack then)
    // lost its handshakes past the fifth, which clients retry only a second later. These hide
    // httplib::Server's own: called on a GatedServer, the queue is always the wide one.
    int bind_to_any_port(const std::string& host, int socketFlags = 0);
    bool bind_to_port(const std::string& host, int port, int socketFlags = 0);

    // Serves until stop() (after bind_to_port or bind_to_any_port); returns once every worker is
    // done and every held connection is closed. Body waits end at once when stopping.
    bool serve();
    const ConnectionLimits& limits() const { return limits_; }

private:
    bool process_and_close_socket(socket_t sock) override;
    void widenAcceptQueue();
    void work(std::unique_ptr<GatedConnection> connection);
    // The next request of a kept-alive connection, when it arrives within keepAliveHold.
    bool nextRequestReady(GatedConnection& connection);

    ConnectionLimits limits_;
    int threads_;
    int stopFd_ = -1;  // eventfd, readable once the server stops
    std::atomic<bool> stopping_{false};
    std::atomic<int> queued_{0};  // connections handed to the workers, not yet taken by one
    std::unique_ptr<WaitingRoom> room_;
    std::mutex workersMutex_;  // guards workers_ against the room dispatching while it shuts down
    std::unique_ptr<httplib::ThreadPool> workers_;
};

}  // namespace svc
