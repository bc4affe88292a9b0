#pragma once
// The hostile-input suite's target: the real svc-server binary as a child process on a
// loopback port (its own memory, so its RSS is the server's alone), with
// - the demo tenant (a catalog of ~3,600 variants, sets, content; API ID only, as a shop
//   page has it) and a second tenant "B" with its secret and a commission rate,
// - a HealthWatch that asks /healthz every 100 ms from 127.0.0.1 on a new connection and
//   samples the server's RSS, so every test can assert that, while it attacked, everyone
//   else was still served within 1 s and the process stayed under 1 GB.
// Attacks come from other loopback addresses (127.0.0.2 and up, RawClient) so that limits
// per client address hit the attacker, not the watch. One server serves the whole suite
// (HostileServer::shared()): "throughout the suite" means every test's window.
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/ChildProcess.hpp"

namespace svc::hostile {

inline std::string readText(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

// VmRSS or VmHWM (the peak) of a process, in KiB; 0 when it has gone.
inline long processMemoryKb(int pid, const std::string& field) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    }
    return 0;
}

// Runs an svc-server subcommand to completion; its stdout.
inline std::string runCommand(const std::vector<std::string>& arguments, const std::string& outputPath) {
    test::ChildProcess process(arguments, outputPath);
    if (!process.started()) throw std::runtime_error("cannot start " + arguments.front());
    int status = process.wait();
    std::string output = readText(outputPath);
    if (status != 0) throw std::runtime_error(arguments[1] + " " + arguments[2] + " exited " + std::to_string(status) + ": " + output);
    return output;
}

struct HealthSample {
    std::chrono::steady_clock::time_point at;
    double seconds = 0;  // how long /healthz took (the client gives up after 5 s)
    bool ok = false;     // 200 {"status":"ok"}
    long rssKb = 0;
};

class HealthWatch {
public:
    HealthWatch(int port, int pid) : port_(port), pid_(pid), thread_([this] { run(); }) {}
    ~HealthWatch() {
        stopping_ = true;
        thread_.join();
    }
    std::vector<HealthSample> samplesSince(std::chrono::steady_clock::time_point from) const {
        std::lock_guard lock(mutex_);
        std::vector<HealthSample> out;
        for (const auto& sample : samples_) {
            if (sample.at >= from) out.push_back(sample);
        }
        return out;
    }

private:
    void run() {
        while (!stopping_) {
            HealthSample sample;
            auto started = std::chrono::steady_clock::now();
            {
                httplib::Client client("127.0.0.1", port_);
                client.set_connection_timeout(5, 0);
                client.set_read_timeout(5, 0);
                auto response = client.Get("/healthz");
                sample.ok = response && response->status == 200 && response->body == R"({"status":"ok"})";
            }
            sample.at = std::chrono::steady_clock::now();
            sample.seconds = std::chrono::duration<double>(sample.at - started).count();
            sample.rssKb = processMemoryKb(pid_, "VmRSS");
            {
                std::lock_guard lock(mutex_);
                samples_.push_back(sample);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }

    int port_;
    int pid_;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::vector<HealthSample> samples_;
    std::thread thread_;
};

struct TenantKeys {
    std::string apiId;
    std::string apiSecret;  // empty for the demo tenant: a shop page has only the API ID
};

class HostileServer {
public:
    // The suite's one server, started at first use with the defaults an operator gets.
    static HostileServer& shared() {
        static HostileServer server;
        return server;
    }

    int port() const { return port_; }
    int pid() const { return pid_; }
    const std::string& dataDir() const { return dataDir_; }
    const TenantKeys& demo() const { return demo_; }
    const TenantKeys& tenantB() const { return tenantB_; }
    const std::string& firstSku() const { return firstSku_; }
    std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_); }
    bool alive() { return !process_->hasExited(); }
    long rssKb() const { return processMemoryKb(pid_, "VmRSS"); }
    long peakRssKb() const { return processMemoryKb(pid_, "VmHWM"); }
    const HealthWatch& watch() const { return *watch_; }
    // The server's stderr and stdout so far (for failure messages).
    std::string log() const { return readText(dataDir_ + "/../serve.log"); }

    // Pauses the server process (SIGSTOP) for a while: only the harness's own self-test uses
    // it, to prove that the watch notices a server that does not answer.
    void freezeFor(std::chrono::milliseconds duration) {
        process_->kill(SIGSTOP);
        std::this_thread::sleep_for(duration);
        process_->kill(SIGCONT);
    }

    ~HostileServer() {
        watch_.reset();
        if (process_) {
            process_->kill(SIGTERM);
            process_->wait();
        }
        std::error_code ignored;
        std::filesystem::remove_all(root_, ignored);
    }

private:
    HostileServer() {
        std::string pattern = (std::filesystem::temp_directory_path() / "svc-hostile-XXXXXX").string();
        root_ = mkdtemp(pattern.data());
        dataDir_ = root_ + "/data";
        std::string binary = SVC_SERVER_BINARY;
        std::string assets = SVC_ASSETS_DIR;
        auto setup = nlohmann::json::parse(
            runCommand({binary, "demo", "setup", "--data-dir", dataDir_, "--assets-dir", assets}, root_ + "/setup.json"));
        demo_.apiId = setup.at("apiId").get<std::string>();
        firstSku_ = setup.at("firstSku").get<std::string>();
        auto created = nlohmann::json::parse(
            runCommand({binary, "tenant", "create", "--data-dir", dataDir_, "--name", "Tenant B"}, root_ + "/tenant-b.json"));
        tenantB_ = {created.at("apiId").get<std::string>(), created.at("apiSecret").get<std::string>()};
        runCommand({binary, "tenant", "configure", "--data-dir", dataDir_, "--api-id", tenantB_.apiId, "--commission-rate", "5%"},
                   root_ + "/configure.txt");
        process_ = std::make_unique<test::ChildProcess>(
            std::vector<std::string>{"/bin/sh", "-c",
                                     "exec \"$0\" serve --data-dir \"$1\" --listen 127.0.0.1:0 --assets-dir \"$2\" 2>&1",
                                     binary, dataDir_, assets},
            root_ + "/serve.log");
        if (!process_->started()) throw std::runtime_error("cannot start svc-server serve");
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        const std::string banner = "listening on http://127.0.0.1:";
        while (port_ == 0) {
            if (process_->hasExited() || std::chrono::steady_clock::now() > deadline) {
                throw std::runtime_error("svc-server serve did not start: " + readText(root_ + "/serve.log"));
            }
            std::string log = readText(root_ + "/serve.log");
            if (size_t at = log.find(banner); at != std::string::npos) port_ = std::stoi(log.substr(at + banner.size()));
            else std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        pid_ = pidOfServe();
        watch_ = std::make_unique<HealthWatch>(port_, pid_);
    }

    // `sh -c exec` replaced the shell with svc-server: the child's pid is the server's.
    int pidOfServe() const {
        for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
            std::string name = entry.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;
            std::string command = readText(entry.path().string() + "/cmdline");
            if (command.find(dataDir_) != std::string::npos && command.find("serve") != std::string::npos) return std::stoi(name);
        }
        throw std::runtime_error("the svc-server serve process is not in /proc");
    }

    std::string root_;
    std::string dataDir_;
    TenantKeys demo_;
    TenantKeys tenantB_;
    std::string firstSku_;
    std::unique_ptr<test::ChildProcess> process_;
    int port_ = 0;
    int pid_ = 0;
    std::unique_ptr<HealthWatch> watch_;
};

}  // namespace svc::hostile
