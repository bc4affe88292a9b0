#include "http/GatedStream.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace svc {
namespace {

thread_local GatedStream* currentStream = nullptr;

// Large enough that a feed upload costs few system calls, small enough per worker thread.
constexpr size_t kReadChunk = 64 * 1024;

void ipAndPort(const sockaddr_storage& address, socklen_t length, std::string& ip, int& port) {
    if (address.ss_family == AF_INET) {
        port = ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
    } else if (address.ss_family == AF_INET6) {
        port = ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
    } else {
        return;
    }
    std::array<char, NI_MAXHOST> text{};
    if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, text.data(), static_cast<socklen_t>(text.size()), nullptr, 0,
                    NI_NUMERICHOST) == 0) {
        ip = text.data();
    }
}

}  // namespace

GatedStream::GatedStream(GatedConnection& connection, const ConnectionLimits& limits, size_t maxBodyBytes, int stopFd)
    : connection_(connection),
      limits_(limits),
      maxBodyBytes_(maxBodyBytes),
      stopFd_(stopFd),
      headLeft_(connection.headLength),
      previous_(currentStream) {
    currentStream = this;
}

GatedStream::~GatedStream() { currentStream = previous_; }

GatedStream* GatedStream::current() { return currentStream; }

bool GatedStream::is_readable() const {
    if (offset_ < connection_.buffer.size()) return true;
    pollfd socket{connection_.fd, POLLIN, 0};
    return ::poll(&socket, 1, 0) > 0;
}

bool GatedStream::is_writable() const {
    if (writeFailed_) return false;
    pollfd socket{connection_.fd, POLLOUT, 0};
    int ready = ::poll(&socket, 1, static_cast<int>(limits_.writeTimeout.count()));
    return ready > 0 && (socket.revents & (POLLERR | POLLHUP)) == 0;
}

ssize_t GatedStream::read(char* ptr, size_t size) {
    std::string& buffer = connection_.buffer;
    if (headLeft_ > 0) {
        size_t count = std::min(size, headLeft_);
        std::memcpy(ptr, buffer.data() + offset_, count);
        offset_ += count;
        headLeft_ -= count;
        return static_cast<ssize_t>(count);
    }
    BodyFraming& framing = connection_.framing;
    if (framing.complete()) return 0;  // the body's end: what follows is the next request
    if (failure_ != BodyFailure::None) return -1;
    if (auto declared = framing.declaredLength(); declared && *declared > maxBodyBytes_) {
        // cpp-httplib would read the whole declared body to throw it away; the connection closes instead.
        failure_ = BodyFailure::TooLarge;
        return -1;
    }
    while (offset_ == buffer.size()) {
        if (!fill()) return -1;
    }
    size_t available = std::min(size, buffer.size() - offset_);
    size_t taken = framing.take(buffer.data() + offset_, available);
    if (framing.malformed()) {
        failure_ = BodyFailure::Malformed;
        return -1;
    }
    if (framing.payloadBytes() > maxBodyBytes_) {
        failure_ = BodyFailure::TooLarge;
        return -1;
    }
    std::memcpy(ptr, buffer.data() + offset_, taken);
    offset_ += taken;
    bodyBytes_ += taken;
    return static_cast<ssize_t>(taken);
}

bool GatedStream::fill() {
    std::string& buffer = connection_.buffer;
    if (offset_ == buffer.size()) {
        buffer.clear();
        offset_ = 0;
    }
    for (;;) {
        // The allowance: bodyTimeout in all, plus a second for every minBodyBytesPerSecond delivered.
        auto allowance = std::chrono::duration_cast<std::chrono::steady_clock::duration>(limits_.bodyTimeout);
        if (limits_.minBodyBytesPerSecond > 0) {
            allowance += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(static_cast<double>(bodyBytes_) / static_cast<double>(limits_.minBodyBytesPerSecond)));
        }
        auto left = allowance - waited_;
        if (left <= std::chrono::steady_clock::duration::zero()) {
            failure_ = BodyFailure::TimedOut;
            return false;
        }
        std::array<pollfd, 2> waits{pollfd{connection_.fd, POLLIN, 0}, pollfd{stopFd_, POLLIN, 0}};
        auto leftMs = std::chrono::ceil<std::chrono::milliseconds>(left).count();
        auto started = std::chrono::steady_clock::now();
        int ready = ::poll(waits.data(), stopFd_ >= 0 ? 2 : 1, static_cast<int>(std::min<int64_t>(leftMs, 24 * 3600 * 1000)));
        waited_ += std::chrono::steady_clock::now() - started;
        if (ready < 0) {
            if (errno == EINTR) continue;
            failure_ = BodyFailure::ClientClosed;
            return false;
        }
        if (stopFd_ >= 0 && waits[1].revents != 0) {
            failure_ = BodyFailure::ServerStopping;
            return false;
        }
        if (ready == 0) continue;  // the allowance decides, at the top
        size_t before = buffer.size();
        buffer.resize(before + kReadChunk);
        ssize_t received = ::recv(connection_.fd, buffer.data() + before, kReadChunk, MSG_DONTWAIT);
        buffer.resize(before + static_cast<size_t>(std::max<ssize_t>(received, 0)));
        if (received > 0) return true;
        if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
        failure_ = BodyFailure::ClientClosed;
        return false;
    }
}

ssize_t GatedStream::write(const char* ptr, size_t size) {
    if (writeFailed_) return -1;
    for (;;) {
        ssize_t sent = ::send(connection_.fd, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent >= 0) return sent;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) break;
        // The client reads slower than we write: wait, but not forever.
        pollfd socket{connection_.fd, POLLOUT, 0};
        int ready = ::poll(&socket, 1, static_cast<int>(limits_.writeTimeout.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) break;
    }
    writeFailed_ = true;
    return -1;
}

void GatedStream::get_remote_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getpeername(connection_.fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) ipAndPort(address, length, ip, port);
}

void GatedStream::get_local_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getsockname(connection_.fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) ipAndPort(address, length, ip, port);
}

socket_t GatedStream::socket() const { return connection_.fd; }

Error GatedStream::bodyError() const {
    switch (failure_) {
        case BodyFailure::TimedOut:
            return Error::invalidArgument("request body: " + std::to_string(bodyBytes_) + " bytes arrived, too slowly (at most " +
                                          std::to_string(limits_.bodyTimeout.count() / 1000) + " s of waiting plus 1 s per " +
                                          std::to_string(limits_.minBodyBytesPerSecond) + " bytes)")
                .about("request body")
                .breaking(RequestRule::BodyDeadline)
                .withId("svc.http.104");
        case BodyFailure::TooLarge:
            return Error::resourceExhausted("request body: larger than " + std::to_string(maxBodyBytes_) + " bytes").about("request body").withId("svc.http.102");
        case BodyFailure::Malformed: return Error::invalidArgument("transfer-encoding: the chunked body breaks its framing");
        case BodyFailure::ClientClosed: return Error::invalidArgument("request body: the client closed the connection before its end");
        case BodyFailure::ServerStopping: return Error::unavailable("the server is stopping");
        case BodyFailure::None: break;
    }
    return Error::internal("no body failure");
}

void GatedStream::finish() {
    connection_.buffer.erase(0, offset_);
    offset_ = 0;
    connection_.headLength = 0;
}

}  // namespace svc
