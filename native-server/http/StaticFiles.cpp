#include "http/StaticFiles.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sodium.h>

#include "http/ResponseCompression.hpp"

namespace svc {

bool StaticFiles::isSafeRelativePath(const std::string& path) {
    if (path.empty() || path.front() == '/' || path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
        return false;
    }
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string::npos) end = path.size();
        std::string segment = path.substr(start, end - start);
        if (segment.empty() || segment.front() == '.') return false;  // "..", ".", hidden files
        start = end + 1;
    }
    return true;
}

std::string StaticFiles::contentTypeFor(const std::string& path) {
    auto extension = std::filesystem::path(path).extension().string();
    if (extension == ".html") return "text/html; charset=utf-8";
    if (extension == ".js" || extension == ".mjs") return "text/javascript; charset=utf-8";
    if (extension == ".css") return "text/css; charset=utf-8";
    if (extension == ".json") return "application/json";
    if (extension == ".wasm") return "application/wasm";
    if (extension == ".svg") return "image/svg+xml";
    if (extension == ".png") return "image/png";
    if (extension == ".jpg" || extension == ".jpeg") return "image/jpeg";
    if (extension == ".csv") return "text/csv; charset=utf-8";
    // The SDK's TypeScript declarations (svc.d.ts): readable in a browser tab, compressed like text.
    if (extension == ".ts") return "text/plain; charset=utf-8";
    return "application/octet-stream";
}

StaticFiles StaticFiles::preloaded(std::string root) {
    StaticFiles files(std::move(root));
    std::map<std::string, StaticFile> contents;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(files.root_, error)) {
        std::string name = entry.path().filename().string();
        auto file = files.readFromDisk(name);
        if (!file) continue;
        if (ResponseCompression::worthCompressing(file->contentType, file->content.size())) {
            file->gzipped = ResponseCompression::gzip(file->content, 9);
        }
        contents.emplace(name, std::move(*file));
    }
    files.preloaded_ = std::move(contents);
    return files;
}

std::string StaticFiles::fingerprint() const {
    if (!preloaded_) return {};
    crypto_generichash_state state;
    unsigned char digest[8];
    crypto_generichash_init(&state, nullptr, 0, sizeof digest);
    auto feed = [&](const std::string& bytes) {
        // Length first: "ab"+"c" and "a"+"bc" must not hash alike.
        uint64_t size = bytes.size();
        crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(&size), sizeof size);
        crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    };
    for (const auto& [name, file] : *preloaded_) {
        feed(name);
        feed(file.content);
    }
    crypto_generichash_final(&state, digest, sizeof digest);
    char hex[sizeof digest * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

std::optional<StaticFile> StaticFiles::read(const std::string& relativePath) const {
    if (!isSafeRelativePath(relativePath)) return std::nullopt;
    if (preloaded_) {
        auto found = preloaded_->find(relativePath);
        if (found == preloaded_->end()) return std::nullopt;
        return found->second;
    }
    return readFromDisk(relativePath);
}

std::optional<StaticFile> StaticFiles::readFromDisk(const std::string& relativePath) const {
    if (!isSafeRelativePath(relativePath)) return std::nullopt;
    std::filesystem::path full = std::filesystem::path(root_) / relativePath;
    std::error_code error;
    if (!std::filesystem::is_regular_file(full, error)) return std::nullopt;
    std::ifstream file(full, std::ios::binary);
    if (!file) return std::nullopt;
    std::ostringstream content;
    content << file.rdbuf();
    return StaticFile{content.str(), contentTypeFor(relativePath), {}};
}

void StaticFiles::substitute(std::string& text, const std::string& placeholder, const std::string& value) {
    for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
        text.replace(at, placeholder.size(), value);
    }
}

}  // namespace svc
