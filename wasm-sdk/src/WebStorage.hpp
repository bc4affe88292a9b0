#pragma once
// svc::BrowserStorage in the browser: document.cookie, localStorage, sessionStorage and
// crypto.getRandomValues through js/library.js, where every access is guarded (a
// throwing getter or a blocked store reads as absent).
#include "sdk/BrowserStorage.hpp"

namespace svc {

class WebStorage : public BrowserStorage {
public:
    std::optional<std::string> cookie(const std::string& name) override;
    void setCookie(const std::string& assignment) override;
    std::optional<std::string> item(StorageArea area, const std::string& key) override;
    bool setItem(StorageArea area, const std::string& key, const std::string& value) override;
    void removeItem(StorageArea area, const std::string& key) override;
    std::string randomBytes(size_t count) override;
    std::string hostname() override;
    bool secureContext() override;
};

}  // namespace svc
