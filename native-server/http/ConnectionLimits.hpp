#pragma once
// The connection gate's limits (docs/adr/0057): how long a client may take to send a request,
// how many connections and worker threads one client address may hold, and how long idle
// keep-alive connections stay open. `svc-server serve` sets each with a flag of the same name.
#include <chrono>
#include <cstddef>

namespace svc {

struct ConnectionLimits {
    // The whole request head (request line and headers), from its first byte, or from the
    // connect for a new connection: one header byte a second no longer holds anything for long.
    std::chrono::milliseconds headTimeout{10'000};
    // A head above this many bytes is refused (431) before a worker sees it.
    size_t maxHeadBytes = 32 * 1024;
    // A kept-alive connection waits this long for its next request: in the waiting room, without a
    // worker thread, so the timeout costs a socket, not a thread.
    std::chrono::milliseconds idleTimeout{30'000};
    // A request body may wait for data this long in all, plus one second for every
    // minBodyBytesPerSecond bytes it has delivered: a fixed deadline for small bodies, a minimum
    // rate for feed uploads of hundreds of megabytes. Only time spent waiting for the client counts.
    std::chrono::milliseconds bodyTimeout{10'000};
    size_t minBodyBytesPerSecond = 32 * 1024;  // 0: the body has bodyTimeout in all
    // A body of at most this many bytes (by its Content-Length) is awaited whole in the waiting
    // room, within bodyTimeout, before a worker sees the request: a slow small body (GraphQL,
    // events, console forms) holds no thread. 0: every body is read by the worker.
    size_t awaitedBodyBytes = 16 * 1024;
    // One stalled write of the answer (the client reads nothing) ends the connection after this.
    std::chrono::milliseconds writeTimeout{10'000};
    // Open connections per client address (IPv6: per /64); the oldest idle keep-alive connection
    // of the address makes room, else the new one is refused (503). 0: no limit (behind a proxy,
    // every client has the proxy's address). Closing an idle connection races with a client that
    // reuses it at that moment (Node's fetch then fails a POST), so the limit leaves room: the e2e
    // suite (two browsers and Node's fetch on one address) held 96 at its peak; an office behind
    // one NAT address holds several per browser.
    int maxConnectionsPerAddress = 256;
    // Worker threads serving one client address at a time; its further ready requests wait their
    // turn, so one address never takes every thread (32: half the default --threads; keep it below
    // --threads). 0: no limit.
    int maxWorkersPerAddress = 32;
    // Open connections in all; the oldest idle keep-alive connection makes room, else the new
    // one is refused. 0: derived from the open-file limit (less what the databases need).
    int maxConnections = 0;
    // After an answer sent before the request was read whole, the rest is read and thrown away
    // this long, so the client sees the answer instead of a reset; then the connection closes.
    std::chrono::milliseconds lingerTimeout{2'000};
    // After an answer, the worker waits this long for the next request of a kept-alive connection
    // before handing it to the waiting room: back-to-back requests skip two thread hand-overs.
    // Only while no request waits for a worker. 2 ms missed 3% of wrk's next requests on a busy
    // machine (each miss costs the hand-overs), 20 ms 0.1%.
    std::chrono::microseconds keepAliveHold{20'000};
};

}  // namespace svc
