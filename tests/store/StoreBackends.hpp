#pragma once
// The backends every store contract runs against (docs/adr/0078). SQLite always; a database
// named by SVC_TEST_DATABASE_URL (e.g. postgres://...) as well, once Storage::open knows it.
// Each backend hands a test a fresh, empty Storage and the clock it stamps rows with.
#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/Storage.hpp"
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

// One backend, opened for one test: what the store contracts see.
struct Backend {
    std::string name;
    TestClock clock;
    std::unique_ptr<TempDir> dir;  // SQLite's data dir
    std::unique_ptr<Storage> storage;

    // The same storage opened again (another process, another node).
    std::unique_ptr<Storage> openAnother() {
        auto opened = Storage::open(location_, clock);
        if (!opened) throw std::runtime_error(name + ": " + opened.error().message);
        return std::move(*opened);
    }

    std::string location_;
};

inline std::vector<std::string> backendLocations() {
    std::vector<std::string> locations{"sqlite"};
    if (const char* url = std::getenv("SVC_TEST_DATABASE_URL"); url && *url) locations.push_back(url);
    return locations;
}

inline std::unique_ptr<Backend> openBackend(const std::string& kind) {
    auto backend = std::make_unique<Backend>();
    if (kind == "sqlite") {
        backend->name = "sqlite";
        backend->dir = std::make_unique<TempDir>();
        backend->location_ = "sqlite:" + backend->dir->path();
    } else {
        // A shared database: each test works on tenants of its own; the URL's scheme names the backend.
        backend->name = kind.substr(0, kind.find(':'));
        backend->location_ = kind;
    }
    auto opened = Storage::open(backend->location_, backend->clock);
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
