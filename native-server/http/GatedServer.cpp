#include "http/GatedServer.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <ctime>

#include "http/RequestHead.hpp"

namespace svc {
namespace {

// cpp-httplib's accept loop hands each socket to its task queue. Handing it to the waiting room
// takes microseconds, so this queue runs that on the accepting thread; the workers are our own.
class HandOverQueue : public httplib::TaskQueue {
public:
    void enqueue(std::function<void()> task) override { task(); }
    void shutdown() override {}
};

// Half of the open-file limit: the other half stays for databases, uploads and outbound fetches,
// so a connection flood never makes SQLite fail to open a file.
int derivedMaxConnections() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 10000;
    return static_cast<int>(std::max<rlim_t>(64, limit.rlim_cur / 2));
}

}  // namespace

GatedServer::GatedServer(ConnectionLimits limits, int threads) : limits_(limits), threads_(std::max(1, threads)) {
    if (limits_.maxConnections <= 0) limits_.maxConnections = derivedMaxConnections();
    stopFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    new_task_queue = [] { return new HandOverQueue; };
    // cpp-httplib's default also sets SO_REUSEPORT, with which a second `serve` on the same port
    // starts too and the kernel splits connections between two data dirs. SO_REUSEADDR alone
    // still lets a restart bind while old connections sit in TIME_WAIT.
    set_socket_options([](socket_t socket) {
        int yes = 1;
        ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    // What cpp-httplib announces in Keep-Alive: timeout=N.
    set_keep_alive_timeout(std::max<time_t>(1, std::chrono::ceil<std::chrono::seconds>(limits_.idleTimeout).count()));
    // An answer to a request that was not read whole says it closes the connection (it will).
    set_post_routing_handler([](const httplib::Request&, httplib::Response& response) {
        GatedStream* stream = GatedStream::current();
        if (!stream || stream->requestConsumed()) return;
        response.headers.erase("Keep-Alive");
        response.headers.erase("Connection");
        response.set_header("Connection", "close");
    });
}

GatedServer::~GatedServer() { ::close(stopFd_); }

int GatedServer::bind_to_any_port(const std::string& host, int socketFlags) {
    int port = httplib::Server::bind_to_any_port(host, socketFlags);
    if (port > 0) widenAcceptQueue();
    return port;
}

bool GatedServer::bind_to_port(const std::string& host, int port, int socketFlags) {
    bool bound = httplib::Server::bind_to_port(host, port, socketFlags);
    if (bound) widenAcceptQueue();
    return bound;
}

// listen() on a listening socket only resizes its queue.
void GatedServer::widenAcceptQueue() {
    if (svr_sock_ != INVALID_SOCKET) ::listen(svr_sock_, SOMAXCONN);
}

bool GatedServer::serve() {
    room_ = std::make_unique<WaitingRoom>(limits_, [this](std::unique_ptr<GatedConnection> connection) {
        std::lock_guard<std::mutex> lock(workersMutex_);
        if (!workers_) return room_->giveBack(std::move(connection), WaitingRoom::Return::Close);
        // std::function needs a copyable task: the connection travels as a raw pointer.
        GatedConnection* handed = connection.release();
        ++queued_;
        workers_->enqueue([this, handed] {
            --queued_;
            work(std::unique_ptr<GatedConnection>(handed));
        });
    });
    workers_ = std::make_unique<httplib::ThreadPool>(static_cast<size_t>(threads_));
    room_->start();
    bool listened = listen_after_bind();
    stopping_ = true;
    uint64_t one = 1;
    (void)::write(stopFd_, &one, sizeof(one));
    room_->stopDispatching();
    std::unique_ptr<httplib::ThreadPool> workers;
    {
        std::lock_guard<std::mutex> lock(workersMutex_);
        workers = std::move(workers_);
    }
    workers->shutdown();  // requests already handed over are answered (closing their connections)
    room_->stop();
    return listened;
}

bool GatedServer::process_and_close_socket(socket_t sock) {
    room_->admit(sock);
    return true;
}

void GatedServer::work(std::unique_ptr<GatedConnection> connection) {
    WaitingRoom::Return how = WaitingRoom::Return::Close;
    try {
        for (;;) {
            bool lastRequest = stopping_ || connection->served + 1 >= keep_alive_max_count_;
            bool clientClosing = false;
            bool answered = false;
            bool consumed = false;
            {
                GatedStream stream(*connection, limits_, payload_max_length_, stopFd_);
                answered = process_request(stream, lastRequest, clientClosing, nullptr);
                consumed = stream.requestConsumed();
                stream.finish();
            }
            ++connection->served;
            if (!answered) break;  // the answer could not be written: the client is gone
            if (!consumed) {
                // The answer went out before the request was read whole: what is left is never
                // read as a request. It is read and thrown away for a while so the client sees
                // the answer, not a reset.
                how = WaitingRoom::Return::Linger;
                break;
            }
            if (clientClosing || lastRequest || stopping_) {
                how = connection->buffer.empty() ? WaitingRoom::Return::Close : WaitingRoom::Return::Linger;
                break;
            }
            if (!nextRequestReady(*connection)) {
                how = WaitingRoom::Return::KeepAlive;
                break;
            }
        }
    } catch (...) {
        how = WaitingRoom::Return::Close;
    }
    room_->giveBack(std::move(connection), how);
}

bool GatedServer::nextRequestReady(GatedConnection& connection) {
    auto completeHead = [&] {
        connection.buffer.erase(0, RequestHead::leadingEmptyLines(connection.buffer));
        size_t end = RequestHead::findEnd(connection.buffer);
        if (end == std::string::npos || end > limits_.maxHeadBytes) return false;
        auto head = RequestHead::parse(std::string_view(connection.buffer).substr(0, end));
        if (!head) return false;  // the waiting room refuses it
        // A small body that has not arrived whole is awaited in the waiting room.
        auto length = head->framing().declaredLength();
        if (length && *length <= limits_.awaitedBodyBytes && !head->expectsContinue() && connection.buffer.size() < end + *length) {
            return false;
        }
        connection.headLength = end;
        connection.framing = head->framing();
        return true;
    };
    // Fair turns: when requests of the same address wait for a worker, this one queues behind them.
    if (connection.othersWaiting && connection.othersWaiting->load(std::memory_order_relaxed) > 0) return false;
    if (!connection.buffer.empty()) return completeHead();
    // A worker waits for a quiet connection only while no request waits for a worker.
    if (limits_.keepAliveHold.count() <= 0 || queued_.load(std::memory_order_relaxed) > 0) return false;
    pollfd socket{connection.fd, POLLIN, 0};
    auto hold = std::chrono::duration_cast<std::chrono::nanoseconds>(limits_.keepAliveHold);
    timespec timeout{static_cast<time_t>(hold.count() / 1'000'000'000), static_cast<long>(hold.count() % 1'000'000'000)};
    if (::ppoll(&socket, 1, &timeout, nullptr) <= 0 || (socket.revents & POLLIN) == 0) return false;
    // A head of more than this goes on in the waiting room.
    std::array<char, 16 * 1024> chunk;
    ssize_t received = ::recv(connection.fd, chunk.data(), std::min(chunk.size(), limits_.maxHeadBytes), MSG_DONTWAIT);
    if (received <= 0) return false;
    connection.buffer.assign(chunk.data(), static_cast<size_t>(received));
    return completeHead();
}

}  // namespace svc
