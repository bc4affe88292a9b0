#pragma once
// Serves files below one directory. Paths are checked before any file is touched:
// no "..", no absolute paths, no hidden files.
#include <optional>
#include <string>

namespace svc {

struct StaticFile {
    std::string content;
    std::string contentType;
};

class StaticFiles {
public:
    explicit StaticFiles(std::string root) : root_(std::move(root)) {}
    std::optional<StaticFile> read(const std::string& relativePath) const;
    static std::string contentTypeFor(const std::string& path);
    static bool isSafeRelativePath(const std::string& path);

private:
    std::string root_;
};

}  // namespace svc
