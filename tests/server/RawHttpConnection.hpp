#pragma once
// A raw HTTP/1.1 client connection for the connection gate's tests (docs/adr/0057): the bytes go
// out exactly as written (a head one byte at a time, a body that holds a second request, framing
// a normal client never sends), answers are read one at a time, and the server closing the
// connection is seen when it happens. It connects from any address of 127.0.0.0/8, so one test
// can be several clients for the per-address limits.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace svc::test {

struct RawAnswer {
    int status = 0;
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;

    std::string header(const std::string& lowerCaseName) const {
        auto found = headers.find(lowerCaseName);
        return found == headers.end() ? "" : found->second;
    }
};

class RawHttpConnection {
public:
    RawHttpConnection(int port, const std::string& from = "127.0.0.1") {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in local{};
        local.sin_family = AF_INET;
        ::inet_pton(AF_INET, from.c_str(), &local.sin_addr);
        sockaddr_in server{};
        server.sin_family = AF_INET;
        server.sin_port = htons(static_cast<uint16_t>(port));
        ::inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
        int on = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0 ||
            ::connect(fd_, reinterpret_cast<sockaddr*>(&server), sizeof(server)) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    RawHttpConnection(const RawHttpConnection&) = delete;
    RawHttpConnection& operator=(const RawHttpConnection&) = delete;
    ~RawHttpConnection() {
        if (fd_ >= 0) ::close(fd_);
    }

    bool connected() const { return fd_ >= 0; }
    int fd() const { return fd_; }

    // False once the server has closed (a reset, or writing after its close).
    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (sent < 0 && errno == EINTR) continue;
            if (sent <= 0) return false;
            bytes.remove_prefix(static_cast<size_t>(sent));
        }
        return true;
    }

    // The next answer; nullopt when none arrives in time or the connection closes first.
    // headRequest: the answer to a HEAD request, whose Content-Length describes no body.
    std::optional<RawAnswer> answer(std::chrono::milliseconds timeout = std::chrono::seconds(5), bool headRequest = false) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        size_t end;
        while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
            if (!fill(deadline)) return std::nullopt;
        }
        RawAnswer answer;
        std::string head = buffer_.substr(0, end + 2);
        size_t lineEnd = head.find("\r\n");
        std::string statusLine = head.substr(0, lineEnd);
        if (statusLine.rfind("HTTP/1.", 0) != 0 || statusLine.size() < 12) return std::nullopt;
        answer.status = std::stoi(statusLine.substr(9, 3));
        for (size_t at = lineEnd + 2; at < head.size();) {
            size_t next = head.find("\r\n", at);
            std::string line = head.substr(at, next - at);
            at = next + 2;
            size_t colon = line.find(':');
            if (colon == std::string::npos) continue;
            std::string name = line.substr(0, colon);
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            size_t value = line.find_first_not_of(' ', colon + 1);
            answer.headers[name] = value == std::string::npos ? "" : line.substr(value);
        }
        buffer_.erase(0, end + 4);
        size_t length = headRequest || answer.headers.count("content-length") == 0 ? 0 : std::stoul(answer.headers["content-length"]);
        while (buffer_.size() < length) {
            if (!fill(deadline)) return std::nullopt;
        }
        answer.body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        return answer;
    }

    enum class Next { Closed, Silent, Data };
    // What the server does next within the timeout: close the connection, send bytes, or nothing.
    Next next(std::chrono::milliseconds timeout) {
        if (!buffer_.empty()) return Next::Data;
        if (closed_) return Next::Closed;
        if (fill(std::chrono::steady_clock::now() + timeout)) return Next::Data;
        return closed_ ? Next::Closed : Next::Silent;
    }

    // Half-closes: the server reads the end of the stream, the connection stays readable.
    void finishSending() { ::shutdown(fd_, SHUT_WR); }

private:
    bool fill(std::chrono::steady_clock::time_point deadline) {
        if (closed_) return false;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0) return false;
            pollfd readable{fd_, POLLIN, 0};
            int ready = ::poll(&readable, 1, static_cast<int>(left));
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) return false;
            char chunk[16384];
            ssize_t received = ::recv(fd_, chunk, sizeof(chunk), 0);
            if (received < 0 && errno == EINTR) continue;
            if (received <= 0) {
                closed_ = true;  // the end of the stream, or a reset
                return false;
            }
            buffer_.append(chunk, static_cast<size_t>(received));
            return true;
        }
    }

    int fd_ = -1;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace svc::test
