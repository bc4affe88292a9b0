#pragma once
// One client connection behind the gate (docs/adr/0057). The waiting room owns it while the
// client sends a request head or idles between requests; a worker owns it while it serves the
// request; ownership moves with the unique_ptr, so no field is shared between threads.
#include <atomic>
#include <cstddef>
#include <string>

#include "http/BodyFraming.hpp"

namespace svc {

struct GatedConnection {
    int fd = -1;
    // What the per-address limits count: the IPv4 address, or an IPv6 address's /64 network
    // (one subscriber's usual allocation, so a client cannot dodge the limit by switching addresses).
    std::string address;
    // Bytes read from the socket and not yet handed to cpp-httplib: a head, perhaps body bytes
    // and pipelined requests after it.
    std::string buffer;
    // Set when buffer starts with a complete head: its length and its body's framing.
    size_t headLength = 0;
    BodyFraming framing;
    size_t served = 0;  // requests answered on this connection
    // Requests of the same address waiting for a worker (the waiting room's count, which outlives
    // the connection): a worker then hands this connection back instead of serving its next request.
    const std::atomic<int>* othersWaiting = nullptr;
};

}  // namespace svc
