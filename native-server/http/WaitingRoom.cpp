#include "http/WaitingRoom.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "http/RequestHead.hpp"

namespace svc {
namespace {

// Deadlines are checked this often: a tenth of a second is nothing against seconds of limits,
// and a sweep over every held connection costs microseconds.
constexpr auto kSweepInterval = std::chrono::milliseconds(100);
constexpr size_t kHeadReadChunk = 16 * 1024;

// What the per-address limits count (see GatedConnection::address).
std::string addressOf(int fd) {
    sockaddr_storage peer{};
    socklen_t length = sizeof(peer);
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0) return "unknown";
    std::array<char, INET6_ADDRSTRLEN> text{};
    if (peer.ss_family == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&peer)->sin_addr, text.data(), text.size());
        return text.data();
    }
    if (peer.ss_family != AF_INET6) return "unknown";
    in6_addr address = reinterpret_cast<sockaddr_in6*>(&peer)->sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&address)) {
        ::inet_ntop(AF_INET, address.s6_addr + 12, text.data(), text.size());
        return text.data();
    }
    std::fill(address.s6_addr + 8, address.s6_addr + 16, 0);
    ::inet_ntop(AF_INET6, &address, text.data(), text.size());
    return std::string(text.data()) + "/64";
}

const char* reasonPhrase(int status) {
    switch (status) {
        case 400: return "Bad Request";
        case 408: return "Request Timeout";
        case 431: return "Request Header Fields Too Large";
        case 503: return "Service Unavailable";
    }
    return "Error";
}

// The gate answers in svc's error format (http/HttpErrors.hpp) and closes.
std::string refusal(int status, const std::string& code, const std::string& message) {
    std::string body = nlohmann::json{{"error", {{"code", code}, {"message", message}}}}.dump();
    return "HTTP/1.1 " + std::to_string(status) + " " + reasonPhrase(status) +
           "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Best effort: the socket's buffer takes a short answer whole, and a client that reads nothing
// loses nothing it would have read.
void sendNow(int fd, const std::string& text) { (void)::send(fd, text.data(), text.size(), MSG_DONTWAIT | MSG_NOSIGNAL); }

std::string seconds(std::chrono::milliseconds duration) {
    auto count = duration.count();
    if (count % 1000 == 0) return std::to_string(count / 1000) + " s";
    return std::to_string(count) + " ms";
}

}  // namespace

WaitingRoom::WaitingRoom(const ConnectionLimits& limits, Dispatch dispatch) : limits_(limits), dispatch_(std::move(dispatch)) {
    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = 0;
    ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
}

WaitingRoom::~WaitingRoom() {
    stop();
    ::close(wake_);
    ::close(epoll_);
}

void WaitingRoom::start() {
    thread_ = std::thread([this] { loop(); });
}

void WaitingRoom::admit(int fd) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!stopping_) {
            arrivals_.push_back(Arrival{fd, nullptr, Return::Close});
            uint64_t one = 1;
            (void)::write(wake_, &one, sizeof(one));
            return;
        }
    }
    ::close(fd);
}

void WaitingRoom::giveBack(std::unique_ptr<GatedConnection> connection, Return how) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!stopping_) {
            arrivals_.push_back(Arrival{-1, std::move(connection), how});
            uint64_t one = 1;
            (void)::write(wake_, &one, sizeof(one));
            return;
        }
    }
    ::close(connection->fd);
}

void WaitingRoom::stopDispatching() {
    std::lock_guard<std::mutex> lock(mutex_);
    dispatching_ = false;
}

void WaitingRoom::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        uint64_t one = 1;
        (void)::write(wake_, &one, sizeof(one));
    }
    if (thread_.joinable()) thread_.join();
}

void WaitingRoom::loop() {
    std::array<epoll_event, 256> events{};
    auto nextSweep = now() + kSweepInterval;
    for (;;) {
        int timeout = held_.empty() ? -1 : static_cast<int>(kSweepInterval.count());
        int count = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
        if (count < 0 && errno != EINTR) {
            std::cerr << "svc-server: the connection gate's epoll_wait failed: " << std::strerror(errno) << std::endl;
            break;
        }
        bool stopping = false;
        for (int i = 0; i < count; ++i) {
            uint64_t id = events[static_cast<size_t>(i)].data.u64;
            if (id == 0) {
                uint64_t ignored;
                (void)::read(wake_, &ignored, sizeof(ignored));
                takeArrivals();
                std::lock_guard<std::mutex> lock(mutex_);
                stopping = stopping_;
            } else if (held_.count(id)) {
                readable(id);
            }
        }
        if (stopping) break;
        if (now() >= nextSweep) {
            expire();
            nextSweep = now() + kSweepInterval;
        }
    }
    // Stopping: everything held closes; connections still arriving are closed by admit/giveBack.
    takeArrivals();
    std::vector<uint64_t> ids;
    for (const auto& entry : held_) ids.push_back(entry.first);
    for (uint64_t id : ids) close(id);
}

void WaitingRoom::takeArrivals() {
    std::vector<Arrival> arrivals;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        arrivals.swap(arrivals_);
    }
    for (auto& arrival : arrivals) {
        if (arrival.connection) returned(std::move(arrival.connection), arrival.how);
        else admitNow(arrival.fd);
    }
}

void WaitingRoom::admitNow(int fd) {
    std::string address = addressOf(fd);
    bool full = open_ >= limits_.maxConnections && !evictIdle(nullptr);
    if (!full && limits_.maxConnectionsPerAddress > 0) {
        auto found = addresses_.find(address);
        full = found != addresses_.end() && found->second.connections >= limits_.maxConnectionsPerAddress && !evictIdle(&address);
    }
    if (full) {
        // Before anything is read: a client that sends its request and then reads still sees the answer.
        sendNow(fd, refusal(503, "UNAVAILABLE", "too many open connections from this address"));
        ::close(fd);
        return;
    }
    auto connection = std::make_unique<GatedConnection>();
    connection->fd = fd;
    connection->address = std::move(address);
    Address& counts = addresses_[connection->address];
    ++counts.connections;
    connection->othersWaiting = &counts.parkedCount;
    ++open_;
    hold(std::move(connection), State::Head);
}

void WaitingRoom::returned(std::unique_ptr<GatedConnection> connection, Return how) {
    Address& address = addresses_.at(connection->address);
    --address.working;
    nextParked(address);
    bool dispatching;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        dispatching = dispatching_;
    }
    if (how == Return::Close || (how == Return::KeepAlive && !dispatching)) {
        ::close(connection->fd);
        release(connection->address);
        return;
    }
    if (how == Return::Linger) {
        hold(std::move(connection), State::Lingering);
        return;
    }
    bool waiting = connection->buffer.empty();
    uint64_t id = hold(std::move(connection), waiting ? State::Idle : State::Head);
    if (!waiting) examine(id, false);  // a pipelined request may be complete already
}

uint64_t WaitingRoom::hold(std::unique_ptr<GatedConnection> connection, State state) {
    uint64_t id = nextId_++;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.u64 = id;
    if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, connection->fd, &event) != 0) {
        std::cerr << "svc-server: the connection gate cannot watch a connection: " << std::strerror(errno) << std::endl;
        ::close(connection->fd);
        release(connection->address);
        return id;
    }
    addresses_[connection->address].members.insert(id);
    Held& held = held_[id];
    held.connection = std::move(connection);
    enter(held, id, state);
    return id;
}

void WaitingRoom::enter(Held& held, uint64_t id, State state) {
    if (held.state == State::Idle && state != State::Idle) idle_.erase(held.idlePosition);
    held.state = state;
    held.scanned = 0;
    switch (state) {
        case State::Head: held.deadline = now() + limits_.headTimeout; break;
        case State::Body: {
            // As a worker would allow it (GatedStream): bodyTimeout plus a second per minBodyBytesPerSecond.
            auto allowance = std::chrono::duration_cast<std::chrono::steady_clock::duration>(limits_.bodyTimeout);
            if (limits_.minBodyBytesPerSecond > 0) {
                allowance += std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(
                    static_cast<double>(held.bodyEnd - held.connection->headLength) / static_cast<double>(limits_.minBodyBytesPerSecond)));
            }
            held.deadline = now() + allowance;
            break;
        }
        case State::Idle:
            held.deadline = now() + limits_.idleTimeout;
            held.idlePosition = idle_.insert(idle_.end(), id);
            break;
        case State::Lingering:
            ::shutdown(held.connection->fd, SHUT_WR);
            held.deadline = now() + limits_.lingerTimeout;
            break;
        case State::Parked: held.deadline = std::chrono::steady_clock::time_point::max(); break;
    }
}

void WaitingRoom::readable(uint64_t id) {
    Held& held = held_.at(id);
    GatedConnection& connection = *held.connection;
    if (held.state == State::Lingering) {
        // Read to the end and throw away: the client sees the answer, not a reset.
        std::array<char, kHeadReadChunk> discard;
        for (;;) {
            ssize_t received = ::recv(connection.fd, discard.data(), discard.size(), MSG_DONTWAIT);
            if (received > 0) continue;
            if (received < 0 && errno == EINTR) continue;
            if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
            close(id);
            return;
        }
    }
    bool peerClosed = false;
    // A head is read up to its limit, a small body to its end (what follows is the next request's).
    size_t limit = held.state == State::Body ? held.bodyEnd : limits_.maxHeadBytes;
    while (connection.buffer.size() < limit) {
        size_t before = connection.buffer.size();
        size_t wanted = std::min(kHeadReadChunk, limit - before);
        connection.buffer.resize(before + wanted);
        ssize_t received = ::recv(connection.fd, connection.buffer.data() + before, wanted, MSG_DONTWAIT);
        connection.buffer.resize(before + static_cast<size_t>(std::max<ssize_t>(received, 0)));
        if (received > 0) {
            if (static_cast<size_t>(received) < wanted) break;
            continue;
        }
        if (received < 0 && errno == EINTR) continue;
        if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        peerClosed = true;  // end of stream, or a reset
        break;
    }
    if (held.state == State::Idle) {
        if (connection.buffer.empty()) {
            if (peerClosed) close(id);
            return;
        }
        enter(held, id, State::Head);  // the head's deadline runs from its first byte
    }
    examine(id, peerClosed);
}

void WaitingRoom::examine(uint64_t id, bool peerClosed) {
    Held& held = held_.at(id);
    GatedConnection& connection = *held.connection;
    if (held.state == State::Body) {
        if (connection.buffer.size() >= held.bodyEnd) ready(id);
        else if (peerClosed) close(id);
        return;
    }
    if (held.scanned == 0) connection.buffer.erase(0, RequestHead::leadingEmptyLines(connection.buffer));
    size_t end = RequestHead::findEnd(connection.buffer, held.scanned);
    if (end == std::string::npos || end > limits_.maxHeadBytes) {
        if (connection.buffer.size() >= limits_.maxHeadBytes) {
            refuse(id, 431, "RESOURCE_EXHAUSTED", "request head: larger than " + std::to_string(limits_.maxHeadBytes) + " bytes");
        } else if (peerClosed) {
            close(id);
        } else {
            held.scanned = connection.buffer.size();
        }
        return;
    }
    auto head = RequestHead::parse(std::string_view(connection.buffer).substr(0, end));
    if (!head) {
        refuse(id, 400, "INVALID_ARGUMENT", head.error().message);
        return;
    }
    connection.headLength = end;
    connection.framing = head->framing();
    // A small body is awaited here: a client that sends it slowly holds no worker.
    if (auto length = connection.framing.declaredLength();
        length && *length > 0 && *length <= limits_.awaitedBodyBytes && !head->expectsContinue() &&
        connection.buffer.size() < end + *length) {
        held.bodyEnd = end + static_cast<size_t>(*length);
        enter(held, id, State::Body);
        if (peerClosed) close(id);
        return;
    }
    ready(id);
}

void WaitingRoom::ready(uint64_t id) {
    Held& held = held_.at(id);
    GatedConnection& connection = *held.connection;
    bool dispatching;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        dispatching = dispatching_;
    }
    if (!dispatching) {
        close(id);
        return;
    }
    Address& address = addresses_.at(connection.address);
    if (limits_.maxWorkersPerAddress > 0 && address.working >= limits_.maxWorkersPerAddress) {
        // The address has its share of the workers: this request waits for one of them.
        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, connection.fd, nullptr);
        enter(held, id, State::Parked);
        address.parked.push_back(id);
        address.parkedCount = static_cast<int>(address.parked.size());
        return;
    }
    dispatchNow(id);
}

void WaitingRoom::dispatchNow(uint64_t id) {
    auto found = held_.find(id);
    std::unique_ptr<GatedConnection> connection = std::move(found->second.connection);
    if (found->second.state != State::Parked) ::epoll_ctl(epoll_, EPOLL_CTL_DEL, connection->fd, nullptr);
    held_.erase(found);
    Address& address = addresses_.at(connection->address);
    address.members.erase(id);
    ++address.working;
    dispatch_(std::move(connection));
}

void WaitingRoom::nextParked(Address& address) {
    while (!address.parked.empty() && (limits_.maxWorkersPerAddress <= 0 || address.working < limits_.maxWorkersPerAddress)) {
        uint64_t id = address.parked.front();
        address.parked.pop_front();
        address.parkedCount = static_cast<int>(address.parked.size());
        if (held_.count(id)) dispatchNow(id);
    }
}

void WaitingRoom::refuse(uint64_t id, int status, const std::string& code, const std::string& message) {
    Held& held = held_.at(id);
    sendNow(held.connection->fd, refusal(status, code, message));
    enter(held, id, State::Lingering);
}

void WaitingRoom::expire() {
    auto moment = now();
    std::vector<uint64_t> expired;
    for (const auto& [id, held] : held_) {
        if (held.deadline <= moment) expired.push_back(id);
    }
    for (uint64_t id : expired) {
        Held& held = held_.at(id);
        if (held.state == State::Head && !held.connection->buffer.empty()) {
            refuse(id, 408, "INVALID_ARGUMENT",
                   "request head: not complete within " + seconds(limits_.headTimeout) + " (ConnectionLimits::headTimeout)");
        } else if (held.state == State::Body) {
            refuse(id, 408, "INVALID_ARGUMENT",
                   "request body: " + std::to_string(held.connection->buffer.size() - held.connection->headLength) + " of " +
                       std::to_string(held.bodyEnd - held.connection->headLength) + " bytes arrived, too slowly (ConnectionLimits::bodyTimeout)");
        } else {
            close(id);  // a connection that never sent anything, an idle one, or one read to its end
        }
    }
}

void WaitingRoom::close(uint64_t id) {
    auto found = held_.find(id);
    Held& held = found->second;
    std::string addressKey = held.connection->address;
    Address& address = addresses_.at(addressKey);
    if (held.state == State::Idle) idle_.erase(held.idlePosition);
    if (held.state == State::Parked) {
        address.parked.erase(std::remove(address.parked.begin(), address.parked.end(), id), address.parked.end());
        address.parkedCount = static_cast<int>(address.parked.size());
    }
    ::close(held.connection->fd);  // also leaves the epoll set
    address.members.erase(id);
    held_.erase(found);
    release(addressKey);
}

void WaitingRoom::release(const std::string& addressKey) {
    --open_;
    auto found = addresses_.find(addressKey);
    if (--found->second.connections == 0) addresses_.erase(found);
}

bool WaitingRoom::evictIdle(const std::string* addressKey) {
    if (!addressKey) {
        if (idle_.empty()) return false;
        close(idle_.front());
        return true;
    }
    auto found = addresses_.find(*addressKey);
    if (found == addresses_.end()) return false;
    uint64_t oldest = 0;
    auto oldestDeadline = std::chrono::steady_clock::time_point::max();
    for (uint64_t id : found->second.members) {
        const Held& held = held_.at(id);
        if (held.state == State::Idle && held.deadline < oldestDeadline) {
            oldest = id;
            oldestDeadline = held.deadline;
        }
    }
    if (oldest == 0) return false;
    close(oldest);
    return true;
}

}  // namespace svc
