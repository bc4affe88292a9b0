#pragma once
// Serves files below one directory. Paths are checked before any file is touched:
// no "..", no absolute paths, no hidden files. Directories whose files do not change
// while the server runs (the SDK, the loader) are preloaded: those are fetched on every
// shop page view, so they are read from disk once, not per request.
#include <map>
#include <optional>
#include <string>

namespace svc {

struct StaticFile {
    std::string content;
    std::string contentType;
    std::string gzipped;  // preloaded files worth compressing: gzip made once, at the smallest size
};

class StaticFiles {
public:
    explicit StaticFiles(std::string root) : root_(std::move(root)) {}
    // Reads every file of the directory (not subdirectories) into memory; from then on
    // read() answers from memory only.
    static StaticFiles preloaded(std::string root);
    std::optional<StaticFile> read(const std::string& relativePath) const;
    static std::string contentTypeFor(const std::string& path);
    static bool isSafeRelativePath(const std::string& path);
    // Fills a served file's placeholder ("__SVC_API_ID__") wherever it occurs.
    static void substitute(std::string& text, const std::string& placeholder, const std::string& value);
    // 16 hex digits that change whenever any preloaded file's name or bytes change (BLAKE2b over
    // them in name order); empty when not preloaded. The SDK's versioned URLs carry it, so those
    // URLs can be cached for a year: new bytes get a new URL (docs/adr/0077).
    std::string fingerprint() const;

private:
    std::optional<StaticFile> readFromDisk(const std::string& relativePath) const;

    std::string root_;
    std::optional<std::map<std::string, StaticFile>> preloaded_;
};

}  // namespace svc
