#include "store/DataDirMigrations.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "store/DataDirLock.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {
namespace {

namespace fs = std::filesystem;

// The data dir's databases in a stable order: the main file, the events file, the catalogs by tenant id.
Result<std::vector<DatabaseSchema>> databasesOf(const std::string& dataDir) {
    std::error_code error;
    if (!fs::is_directory(dataDir, error)) return Error::notFound("--data-dir: " + dataDir + " is not a directory");
    std::vector<DatabaseSchema> databases{{"svc.sqlite3", DatabaseKind::Main, {}, true}, {"events.sqlite3", DatabaseKind::Events, {}, true}};
    std::vector<std::pair<long long, std::string>> catalogs;
    fs::path catalogDir = fs::path(dataDir) / "catalog";
    if (fs::is_directory(catalogDir, error)) {
        for (const auto& entry : fs::directory_iterator(catalogDir, error)) {
            std::string name = entry.path().filename().string();
            constexpr std::string_view prefix = "tenant-", suffix = ".sqlite3";
            if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
                continue;
            }
            std::string id = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
            if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos) continue;
            catalogs.emplace_back(std::stoll(id), "catalog/" + name);
        }
        if (error) return Error::unavailable(catalogDir.string() + ": " + error.message());
    }
    std::sort(catalogs.begin(), catalogs.end());
    for (auto& [id, file] : catalogs) databases.push_back({std::move(file), DatabaseKind::Catalog, {}, true});
    return databases;
}

Error newerThanBinary(const DatabaseSchema& database) {
    return Error::unavailable(database.file + ": schema version " + std::to_string(database.state.current) +
                              " is newer than this svc-server's (" + std::to_string(database.state.latest) +
                              "): a newer svc-server wrote it; install that version or restore a backup made before the upgrade");
}

}  // namespace

Result<std::vector<DatabaseSchema>> DataDirMigrations::check(const std::string& dataDir) {
    auto databases = databasesOf(dataDir);
    if (!databases) return databases.error();
    for (auto& database : *databases) {
        std::string path = (fs::path(dataDir) / database.file).string();
        std::error_code error;
        if (!fs::exists(path, error)) {
            database.exists = false;
            database.state.latest = latestSchemaVersion(database.kind);
            continue;
        }
        auto db = SqliteDatabase::openReadOnly(path);
        if (!db) return Error::unavailable(database.file + ": " + db.error().message);
        auto state = schemaState(**db, database.kind);
        if (!state) return Error::unavailable(database.file + ": " + state.error().message);
        database.state = *state;
        if (database.state.newer()) return newerThanBinary(database);
    }
    return databases;
}

Result<std::vector<DatabaseSchema>> DataDirMigrations::apply(const std::string& dataDir) {
    auto before = check(dataDir);
    if (!before) return before.error();
    auto lock = DataDirLock::acquire(dataDir);
    if (!lock) return lock.error();
    for (const auto& database : *before) {
        if (!database.exists || database.state.pending.empty()) continue;
        auto db = SqliteDatabase::open((fs::path(dataDir) / database.file).string());
        if (!db) return Error::unavailable(database.file + ": " + db.error().message);
        if (auto status = migrate(**db, database.kind); !status) return Error::unavailable(database.file + ": " + status.error().message);
    }
    return before;
}

}  // namespace svc
