#pragma once
// What every hostile test uses: an AttackWindow (what the watch saw while the test attacked)
// and a RawClient (bytes on a socket from a chosen loopback address, for what no well-behaved
// HTTP client would send). See tests/hostile/README.md.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>

#include "hostile/HostileServer.hpp"

namespace svc::hostile {

constexpr double kHealthBudgetSeconds = 1.0;  // /healthz answers others within 1 s...
constexpr long kRssBudgetKb = 1024 * 1024;    // ...and the server stays under 1 GB, throughout

// Open it before the attack; requireOthersServed() after it checks every /healthz the watch
// made in between (and two more after, so a server that dies late is seen too).
class AttackWindow {
public:
    AttackWindow() : server_(HostileServer::shared()), from_(std::chrono::steady_clock::now()) {}

    HostileServer& server() { return server_; }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - from_).count(); }

    struct Figures {
        size_t samples = 0;
        size_t failures = 0;
        double slowestSeconds = 0;
        long peakRssKb = 0;  // the process's own high-water mark (VmHWM): covers every moment
    };

    Figures figures() const {
        Figures figures;
        for (const auto& sample : server_.watch().samplesSince(from_)) {
            ++figures.samples;
            if (!sample.ok) ++figures.failures;
            figures.slowestSeconds = std::max(figures.slowestSeconds, sample.seconds);
        }
        figures.peakRssKb = server_.peakRssKb();
        return figures;
    }

    void requireOthersServed() {
        auto end = std::chrono::steady_clock::now();
        // Two samples that started after the attack ended.
        for (int i = 0; i < 100; ++i) {
            size_t after = 0;
            for (const auto& sample : server_.watch().samplesSince(end)) {
                if (sample.at - std::chrono::milliseconds(static_cast<long>(sample.seconds * 1000)) >= end) ++after;
            }
            if (after >= 2) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        Figures seen = figures();
        MESSAGE("during the attack (" << seconds() << " s): " << seen.samples << " /healthz, " << seen.failures
                                      << " failed, slowest " << seen.slowestSeconds * 1000 << " ms; peak RSS "
                                      << seen.peakRssKb / 1024 << " MiB");
        REQUIRE_MESSAGE(server_.alive(), "svc-server died: " << server_.log());
        CHECK(seen.samples >= 2);
        CHECK(seen.failures == 0);
        CHECK(seen.slowestSeconds < kHealthBudgetSeconds);
        CHECK(seen.peakRssKb < kRssBudgetKb);
    }

private:
    HostileServer& server_;
    std::chrono::steady_clock::time_point from_;
};

// One TCP connection from a chosen loopback address (127.0.0.2 and up: distinct clients).
class RawClient {
public:
    explicit RawClient(int port, const std::string& fromAddress = "127.0.0.2") {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in local{};
        local.sin_family = AF_INET;
        ::inet_pton(AF_INET, fromAddress.c_str(), &local.sin_addr);
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) return;
        sockaddr_in remote{};
        remote.sin_family = AF_INET;
        remote.sin_port = htons(static_cast<uint16_t>(port));
        ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
        int on = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&remote), sizeof remote) == 0;
    }
    ~RawClient() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;
    RawClient(RawClient&& other) noexcept : fd_(other.fd_), connected_(other.connected_) { other.fd_ = -1; }

    bool connected() const { return connected_; }

    // False once the server has closed the connection (or reset it).
    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (sent <= 0) return false;
            bytes.remove_prefix(static_cast<size_t>(sent));
        }
        return true;
    }

    // Everything that arrives until the server closes or `quiet` passes without a byte.
    std::string receive(std::chrono::milliseconds quiet = std::chrono::milliseconds(500)) {
        std::string received;
        char buffer[16384];
        while (true) {
            pollfd ready{fd_, POLLIN, 0};
            if (::poll(&ready, 1, static_cast<int>(quiet.count())) <= 0) break;
            ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
            if (got <= 0) {
                closed_ = true;
                break;
            }
            received.append(buffer, static_cast<size_t>(got));
        }
        return received;
    }

    // Reads until `count` complete answers arrived (status line, headers, Content-Length body),
    // the server closed, or `limit` passed; what arrived.
    std::string receiveAnswers(int count, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
        std::string received;
        auto deadline = std::chrono::steady_clock::now() + limit;
        char buffer[16384];
        while (completeAnswers(received) < count) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) break;
            pollfd ready{fd_, POLLIN, 0};
            if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) break;
            ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
            if (got <= 0) {
                closed_ = true;
                break;
            }
            received.append(buffer, static_cast<size_t>(got));
        }
        return received;
    }

    // Complete answers at the start of a byte stream (bodies by Content-Length; none without).
    static int completeAnswers(const std::string& bytes) {
        int answers = 0;
        size_t at = 0;
        while (true) {
            size_t headEnd = bytes.find("\r\n\r\n", at);
            if (headEnd == std::string::npos) return answers;
            std::string head = bytes.substr(at, headEnd - at);
            std::string lower;
            for (char c : head) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            size_t length = 0;
            if (size_t field = lower.find("\r\ncontent-length:"); field != std::string::npos) {
                length = std::stoul(lower.substr(field + 17));
            }
            if (bytes.size() < headEnd + 4 + length) return answers;
            ++answers;
            at = headEnd + 4 + length;
        }
    }

    // After receive(): did the server close the connection?
    bool closedByServer() const { return closed_; }

    // How many HTTP answers a byte stream holds (status lines at the start of a line).
    static int countAnswers(const std::string& bytes) {
        int answers = 0;
        for (size_t at = bytes.find("HTTP/1.1 "); at != std::string::npos; at = bytes.find("HTTP/1.1 ", at + 1)) {
            if (at == 0 || bytes[at - 1] == '\n') ++answers;
        }
        return answers;
    }

private:
    int fd_ = -1;
    bool connected_ = false;
    bool closed_ = false;
};

}  // namespace svc::hostile
