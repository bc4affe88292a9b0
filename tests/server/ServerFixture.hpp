#pragma once
// A real svc-server in the test process: real SQLite in a temporary data dir (or PostgreSQL:
// TestStorage.hpp), the real HTTP server on an ephemeral loopback port, a real HTTP client.
#include <httplib.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "app/Services.hpp"
#include "app/SystemClock.hpp"
#include "feed/FeedImportService.hpp"
#include "http/ApiServer.hpp"
#include "security/ServerKeys.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "store/Storage.hpp"
#include "tenant/TenantService.hpp"
#include "TestStorage.hpp"

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

// A clock the tests move by hand (the 24-hour rule, URL expiry).
class ManualClock : public Clock {
public:
    int64_t nowSeconds() const override { return now.load(); }
    void advance(int64_t seconds) { now += seconds; }
    std::atomic<int64_t> now{SystemClock().nowSeconds()};
};

// Another process's view of a data dir (the CLI's, a second server's): a Storage of its own.
inline std::unique_ptr<Storage> openStorage(const std::string& dataDir, const Clock& clock = systemClock()) {
    auto opened = TestStorage::open(dataDir, clock);
    if (!opened) throw std::runtime_error(opened.error().message);
    return std::move(*opened);
}

// Imports a file the way the CLI does; a failed import becomes an Error with its message.
inline Result<FeedImportReport> importFeedFile(Storage& storage, const Tenant& tenant, const std::string& dataDir,
                                               const std::string& path, const FeedImportOptions& options = {}) {
    auto keys = ServerKeys::loadOrCreate(dataDir);
    if (!keys) return keys.error();
    EncryptedFileBlobStore files(dataDir + "/uploads", keys->fileEncryptionKey());
    FeedImportService service(storage.catalog(), storage.imports(), files, storage.clock());
    CatalogChanged changed(storage.content());
    changed.publishFrom(service);
    auto outcome = service.importFile(tenant, path, options, "test", false, options.feed);
    if (!outcome) return outcome.error();
    if (outcome->record.status == ImportStatus::Failed) return Error::invalidArgument(outcome->record.message);
    if (outcome->record.status == ImportStatus::Held) return Error::permissionDenied(outcome->record.message);
    return outcome->report;
}

class RunningServer {
public:
    // `threads`: the HTTP workers; a concurrency test asks for the production count (ServerOptions{}.threads).
    explicit RunningServer(const std::string& dataDir, const Clock* clock = nullptr, ServerOptions options = {}, int threads = 4) {
        auto opened = TestStorage::open(dataDir, clock ? *clock : systemClock());
        if (!opened) throw std::runtime_error(opened.error().message);
        storage = std::move(*opened);
        auto loaded = ServerKeys::loadOrCreate(dataDir);
        if (!loaded) throw std::runtime_error(loaded.error().message);
        keys = *loaded;
        options.host = "127.0.0.1";
        options.port = 0;
        options.dataDir = dataDir;
        options.assetsDir = SVC_ASSETS_DIR;
        options.threads = threads;
        services = std::make_unique<Services>(*storage, *keys, options);
        server = std::make_unique<ApiServer>(options, *services);
        auto port = server->bind();
        if (!port) throw std::runtime_error(port.error().message);
        thread = std::thread([this] { server->run(); });
        // stop() before the listen loop has started would be lost and the join would hang:
        // a test that never sends a request ends right away.
        httplib::Client probe("127.0.0.1", *port);
        for (int attempt = 0; attempt < 500 && !probe.Get("/healthz"); ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    ~RunningServer() {
        server->stop();
        thread.join();
    }
    // Requests see every change made before them: pending content rebuilds finish first.
    httplib::Client client() const {
        services->contentIndex().catchUp();
        httplib::Client http("127.0.0.1", server->port());
        http.set_connection_timeout(5);
        http.set_read_timeout(10);
        return http;
    }

    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<Services> services;  // outlives the server: its workers stop after the last request
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
