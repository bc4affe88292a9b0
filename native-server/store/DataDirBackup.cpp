#include "store/DataDirBackup.hpp"

#include <sodium.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "store/DataDirLock.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace fs = std::filesystem;
namespace {

constexpr const char* kManifestName = "manifest.json";

// Folders whose content is in flight or rebuilt at start: not part of a backup.
bool isTransient(const std::string& relative) {
    for (const char* prefix : {"pulls/", "locks/", "thumbs/tmp/"}) {
        if (relative.rfind(prefix, 0) == 0) return true;
    }
    return relative == "svc.lock";
}

bool isDatabase(const std::string& relative) {
    return relative.size() > 8 && relative.compare(relative.size() - 8, 8, ".sqlite3") == 0;
}

bool isDatabaseSidecar(const std::string& relative) {
    for (const char* suffix : {".sqlite3-wal", ".sqlite3-shm", ".sqlite3-journal"}) {
        size_t length = std::char_traits<char>::length(suffix);
        if (relative.size() > length && relative.compare(relative.size() - length, length, suffix) == 0) return true;
    }
    return false;
}

Result<std::string> sha256OfFile(const fs::path& path, uint64_t& bytes) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error::unavailable(path.string() + ": cannot be read");
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    std::vector<char> buffer(1 << 16);
    bytes = 0;
    while (file) {
        file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        auto got = static_cast<size_t>(file.gcount());
        crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(buffer.data()), got);
        bytes += got;
    }
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&state, digest);
    static const char* hex = "0123456789abcdef";
    std::string text;
    for (unsigned char byte : digest) {
        text += hex[byte >> 4];
        text += hex[byte & 15];
    }
    return text;
}

Status makePrivateDirectories(const fs::path& directory, const fs::path& root) {
    std::error_code error;
    fs::create_directories(directory, error);
    if (error) return Error::unavailable(directory.string() + ": " + error.message());
    for (fs::path at = directory; !at.empty(); at = at.parent_path()) {
        fs::permissions(at, fs::perms::owner_all, fs::perm_options::replace, error);
        if (at == root || at == at.parent_path()) break;
    }
    return {};
}

// One committed snapshot of a live database, read while the server keeps writing (WAL).
Status copyDatabase(const fs::path& source, const fs::path& target) {
    sqlite3* from = nullptr;
    sqlite3* to = nullptr;
    auto close = [&] {
        sqlite3_close_v2(from);
        sqlite3_close_v2(to);
    };
    if (sqlite3_open_v2(source.c_str(), &from, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        std::string message = from ? sqlite3_errmsg(from) : "cannot open";
        close();
        return Error::unavailable(source.string() + ": " + message);
    }
    sqlite3_busy_timeout(from, 10000);
    if (sqlite3_open_v2(target.c_str(), &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        close();
        return Error::unavailable(target.string() + ": cannot be created");
    }
    sqlite3_backup* backup = sqlite3_backup_init(to, "main", from, "main");
    if (backup == nullptr) {
        std::string message = sqlite3_errmsg(to);
        close();
        return Error::unavailable(source.string() + ": backup: " + message);
    }
    // All pages in one step: one read transaction, so one snapshot, however long the copy takes.
    int status = SQLITE_OK;
    for (int attempt = 0; attempt < 100; ++attempt) {
        status = sqlite3_backup_step(backup, -1);
        if (status != SQLITE_BUSY && status != SQLITE_LOCKED) break;
        sqlite3_sleep(100);
    }
    sqlite3_backup_finish(backup);
    if (status != SQLITE_DONE) {
        std::string message = sqlite3_errstr(status);
        close();
        return Error::unavailable(source.string() + ": backup: " + message);
    }
    // A copy is a plain file on its own (no -wal beside it): the server turns WAL on when it opens it.
    sqlite3_exec(to, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    close();
    return {};
}

Status copyPlainFile(const fs::path& source, const fs::path& target) {
    std::error_code error;
    fs::copy_file(source, target, fs::copy_options::overwrite_existing, error);
    if (error) return Error::unavailable(source.string() + ": " + error.message());
    return {};
}

Result<std::string> relativeName(const fs::path& path, const fs::path& root) {
    std::string relative = fs::relative(path, root).generic_string();
    if (relative.empty() || relative.rfind("..", 0) == 0) return Error::internal(path.string() + " is outside " + root.string());
    return relative;
}

bool directoryIsEmptyOrAbsent(const fs::path& directory) {
    std::error_code error;
    if (!fs::exists(directory, error)) return true;
    return fs::is_directory(directory, error) && fs::is_empty(directory, error);
}

nlohmann::json manifestJson(const BackupManifest& manifest) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& file : manifest.files) {
        files.push_back({{"path", file.path}, {"bytes", file.bytes}, {"sha256", file.sha256}, {"database", file.database}});
    }
    return {{"format", manifest.format}, {"createdAt", manifest.createdAt}, {"files", files}};
}

Result<BackupManifest> readManifest(const fs::path& backupDir) {
    fs::path path = backupDir / kManifestName;
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error::notFound(path.string() + ": no manifest (not a backup made by `svc-server backup`)");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    // Written by svc itself, but read back from a disk that may have been damaged: checked member by member.
    // Its size follows the data dir's file count, so only the depth is limited.
    auto read = BoundedJson::parse(text, path.string(), JsonLimits{JsonLimits::kDefaultMaxDepth, text.size()});
    if (!read) return read.error();
    nlohmann::json& json = *read;
    auto bad = [&](const std::string& what) { return Error::invalidArgument(path.string() + ": " + what); };
    if (!json.is_object()) return bad("not a JSON object");
    if (!json.contains("format") || !json["format"].is_number_integer() || json["format"].get<int>() != BackupManifest::kFormat) {
        return bad("format: expected " + std::to_string(BackupManifest::kFormat));
    }
    BackupManifest manifest;
    if (!json.contains("createdAt") || !json["createdAt"].is_number_integer()) return bad("createdAt: expected an integer");
    manifest.createdAt = json["createdAt"].get<int64_t>();
    if (!json.contains("files") || !json["files"].is_array()) return bad("files: expected an array");
    for (size_t i = 0; i < json["files"].size(); ++i) {
        const auto& entry = json["files"][i];
        std::string at = "files[" + std::to_string(i) + "]";
        if (!entry.is_object() || !entry.contains("path") || !entry["path"].is_string() || !entry.contains("bytes") ||
            !entry["bytes"].is_number_unsigned() || !entry.contains("sha256") || !entry["sha256"].is_string()) {
            return bad(at + ": expected {path, bytes, sha256}");
        }
        BackupFile file{entry["path"].get<std::string>(), entry["bytes"].get<uint64_t>(), entry["sha256"].get<std::string>(),
                        entry.value("database", false)};
        fs::path normal = fs::path(file.path).lexically_normal();
        if (file.path.empty() || normal.is_absolute() || normal.generic_string().rfind("..", 0) == 0 || file.path == kManifestName) {
            return bad(at + ".path: '" + file.path + "' is not a path inside the data dir");
        }
        manifest.files.push_back(std::move(file));
    }
    return manifest;
}

}  // namespace

Result<BackupManifest> DataDirBackup::backup(const std::string& dataDir, const std::string& targetDir, int64_t nowSeconds) {
    fs::path source(dataDir);
    fs::path target(targetDir);
    std::error_code error;
    if (!fs::exists(source / "svc.sqlite3", error)) return Error::notFound("--data-dir: " + dataDir + " holds no svc.sqlite3");
    if (!directoryIsEmptyOrAbsent(target)) return Error::alreadyExists("--to: " + targetDir + " exists and is not empty");
    if (auto made = makePrivateDirectories(target, target); !made) return made.error();

    std::vector<std::string> databases;
    std::vector<std::string> plainFiles;
    for (auto it = fs::recursive_directory_iterator(source, error); !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (!it->is_regular_file(error)) continue;
        auto relative = relativeName(it->path(), source);
        if (!relative) return relative.error();
        if (isTransient(*relative) || isDatabaseSidecar(*relative)) continue;
        (isDatabase(*relative) ? databases : plainFiles).push_back(*relative);
    }
    if (error) return Error::unavailable(dataDir + ": " + error.message());
    // svc.sqlite3 first, the catalogs next, events.sqlite3 last (see the header).
    auto rank = [](const std::string& name) { return name == "svc.sqlite3" ? 0 : name == "events.sqlite3" ? 2 : 1; };
    std::sort(databases.begin(), databases.end(), [&](const std::string& a, const std::string& b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
    });
    std::sort(plainFiles.begin(), plainFiles.end());

    BackupManifest manifest;
    manifest.createdAt = nowSeconds;
    auto copyOne = [&](const std::string& relative, bool database) -> Status {
        fs::path to = target / relative;
        if (auto made = makePrivateDirectories(to.parent_path(), target); !made) return made.error();
        if (auto copied = database ? copyDatabase(source / relative, to) : copyPlainFile(source / relative, to); !copied) {
            return copied.error();
        }
        fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, error);
        BackupFile file{relative, 0, "", database};
        auto digest = sha256OfFile(to, file.bytes);
        if (!digest) return digest.error();
        file.sha256 = *digest;
        manifest.files.push_back(std::move(file));
        return {};
    };
    for (const auto& name : databases) {
        if (auto copied = copyOne(name, true); !copied) return copied.error();
    }
    for (const auto& name : plainFiles) {
        // A file removed while the backup ran (a thumbnail replaced, an upload imported) is not needed.
        if (!fs::exists(source / name, error)) continue;
        if (auto copied = copyOne(name, false); !copied) return copied.error();
    }
    fs::path manifestPath = target / kManifestName;
    {
        std::ofstream out(manifestPath, std::ios::binary | std::ios::trunc);
        out << manifestJson(manifest).dump(2) << "\n";
        if (!out) return Error::unavailable(manifestPath.string() + ": cannot be written");
    }
    fs::permissions(manifestPath, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, error);
    return manifest;
}

Result<BackupManifest> DataDirBackup::verify(const std::string& backupDir) {
    auto manifest = readManifest(backupDir);
    if (!manifest) return manifest.error();
    bool hasMain = false;
    for (const auto& file : manifest->files) {
        hasMain = hasMain || file.path == "svc.sqlite3";
        uint64_t bytes = 0;
        auto digest = sha256OfFile(fs::path(backupDir) / file.path, bytes);
        if (!digest) return Error::invalidArgument(backupDir + ": " + file.path + " is missing");
        if (bytes != file.bytes || *digest != file.sha256) {
            return Error::invalidArgument(backupDir + ": " + file.path + " differs from the manifest (damaged or changed since the backup)");
        }
    }
    if (!hasMain) return Error::invalidArgument(backupDir + ": the manifest lists no svc.sqlite3");
    return manifest;
}

Result<BackupManifest> DataDirBackup::restore(const std::string& backupDir, const std::string& dataDir) {
    fs::path target(dataDir);
    if (DataDirLock::isHeld(dataDir)) {
        return Error::permissionDenied("--data-dir: " + dataDir + " is in use by a running svc-server; stop it and restore into a new dir");
    }
    if (!directoryIsEmptyOrAbsent(target)) {
        return Error::alreadyExists("--data-dir: " + dataDir + " exists and is not empty; restore into a new dir (never over live data)");
    }
    auto manifest = verify(backupDir);
    if (!manifest) return manifest.error();
    // Into a sibling first, renamed into place whole: an interrupted restore leaves no half data dir.
    fs::path staging = target.parent_path() / (target.filename().string() + ".restoring");
    std::error_code error;
    fs::remove_all(staging, error);
    if (auto made = makePrivateDirectories(staging, staging); !made) return made.error();
    for (const auto& file : manifest->files) {
        fs::path to = staging / file.path;
        if (auto made = makePrivateDirectories(to.parent_path(), staging); !made) return made.error();
        if (auto copied = copyPlainFile(fs::path(backupDir) / file.path, to); !copied) return copied.error();
        fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, error);
    }
    if (fs::exists(target, error)) fs::remove(target, error);  // empty, checked above
    fs::rename(staging, target, error);
    if (error) return Error::unavailable("--data-dir: " + dataDir + ": " + error.message());
    return manifest;
}

}  // namespace svc
