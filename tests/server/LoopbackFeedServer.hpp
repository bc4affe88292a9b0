#pragma once
// A real HTTP server on 127.0.0.1 for the outbound fetcher and feed pull tests (cpp-httplib in
// the test process): serves feeds with validators, basic auth, redirects, wrong types and errors,
// and counts what it was asked.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace svc::test {

// A loopback port nobody listens on right now: bound (not listened on) and released.
inline int unusedLoopbackPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

class LoopbackFeedServer {
public:
    LoopbackFeedServer() {
        server_.Get("/feed.csv", [this](const httplib::Request& request, httplib::Response& response) {
            std::lock_guard lock(mutex_);
            ++feedRequests;
            if (!etag_.empty() && request.get_header_value("If-None-Match") == etag_) {
                ++notModified;
                response.status = 304;
                return;
            }
            if (!lastModified_.empty() && request.get_header_value("If-Modified-Since") == lastModified_) {
                ++notModified;
                response.status = 304;
                return;
            }
            if (!etag_.empty()) response.set_header("ETag", etag_);
            if (!lastModified_.empty()) response.set_header("Last-Modified", lastModified_);
            response.set_content(feed_, contentType_);
        });
        server_.Get("/private.csv", [this](const httplib::Request& request, httplib::Response& response) {
            std::lock_guard lock(mutex_);
            // "shop:s3cret" in base64
            if (request.get_header_value("Authorization") != "Basic c2hvcDpzM2NyZXQ=") {
                response.status = 401;
                response.set_header("WWW-Authenticate", "Basic realm=\"feeds\"");
                return;
            }
            response.set_content(feed_, "text/csv; charset=utf-8");
        });
        server_.Get("/redirect", [](const httplib::Request& request, httplib::Response& response) {
            response.set_redirect(request.get_param_value("to"), 302);
        });
        server_.Get("/loop", [](const httplib::Request&, httplib::Response& response) { response.set_redirect("/loop", 307); });
        server_.Get("/echo-auth", [](const httplib::Request& request, httplib::Response& response) {
            response.set_content("authorization=" + request.get_header_value("Authorization") + "\n", "text/csv");
        });
        server_.Get("/page.html", [](const httplib::Request&, httplib::Response& response) {
            response.set_content("<html><body>not a feed</body></html>", "text/html");
        });
        server_.Get("/big.csv", [](const httplib::Request& request, httplib::Response& response) {
            size_t bytes = std::stoul(request.get_param_value("bytes"));
            response.set_content(std::string(bytes, 'a'), "text/csv");  // compresses ~1000:1 when gzip is accepted
        });
        server_.Get("/slow.csv", [](const httplib::Request&, httplib::Response& response) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            response.set_content("sku\n1\n", "text/csv");
        });
        server_.Get("/accept-encoding", [](const httplib::Request& request, httplib::Response& response) {
            response.set_content("accept=" + request.get_header_value("Accept-Encoding") + "\n", "text/csv");
        });
        port = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        for (int attempt = 0; attempt < 500 && !server_.is_running(); ++attempt) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~LoopbackFeedServer() {
        server_.stop();
        thread_.join();
    }
    void setFeed(std::string csv, std::string etag, std::string lastModified = "", std::string contentType = "text/csv") {
        std::lock_guard lock(mutex_);
        feed_ = std::move(csv);
        etag_ = std::move(etag);
        lastModified_ = std::move(lastModified);
        contentType_ = std::move(contentType);
    }
    std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
        return "http://" + host + ":" + std::to_string(port) + path;
    }

    int port = 0;
    std::atomic<int> feedRequests{0};
    std::atomic<int> notModified{0};

private:
    httplib::Server server_;
    std::thread thread_;
    std::mutex mutex_;
    std::string feed_;
    std::string etag_;
    std::string lastModified_;
    std::string contentType_ = "text/csv";
};

}  // namespace svc::test
