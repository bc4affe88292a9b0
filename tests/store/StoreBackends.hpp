#pragma once
// The backends every store contract runs against (docs/adr/0078, 0086). Each backend hands a
// test a fresh, empty Storage and the clock it stamps rows with.
// - SQLite: always, a data dir of its own per test.
// - PostgreSQL: for the tests of the stores in postgresStores() below, a schema of its own per
//   test (dropped after it) on the server in SVC_TEST_DATABASE_URL (a postgresql:// URI whose
//   role may create schemas), or else on this binary's
//   throwaway server (tests/support/ThrowawayPostgres.hpp). A test belongs to the store its
//   test case name starts with ("LeaseStore: ..."); a store opts in by being added to the list
//   once PgStorage hands it out. Without PostgreSQL the tests run on SQLite alone and
//   PostgresBackendTest.cpp reports the skip (a failure under CI=true).
#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/PgConnection.hpp"
#include "store/PgStorage.hpp"
#include "store/Storage.hpp"
#include "support/Skip.hpp"
#include "support/ThrowawayPostgres.hpp"
#include "tenant/Tenant.hpp"

namespace svc::contract {

class TestClock : public Clock {
public:
    int64_t nowSeconds() const override { return now.load(); }
    std::atomic<int64_t> now{1'750'000'000};
};

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "svc-store-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// The stores whose contract tests run on PostgreSQL too (PgStorage hands them out).
inline const std::set<std::string>& postgresStores() {
    static const std::set<std::string> stores{"LeaseStore", "TenantStore", "OperatorKeyStore", "OperatorStore", "WidgetSettingsStore",
                                                  "PullSourceStore", "ShopRegistrationStore", "FeedImportStore",
                                                  "CatalogStore", "PriceHistoryStore", "ContentStore", "CategoryMappingStore", "ImageFactStore",
                                                  "FleetStore", "EventStore", "LedgerStore", "MetricsReader", "RateLimitStore"};
    return stores;
}

inline bool postgresInstalled() {
    const char* url = std::getenv("SVC_TEST_DATABASE_URL");
    return (url && *url) || svc::test::ThrowawayPostgres::binDir().has_value();
}

// The server PostgreSQL tests run on: SVC_TEST_DATABASE_URL, or the throwaway one (started on
// first use); nullopt when there is none.
inline std::optional<std::string> postgresUrl() {
    if (const char* url = std::getenv("SVC_TEST_DATABASE_URL"); url && *url) return std::string(url);
    if (!svc::test::ThrowawayPostgres::binDir()) return std::nullopt;
    return svc::test::ThrowawayPostgres::shared().url();
}

// A schema of its own on the PostgreSQL server, dropped with this object.
class PostgresSchema {
public:
    explicit PostgresSchema(const std::string& serverUrl) : serverUrl_(serverUrl) {
        static std::atomic<int> sequence{0};
        name_ = "svc_test_" + std::to_string(::getpid()) + "_" + std::to_string(++sequence);
        run("create test schema", "CREATE SCHEMA " + name_);
        // libpq's URI parameter `options`: -c search_path=<schema>, percent-encoded.
        url_ = serverUrl_ + (serverUrl_.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + name_;
    }
    ~PostgresSchema() {
        try {
            run("drop test schema", "DROP SCHEMA " + name_ + " CASCADE");
        } catch (const std::exception&) {  // a test that broke the server has failed already
        }
    }
    PostgresSchema(const PostgresSchema&) = delete;
    PostgresSchema& operator=(const PostgresSchema&) = delete;

    // The server's URL with this schema as the search path.
    const std::string& url() const { return url_; }
    const std::string& name() const { return name_; }

private:
    void run(const char* purpose, const std::string& sql) const {
        auto connection = PgConnection::open(serverUrl_);
        if (!connection) throw std::runtime_error(connection.error().message);
        // The name is ours (digits and underscores), not a value: DDL takes no parameters.
        if (auto status = (*connection)->executeScript(purpose, sql.c_str()); !status) throw std::runtime_error(status.error().message);
    }

    std::string serverUrl_;
    std::string name_;
    std::string url_;
};

// One backend, opened for one test: what the store contracts see.
struct Backend {
    std::string name;
    TestClock clock;
    std::unique_ptr<TempDir> dir;  // SQLite's data dir
    std::unique_ptr<PostgresSchema> schema;  // PostgreSQL's schema
    std::unique_ptr<Storage> storage;

    ~Backend() { storage.reset(); }  // its connections closed before the schema is dropped

    // The same storage opened again (another process, another node).
    std::unique_ptr<Storage> openAnother() {
        auto opened = open();
        if (!opened) throw std::runtime_error(name + ": " + opened.error().message);
        return std::move(*opened);
    }

    Result<std::unique_ptr<Storage>> open() {
        if (!schema) return Storage::open(location_, clock);
        auto opened = PgStorage::open(schema->url(), clock);
        if (!opened) return opened.error();
        return std::unique_ptr<Storage>(std::move(*opened));
    }

    std::string location_;
};

// The running test's store: its test case name up to the first ':'.
inline std::string currentStore() {
    const std::string& test = svc::test::currentTestCaseName();
    return test.substr(0, test.find(':'));
}

inline std::vector<std::string> backendLocations() {
    std::vector<std::string> locations{"sqlite"};
    if (postgresStores().count(currentStore())) {
        if (auto url = postgresUrl()) locations.push_back(*url);
    }
    return locations;
}

inline std::unique_ptr<Backend> openBackend(const std::string& kind) {
    auto backend = std::make_unique<Backend>();
    if (kind == "sqlite") {
        backend->name = "sqlite";
        backend->dir = std::make_unique<TempDir>();
        backend->location_ = "sqlite:" + backend->dir->path();
    } else {
        backend->name = "postgres";
        backend->schema = std::make_unique<PostgresSchema>(kind);
    }
    auto opened = backend->open();
    if (!opened) throw std::runtime_error(backend->name + ": " + opened.error().message);
    backend->storage = std::move(*opened);
    return backend;
}

// Runs `check` once per backend, each on a fresh storage; failures name the backend.
inline void forEachBackend(const std::function<void(Backend&)>& check) {
    for (const auto& location : backendLocations()) {
        auto backend = openBackend(location);
        CAPTURE(backend->name);
        check(*backend);
    }
}

// A tenant of its own for a test (API IDs unique per call, so a shared database works too).
inline Tenant newTenant(Storage& storage, const std::string& name) {
    static std::atomic<int> sequence{0};
    Tenant tenant;
    tenant.name = name;
    tenant.apiId = "contract-" + std::to_string(::getpid()) + "-" + std::to_string(++sequence);
    tenant.secretHash = "hash-" + tenant.apiId;
    tenant.feedId = "00000000-0000-4000-8000-" + std::string(12 - std::to_string(sequence.load()).size(), '0') + std::to_string(sequence.load());
    auto created = storage.tenants().create(tenant);
    if (!created) throw std::runtime_error("tenant: " + created.error().message);
    return *created;
}

// Strings a store must keep byte for byte: quotes, SQL, NUL-free control bytes, UTF-8, long.
inline const std::vector<std::string>& hostileStrings() {
    static const std::vector<std::string> strings{
        "'; DROP TABLE tenants; --", "\"quoted\" \\ backslash", "%_ LIKE wildcards _%", "tab\tnew\nline\rreturn", "\x01\x02\x1b[0m\x1f\x7f",
        "\xC3\xA4\xC3\xB6\xC3\xBC \xE2\x82\xAC \xF0\x9F\x91\x9F", std::string(3000, 'x')};
    return strings;
}

}  // namespace svc::contract
