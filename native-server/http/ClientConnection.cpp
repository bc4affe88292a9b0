#include "http/ClientConnection.hpp"

#include <poll.h>

#include "http/GatedStream.hpp"

namespace svc {

ClientConnection ClientConnection::current() {
    GatedStream* stream = GatedStream::current();
    return ClientConnection(stream ? stream->socket() : -1);
}

bool ClientConnection::gone() const {
    if (fd_ < 0) return false;
    pollfd socket{fd_, POLLRDHUP, 0};
    if (::poll(&socket, 1, 0) <= 0) return false;
    return (socket.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

}  // namespace svc
