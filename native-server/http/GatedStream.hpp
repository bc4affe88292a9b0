#pragma once
// The httplib::Stream a worker hands cpp-httplib's process_request for one request behind the
// gate (docs/adr/0057). Reads come from the connection's buffer (the head the waiting room read,
// so cpp-httplib's byte-at-a-time line reading costs no system calls) and then from the socket,
// but never past the body's end: a handler cannot read the next request as its body. Body reads
// wait only within the body's allowance (ConnectionLimits::bodyTimeout plus the minimum rate).
#include <httplib.h>

#include <chrono>

#include "core/Error.hpp"
#include "http/ConnectionLimits.hpp"
#include "http/GatedConnection.hpp"

namespace svc {

class GatedStream final : public httplib::Stream {
public:
    enum class BodyFailure { None, TimedOut, TooLarge, Malformed, ClientClosed, ServerStopping };

    // maxBodyBytes: cpp-httplib's payload limit; a body declared larger is never read.
    // stopFd: readable when the server stops (body waits end at once).
    GatedStream(GatedConnection& connection, const ConnectionLimits& limits, size_t maxBodyBytes, int stopFd);
    GatedStream(const GatedStream&) = delete;
    GatedStream& operator=(const GatedStream&) = delete;
    ~GatedStream() override;

    bool is_readable() const override;
    bool is_writable() const override;
    ssize_t read(char* ptr, size_t size) override;
    ssize_t write(const char* ptr, size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override;

    // The head and the whole body were read: the connection can carry the next request.
    bool requestConsumed() const { return headLeft_ == 0 && framing().complete(); }
    BodyFailure bodyFailure() const { return failure_; }
    // For the answer, when bodyFailure() is not None: the error naming the limit; sendError maps
    // it (408 too slow, 413 too large, 400 broken chunked framing, 503 stopping).
    Error bodyError() const;
    // Drops the bytes read so far from the connection's buffer: what stays is the next request's.
    void finish();

    // The stream of the request this thread serves (set while cpp-httplib processes it), or null.
    static GatedStream* current();

private:
    const BodyFraming& framing() const { return connection_.framing; }
    bool fill();  // more bytes into the buffer, within the body's allowance

    GatedConnection& connection_;
    const ConnectionLimits& limits_;
    size_t maxBodyBytes_;
    int stopFd_;
    size_t offset_ = 0;    // into connection_.buffer: bytes before it were handed out
    size_t headLeft_;      // head bytes not handed out yet
    uint64_t bodyBytes_ = 0;
    std::chrono::steady_clock::duration waited_{0};  // time body reads spent waiting for the client
    BodyFailure failure_ = BodyFailure::None;
    bool writeFailed_ = false;
    GatedStream* previous_;
};

}  // namespace svc
