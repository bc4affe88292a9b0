#pragma once
// A real svc-server in the test process: real SQLite in a temporary data dir, the
// real HTTP server on an ephemeral loopback port, a real HTTP client.
#include <httplib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "http/ApiServer.hpp"
#include "store/SqliteStorage.hpp"
#include "tenant/TenantService.hpp"

namespace svc::test {

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "svc-test-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::string& path() const { return path_; }
    std::string file(const std::string& name, const std::string& content) const {
        std::string full = path_ + "/" + name;
        std::ofstream(full, std::ios::binary) << content;
        return full;
    }

private:
    std::string path_;
};

class RunningServer {
public:
    explicit RunningServer(const std::string& dataDir) {
        auto opened = SqliteStorage::open(dataDir);
        if (!opened) throw std::runtime_error(opened.error().message);
        storage = std::move(*opened);
        ServerOptions options;
        options.host = "127.0.0.1";
        options.port = 0;
        options.dataDir = dataDir;
        options.assetsDir = SVC_ASSETS_DIR;
        options.threads = 4;
        server = std::make_unique<ApiServer>(options, *storage);
        auto port = server->bind();
        if (!port) throw std::runtime_error(port.error().message);
        thread = std::thread([this] { server->run(); });
    }
    ~RunningServer() {
        server->stop();
        thread.join();
    }
    httplib::Client client() const {
        httplib::Client http("127.0.0.1", server->port());
        http.set_connection_timeout(5);
        http.set_read_timeout(10);
        return http;
    }

    std::unique_ptr<SqliteStorage> storage;
    std::unique_ptr<ApiServer> server;
    std::thread thread;
};

// A fully quoted, ';'-separated feed built row by row.
inline std::string feedCsv(const std::vector<std::vector<std::string>>& rows) {
    std::string out;
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i) out += ';';
            out += '"';
            for (char c : row[i]) out += c == '"' ? std::string("\"\"") : std::string(1, c);
            out += '"';
        }
        out += '\n';
    }
    return out;
}

}  // namespace svc::test
