#pragma once
// API secrets are 256-bit random values, so a fast keyed-free BLAKE2b hash is
// enough to make a stolen database useless (no dictionary to try); see
// docs/adr/0003-secret-hashing.md. Comparison is constant-time.
#include <string>

namespace svc {

class SecretHasher {
public:
    static std::string hash(const std::string& secret);
    static bool matches(const std::string& secret, const std::string& storedHash);
};

// Cryptographically random values from libsodium.
std::string randomUuid();
std::string randomSecret();  // 43 characters of URL-safe base64 (256 bits)

}  // namespace svc
