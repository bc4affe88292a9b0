#pragma once
// "Has the client of this request gone?" for handlers that work long enough to care
// (docs/adr/0057): GraphQL execution checks it in its cancellation callback and stops work
// whose answer nobody would read. Take the handle on the request's thread (ClientConnection::
// current()), then ask gone() from any thread while the request is being served: one poll(2)
// system call, about a microsecond, so ask at checkpoints, not per field.
namespace svc {

class ClientConnection {
public:
    // The connection of the request this thread is serving; outside a request, or on a server
    // without the connection gate, a handle whose gone() is always false.
    static ClientConnection current();

    // True once the client closed its side of the connection (it will read no answer) or the
    // connection failed. Pipelined bytes waiting to be read do not count as gone.
    bool gone() const;

private:
    explicit ClientConnection(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace svc
