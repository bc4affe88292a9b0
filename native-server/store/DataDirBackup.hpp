#pragma once
// `svc-server backup` and `restore`: a consistent online copy of a data dir, and its way back.
// Every SQLite database (svc.sqlite3, events.sqlite3, catalog/tenant-*.sqlite3, any added later)
// is copied with SQLite's online backup API, which reads one committed snapshot while the
// server goes on writing (WAL); every other file svc keeps (keys, encrypted uploads, set
// photos, thumbnails, the demo shop's files) is copied as it is. Transient folders (pulls/,
// locks/, thumbs/tmp/) are left out. A manifest lists every file with its size and SHA-256,
// so a restore (or `backup --verify`) finds a damaged or incomplete copy before using it.
// Files are written 0600 in folders 0700. docs/adr/0063.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

struct BackupFile {
    std::string path;  // relative to the data dir, '/'-separated
    uint64_t bytes = 0;
    std::string sha256;  // hex
    bool database = false;
};

struct BackupManifest {
    static constexpr int kFormat = 1;
    int format = kFormat;
    int64_t createdAt = 0;  // Unix seconds, when the copy started
    std::vector<BackupFile> files;
};

class DataDirBackup {
public:
    // Copies `dataDir` into `targetDir`, which must not exist or be empty. Order matters for
    // consistency across files (ADR 0063): svc.sqlite3 first (an import it lists as queued or
    // running is requeued at the next start, so a catalog copied later is never behind what
    // the history calls applied), then the catalogs, then events.sqlite3 last (the newest
    // orders), then the other files (keys and the uploads the history refers to).
    static Result<BackupManifest> backup(const std::string& dataDir, const std::string& targetDir, int64_t nowSeconds);

    // Checks every file of a backup against its manifest.
    static Result<BackupManifest> verify(const std::string& backupDir);

    // Restores a verified backup into `dataDir`, which must not exist or be empty, and must not
    // be held by a running server (DataDirLock). Nothing is written when the check fails.
    static Result<BackupManifest> restore(const std::string& backupDir, const std::string& dataDir);
};

}  // namespace svc
