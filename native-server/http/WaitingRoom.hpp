#pragma once
// The connection gate's waiting room (docs/adr/0057): one epoll thread holds every connection
// that has no complete request yet (new ones, kept-alive ones between requests, ones a worker
// answered early and that are read to their end before closing) and hands a connection to a
// worker only once its request head has arrived whole. A slow or idle client costs a socket and
// a few hundred bytes, never a thread. Small bodies are awaited here too. Here the head deadline, the head size limit, the idle
// timeout and the per-address and total connection limits are enforced.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "http/ConnectionLimits.hpp"
#include "http/GatedConnection.hpp"

namespace svc {

class WaitingRoom {
public:
    // What a worker hands back.
    enum class Return {
        KeepAlive,  // wait for the next request (the buffer may hold its first bytes)
        Linger,     // answered before the request was read whole: read the rest, then close
        Close,
    };
    // Called on the room's thread with a connection whose buffer starts with a complete head.
    using Dispatch = std::function<void(std::unique_ptr<GatedConnection>)>;

    // limits.maxConnections must be set (not 0).
    WaitingRoom(const ConnectionLimits& limits, Dispatch dispatch);
    WaitingRoom(const WaitingRoom&) = delete;
    WaitingRoom& operator=(const WaitingRoom&) = delete;
    ~WaitingRoom();

    void start();
    // A newly accepted socket; any thread.
    void admit(int fd);
    // A connection a worker is done with; any thread.
    void giveBack(std::unique_ptr<GatedConnection> connection, Return how);
    // From now on nothing is dispatched: connections are closed instead.
    void stopDispatching();
    // Closes every connection the room holds; waits for its thread.
    void stop();

private:
    enum class State { Head, Body, Idle, Parked, Lingering };
    struct Held {
        std::unique_ptr<GatedConnection> connection;
        State state = State::Head;
        std::chrono::steady_clock::time_point deadline;
        std::list<uint64_t>::iterator idlePosition;  // in idle_, while Idle
        size_t scanned = 0;  // buffer bytes already searched for the head's end
        size_t bodyEnd = 0;  // while Body: the buffer size at which head and body are whole
    };
    struct Address {
        int connections = 0;  // held here or at a worker
        int working = 0;      // at a worker
        std::deque<uint64_t> parked;  // ready, waiting for the address's turn at a worker
        std::atomic<int> parkedCount{0};  // parked.size(), read by workers
        std::unordered_set<uint64_t> members;  // held here
    };
    struct Arrival {
        int fd = -1;                                  // a new socket, or
        std::unique_ptr<GatedConnection> connection;  // one handed back
        Return how = Return::Close;
    };

    void loop();
    void takeArrivals();
    void admitNow(int fd);
    void returned(std::unique_ptr<GatedConnection> connection, Return how);
    uint64_t hold(std::unique_ptr<GatedConnection> connection, State state);
    void enter(Held& held, uint64_t id, State state);  // the state's deadline and bookkeeping
    void readable(uint64_t id);
    // After bytes arrived: dispatch a complete head, refuse a bad or oversized one, or keep waiting.
    void examine(uint64_t id, bool peerClosed);
    void ready(uint64_t id);  // a whole request (head, and a small body): to a worker, or parked
    void dispatchNow(uint64_t id);
    void nextParked(Address& address);
    void refuse(uint64_t id, int status, const std::string& code, const std::string& message);
    void expire();
    void close(uint64_t id);
    void release(const std::string& addressKey);  // a connection of this address is gone
    // Closes the oldest idle keep-alive connection (of the address, or of all); false when none.
    bool evictIdle(const std::string* addressKey);
    std::chrono::steady_clock::time_point now() const { return std::chrono::steady_clock::now(); }

    ConnectionLimits limits_;
    Dispatch dispatch_;
    int epoll_ = -1;
    int wake_ = -1;  // eventfd: arrivals or stop
    std::thread thread_;

    std::mutex mutex_;  // guards arrivals_, stopping_, dispatching_
    std::vector<Arrival> arrivals_;
    bool stopping_ = false;
    bool dispatching_ = true;

    // The room's thread only:
    uint64_t nextId_ = 1;  // 0 is the wake eventfd
    std::unordered_map<uint64_t, Held> held_;
    std::unordered_map<std::string, Address> addresses_;
    std::list<uint64_t> idle_;  // idle keep-alive connections, oldest first
    int open_ = 0;              // every connection, held or at a worker
};

}  // namespace svc
