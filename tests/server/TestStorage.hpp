#pragma once
// Where the server suite keeps a data dir's stores (issue 24: "the server suite can run against
// either"; docs/adr/0086). By default the data dir's SQLite, as `serve --data-dir` does. On
// PostgreSQL, a schema of that server named after the data dir, so every Storage a test opens
// for one data dir (the server's, the CLI's view, a restart) and every svc-server child given
// withDatabaseUrl() share one database, as the nodes of a cluster do; the schemas are dropped
// when the test binary ends (with the server, for a throwaway one). The suite runs on PostgreSQL
// when asked:
// - SVC_TEST_DATABASE_URL=postgresql://...: that server (its role may create schemas);
// - SVC_TEST_POSTGRES=throwaway: a server of this binary's own (tests/support/ThrowawayPostgres.hpp),
//   as `SVC_TEST_SERVER_POSTGRES=1 make test` runs it (the suite server-postgres). PostgreSQL missing is then a skip of the
//   whole run (a failure under CI=true: scripts/install-deps.sh installs it), reported by the
//   backend test (StorageBackendTest.cpp).
// A test of SQLite's own machinery says so with sqliteOnly(): skipped on PostgreSQL.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "store/PgConnection.hpp"
#include "store/Storage.hpp"
#include "support/Skip.hpp"
#include "support/ThrowawayPostgres.hpp"

namespace svc::test {

class TestStorage {
public:
    // Whether the suite was asked to run on PostgreSQL (read from the environment only: test
    // cases are declared before any server starts).
    static bool onPostgres() { return givenUrl() || throwawayAsked(); }

    // Why the backend the suite was asked for cannot be used (PostgreSQL not installed, or not
    // starting); nullopt when it can. Starts the throwaway server when one was asked for.
    static std::optional<std::string> unavailable() {
        if (const char* asked = std::getenv("SVC_TEST_POSTGRES"); asked && *asked && std::string(asked) != "throwaway") {
            return "SVC_TEST_POSTGRES=" + std::string(asked) + ": the only value is 'throwaway'";
        }
        if (!throwawayAsked() || givenUrl()) return std::nullopt;
        if (!ThrowawayPostgres::binDir()) return std::string(kNotInstalled);
        if (!ThrowawayPostgres::shared().url()) return "the throwaway PostgreSQL did not start: " + ThrowawayPostgres::shared().error();
        return std::nullopt;
    }
    // PostgreSQL was asked for and is not installed: a dependency scripts/install-deps.sh installs.
    static bool postgresMissing() { return throwawayAsked() && !givenUrl() && !ThrowawayPostgres::binDir(); }
    static constexpr const char* kBackendTest = "server suite: runs on the storage backend it was asked for";
    static constexpr const char* kNotInstalled =
        "PostgreSQL is not installed (scripts/install-deps.sh installs it): the server suite did not run on PostgreSQL";

    // What Storage::open is given for `dataDir`: the data dir itself, or its schema's URL.
    static std::string locationOf(const std::string& dataDir) {
        if (!onPostgres()) return dataDir;
        return instance().schemaUrl(dataDir);
    }

    static Result<std::unique_ptr<Storage>> open(const std::string& dataDir, const Clock& clock) { return Storage::open(locationOf(dataDir), clock); }

    // `copy`, a data dir copied from `original` for another node of one deployment, keeps its
    // stores where `original`'s are: on SQLite the copied files, on PostgreSQL the same schema
    // (nodes of a cluster share one database; a schema cannot be copied as files are).
    static void shareDatabase(const std::string& original, const std::string& copy) {
        if (onPostgres()) instance().alias(original, copy);
    }

    // An svc-server command line run on the stores of the data dir it names (`--data-dir DIR`):
    // on PostgreSQL with `--database-url` of DIR's schema added (docs/adr/0091), so the child and
    // the test's own Storage of DIR see one database. Unchanged on SQLite, and where it names
    // no data dir or a database of its own.
    static std::vector<std::string> withDatabaseUrl(std::vector<std::string> arguments) {
        if (!onPostgres() || std::find(arguments.begin(), arguments.end(), "--database-url") != arguments.end()) return arguments;
        auto dataDir = std::find(arguments.begin(), arguments.end(), "--data-dir");
        if (dataDir == arguments.end() || dataDir + 1 == arguments.end()) return arguments;
        std::string location = locationOf(*(dataDir + 1));
        arguments.insert(arguments.end(), {"--database-url", location});
        return arguments;
    }

private:
    static const char* givenUrl() {
        const char* url = std::getenv("SVC_TEST_DATABASE_URL");
        return url && *url ? url : nullptr;
    }
    static bool throwawayAsked() {
        const char* asked = std::getenv("SVC_TEST_POSTGRES");
        return asked && std::string(asked) == "throwaway";
    }
    // The PostgreSQL server the schemas are made on.
    static std::string serverUrl() {
        if (const char* url = givenUrl()) return url;
        if (auto why = unavailable()) throw std::runtime_error("server suite on PostgreSQL: " + *why);
        return *ThrowawayPostgres::shared().url();
    }

    static TestStorage& instance() {
        static TestStorage storage;
        return storage;
    }
    TestStorage() : server_(serverUrl()) {}
    ~TestStorage() {
        // A throwaway server's schemas go with its files, sparing ~0.1 s of DROP each.
        if (!givenUrl()) return;
        for (const auto& [dataDir, schema] : schemas_) {
            auto connection = PgConnection::open(server_);
            if (connection) (void)(*connection)->executeScript("drop server suite schema", ("DROP SCHEMA IF EXISTS " + schema + " CASCADE").c_str());
        }
    }

    std::string schemaUrl(const std::string& dataDir) {
        std::lock_guard lock(mutex_);
        return server_ + (server_.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + schemaOf(dataDir);
    }
    void alias(const std::string& original, const std::string& copy) {
        std::lock_guard lock(mutex_);
        schemas_[copy] = schemaOf(original);
    }
    // Called with mutex_ held.
    const std::string& schemaOf(const std::string& dataDir) {
        auto found = schemas_.find(dataDir);
        if (found != schemas_.end()) return found->second;
        // Letters, digits and underscores only: the name is DDL, not a parameter.
        std::string schema = "svc_server_" + std::to_string(::getpid()) + "_" + std::to_string(++created_);
        auto connection = PgConnection::open(server_);
        if (!connection) throw std::runtime_error("server suite on PostgreSQL: " + connection.error().message);
        if (auto status = (*connection)->executeScript("create server suite schema", ("CREATE SCHEMA " + schema).c_str()); !status) {
            throw std::runtime_error("server suite on PostgreSQL: " + status.error().message);
        }
        return schemas_.emplace(dataDir, schema).first->second;
    }

    std::mutex mutex_;
    std::string server_;
    int created_ = 0;
    std::map<std::string, std::string> schemas_;  // data dir -> its schema (copies share their original's)
};

// A test case of SQLite's own machinery (its files, journal modes, WAL, page counts, the data
// dir's migrations and backups): skipped, with `why`, when the suite runs on PostgreSQL.
inline needs sqliteOnly(const std::string& why) {
    return needs(SkipReason::AnotherStorageBackend, !TestStorage::onPostgres(), "SQLite only: " + why);
}

}  // namespace svc::test
