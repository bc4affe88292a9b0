#pragma once
// The browser's storage as the SDK logic sees it (cookies, localStorage,
// sessionStorage, randomness, the page's host). Every operation may fail in a real
// browser (private modes, blocked third-party storage, a throwing getter): the adapter
// turns failures into nullopt / false, never into an exception.
#include <optional>
#include <string>

namespace svc {

enum class StorageArea { Local, Session };

class BrowserStorage {
public:
    virtual ~BrowserStorage() = default;
    // The value of the first cookie of that name visible to the page.
    virtual std::optional<std::string> cookie(const std::string& name) = 0;
    // Sets document.cookie to `assignment` ("name=value; Max-Age=...; Domain=...").
    virtual void setCookie(const std::string& assignment) = 0;
    virtual std::optional<std::string> item(StorageArea area, const std::string& key) = 0;
    virtual bool setItem(StorageArea area, const std::string& key, const std::string& value) = 0;
    virtual void removeItem(StorageArea area, const std::string& key) = 0;
    // `count` random bytes from the browser's CSPRNG.
    virtual std::string randomBytes(size_t count) = 0;
    virtual std::string hostname() = 0;
    virtual bool secureContext() = 0;  // https: the cookie gets Secure
};

}  // namespace svc
