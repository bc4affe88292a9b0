#include "feed/UploadSigner.hpp"

#include <sodium.h>

namespace svc {
namespace {

std::string canonical(const std::string& method, const std::string& path, int64_t expiresAt,
                      const std::map<std::string, std::string>& headers) {
    // One field per line; header names are lower-case and sorted (std::map), values verbatim.
    std::string text = method + "\n" + path + "\n" + std::to_string(expiresAt) + "\n";
    for (const auto& [name, value] : headers) text += name + ":" + value + "\n";
    return text;
}

}  // namespace

std::string UploadSigner::sign(const std::string& method, const std::string& path, int64_t expiresAt,
                               const std::map<std::string, std::string>& headers) const {
    std::string text = canonical(method, path, expiresAt, headers);
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    crypto_auth_hmacsha256(mac, reinterpret_cast<const unsigned char*>(text.data()), text.size(), key_.data());
    char hex[sizeof mac * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
    return hex;
}

bool UploadSigner::verify(const std::string& signature, const std::string& method, const std::string& path, int64_t expiresAt,
                          const std::map<std::string, std::string>& headers) const {
    std::string expected = sign(method, path, expiresAt, headers);
    return signature.size() == expected.size() && sodium_memcmp(signature.data(), expected.data(), expected.size()) == 0;
}

}  // namespace svc
