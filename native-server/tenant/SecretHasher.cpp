#include "tenant/SecretHasher.hpp"

#include <sodium.h>

#include <array>
#include <cstdio>

#include "text/Base64.hpp"

namespace svc {
namespace {

constexpr const char* kPrefix = "blake2b:";

std::string toHex(const unsigned char* bytes, size_t size) {
    std::string hex(size * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), bytes, size);
    hex.pop_back();
    return hex;
}

void ensureSodium() {
    static const bool ready = sodium_init() >= 0;
    (void)ready;
}

}  // namespace

std::string SecretHasher::hash(const std::string& secret) {
    ensureSodium();
    std::array<unsigned char, crypto_generichash_BYTES> digest{};
    crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), nullptr, 0);
    return kPrefix + toHex(digest.data(), digest.size());
}

bool SecretHasher::matches(const std::string& secret, const std::string& storedHash) {
    std::string candidate = hash(secret);
    if (candidate.size() != storedHash.size()) return false;
    return sodium_memcmp(candidate.data(), storedHash.data(), candidate.size()) == 0;
}

std::string randomUuid() {
    ensureSodium();
    std::array<unsigned char, 16> bytes{};
    randombytes_buf(bytes.data(), bytes.size());
    bytes[6] = (bytes[6] & 0x0F) | 0x40;  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80;  // RFC 4122 variant
    std::string hex = toHex(bytes.data(), bytes.size());
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" + hex.substr(20);
}

std::string randomSecret() {
    ensureSodium();
    std::array<unsigned char, 32> bytes{};
    randombytes_buf(bytes.data(), bytes.size());
    return base64UrlEncode(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace svc
