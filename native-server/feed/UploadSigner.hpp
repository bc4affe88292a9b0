#pragma once
// Pre-signed feed upload URLs. The signature is an HMAC-SHA-256 (key derived from the
// server's master key) over the method, the path, the expiry and every header the
// uploader must send, so changing any of them invalidates the URL.
#include <map>
#include <string>

#include "security/ServerKeys.hpp"

namespace svc {

class UploadSigner {
public:
    explicit UploadSigner(const Key256& key) : key_(key) {}
    std::string sign(const std::string& method, const std::string& path, int64_t expiresAt,
                     const std::map<std::string, std::string>& headers) const;
    bool verify(const std::string& signature, const std::string& method, const std::string& path, int64_t expiresAt,
                const std::map<std::string, std::string>& headers) const;

private:
    Key256 key_;
};

}  // namespace svc
