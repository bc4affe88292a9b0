#pragma once
// A real HTTP image server on 127.0.0.1 for the image bot tests (cpp-httplib in the test process):
// serves bytes put under a path (or files of a directory), can answer 429/503 with Retry-After a
// number of times, delays answers so that concurrency shows, and records per path the requests,
// their times and User-Agents, and the most requests it ever had in progress at once.
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace svc::test {

class LoopbackImageServer {
public:
    using Clock = std::chrono::steady_clock;

    LoopbackImageServer() {
        server_.new_task_queue = [] { return new httplib::ThreadPool(16); };
        server_.Get("/(.*)", [this](const httplib::Request& request, httplib::Response& response) {
            int now = ++inProgress_;
            for (int seen = maxInProgress.load(); now > seen && !maxInProgress.compare_exchange_weak(seen, now);) {}
            handle(request, response);
            --inProgress_;
        });
        port = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        for (int attempt = 0; attempt < 500 && !server_.is_running(); ++attempt) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~LoopbackImageServer() {
        server_.stop();
        thread_.join();
    }

    void put(const std::string& path, std::string bytes, std::string contentType = "image/jpeg") {
        std::lock_guard lock(mutex_);
        files_[path] = {std::move(bytes), std::move(contentType)};
    }
    // GET /<prefix>/<name> answers the file <directory>/<name>.
    void serveDirectory(const std::string& prefix, const std::string& directory) {
        std::lock_guard lock(mutex_);
        directories_[prefix] = directory;
    }
    // The next `times` requests for `path` get `status` with this Retry-After ("" : none).
    void throttle(const std::string& path, int times, int status, const std::string& retryAfter) {
        std::lock_guard lock(mutex_);
        throttles_[path] = {times, status, retryAfter};
    }
    void setDelay(std::chrono::milliseconds delay) { delayMs_ = static_cast<int>(delay.count()); }

    int requests(const std::string& path) {
        std::lock_guard lock(mutex_);
        return static_cast<int>(times_[path].size());
    }
    int totalRequests() {
        std::lock_guard lock(mutex_);
        int total = 0;
        for (const auto& [path, times] : times_) total += static_cast<int>(times.size());
        return total;
    }
    std::vector<Clock::time_point> requestTimes(const std::string& path) {
        std::lock_guard lock(mutex_);
        return times_[path];
    }
    std::vector<Clock::time_point> allRequestTimes() {
        std::lock_guard lock(mutex_);
        std::vector<Clock::time_point> all;
        for (const auto& [path, times] : times_) all.insert(all.end(), times.begin(), times.end());
        return all;
    }
    std::vector<std::string> userAgents() {
        std::lock_guard lock(mutex_);
        return userAgents_;
    }
    std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
        return "http://" + host + ":" + std::to_string(port) + path;
    }

    int port = 0;
    std::atomic<int> maxInProgress{0};

private:
    struct File {
        std::string bytes;
        std::string contentType;
    };
    struct Throttle {
        int times = 0;
        int status = 429;
        std::string retryAfter;
    };

    void handle(const httplib::Request& request, httplib::Response& response) {
        File file;
        bool found = false;
        {
            std::lock_guard lock(mutex_);
            times_[request.path].push_back(Clock::now());
            userAgents_.push_back(request.get_header_value("User-Agent"));
            auto throttle = throttles_.find(request.path);
            if (throttle != throttles_.end() && throttle->second.times > 0) {
                --throttle->second.times;
                response.status = throttle->second.status;
                if (!throttle->second.retryAfter.empty()) response.set_header("Retry-After", throttle->second.retryAfter);
                response.set_content("slow down", "text/plain");
                return;
            }
            if (auto it = files_.find(request.path); it != files_.end()) {
                file = it->second;
                found = true;
            }
            for (const auto& [prefix, directory] : directories_) {
                if (!found && request.path.rfind(prefix + "/", 0) == 0) {
                    std::string name = request.path.substr(prefix.size() + 1);
                    if (name.find("..") != std::string::npos) break;
                    std::ifstream in(directory + "/" + name, std::ios::binary);
                    if (!in) break;
                    std::stringstream bytes;
                    bytes << in.rdbuf();
                    file = {bytes.str(), "image/jpeg"};
                    found = true;
                }
            }
        }
        if (delayMs_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delayMs_.load()));
        if (!found) {
            response.status = 404;
            return;
        }
        response.set_content(file.bytes, file.contentType);
    }

    httplib::Server server_;
    std::thread thread_;
    std::mutex mutex_;
    std::map<std::string, File> files_;
    std::map<std::string, std::string> directories_;
    std::map<std::string, Throttle> throttles_;
    std::map<std::string, std::vector<Clock::time_point>> times_;
    std::vector<std::string> userAgents_;
    std::atomic<int> inProgress_{0};
    std::atomic<int> delayMs_{0};
};

}  // namespace svc::test
