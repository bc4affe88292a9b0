#pragma once
// Where the server suite keeps a data dir's stores (issue 24: "the server suite can run against
// either"). By default the data dir's SQLite, as `serve --data-dir` does. With
// SVC_TEST_DATABASE_URL set (a postgresql:// URI), a schema of that PostgreSQL server named
// after the data dir, so every Storage a test opens for one data dir (the server's, the CLI's
// view, a restart) shares one database, as the nodes of a cluster do; the schemas are dropped
// when the test binary ends. Tests that run the svc-server binary as a child keep SQLite: the
// binary is tested on PostgreSQL by the cluster suite.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "core/Clock.hpp"
#include "store/PgConnection.hpp"
#include "store/Storage.hpp"

namespace svc::test {

class TestStorage {
public:
    // The PostgreSQL server the suite runs on, or empty for SQLite.
    static std::string databaseUrl() {
        const char* url = std::getenv("SVC_TEST_DATABASE_URL");
        return url ? std::string(url) : std::string();
    }
    static bool onPostgres() { return !databaseUrl().empty(); }

    // What Storage::open is given for `dataDir`.
    static std::string locationOf(const std::string& dataDir) {
        std::string server = databaseUrl();
        if (server.empty()) return dataDir;
        return instance().schemaUrl(server, dataDir);
    }

    static Result<std::unique_ptr<Storage>> open(const std::string& dataDir, const Clock& clock) { return Storage::open(locationOf(dataDir), clock); }

private:
    static TestStorage& instance() {
        static TestStorage storage;
        return storage;
    }
    ~TestStorage() {
        for (const auto& [dataDir, schema] : schemas_) {
            auto connection = PgConnection::open(server_);
            if (connection) (void)(*connection)->executeScript("drop server suite schema", ("DROP SCHEMA IF EXISTS " + schema + " CASCADE").c_str());
        }
    }

    std::string schemaUrl(const std::string& server, const std::string& dataDir) {
        std::lock_guard lock(mutex_);
        server_ = server;
        auto found = schemas_.find(dataDir);
        if (found == schemas_.end()) {
            // Letters, digits and underscores only: the name is DDL, not a parameter.
            std::string schema = "svc_server_" + std::to_string(::getpid()) + "_" + std::to_string(schemas_.size() + 1);
            auto connection = PgConnection::open(server);
            if (!connection) throw std::runtime_error("server suite on PostgreSQL: " + connection.error().message);
            if (auto status = (*connection)->executeScript("create server suite schema", ("CREATE SCHEMA " + schema).c_str()); !status) {
                throw std::runtime_error("server suite on PostgreSQL: " + status.error().message);
            }
            found = schemas_.emplace(dataDir, schema).first;
        }
        return server + (server.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + found->second;
    }

    std::mutex mutex_;
    std::string server_;
    std::map<std::string, std::string> schemas_;  // data dir -> its schema
};

}  // namespace svc::test
