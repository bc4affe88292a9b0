#include "WebStorage.hpp"

#include <cstdlib>

#include "HostImports.hpp"
#include "sdk/VisitorIdentity.hpp"

namespace svc {
namespace {

std::optional<std::string> take(char* text) {
    if (!text) return std::nullopt;
    std::string result(text);
    std::free(text);
    return result;
}

}  // namespace

std::optional<std::string> WebStorage::cookie(const std::string& name) {
    auto all = take(svc_document_cookie());
    if (!all) return std::nullopt;
    return VisitorIdentity::cookieValue(*all, name);
}

void WebStorage::setCookie(const std::string& assignment) { svc_set_document_cookie(assignment.c_str()); }

std::optional<std::string> WebStorage::item(StorageArea area, const std::string& key) {
    return take(svc_storage_get(area == StorageArea::Session, key.c_str()));
}

bool WebStorage::setItem(StorageArea area, const std::string& key, const std::string& value) {
    return svc_storage_set(area == StorageArea::Session, key.c_str(), value.c_str()) != 0;
}

void WebStorage::removeItem(StorageArea area, const std::string& key) {
    svc_storage_remove(area == StorageArea::Session, key.c_str());
}

std::string WebStorage::randomBytes(size_t count) {
    std::string bytes(count, '\0');
    svc_random_bytes(bytes.data(), static_cast<int>(count));
    return bytes;
}

std::string WebStorage::hostname() { return take(svc_location(0)).value_or(""); }
bool WebStorage::secureContext() { return take(svc_location(1)).value_or("") == "https:"; }

}  // namespace svc
