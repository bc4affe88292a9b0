#pragma once
// Operator passwords, unlike API secrets (256 random bits, docs/adr/0003), are chosen by people
// and can be guessed: they are hashed with Argon2id, libsodium's memory-hard crypto_pwhash,
// so a stolen database costs an attacker 64 MiB and a few tenths of a second per guess
// (docs/adr/0039). The hash string carries its own salt and parameters, so verification
// needs no parameters and old hashes stay valid when the defaults change.
#include <cstddef>
#include <string>

#include "core/Result.hpp"

namespace svc {

struct PasswordCost {
    unsigned long long opsLimit;
    size_t memLimit;
    // Production: libsodium's INTERACTIVE limits (Argon2id, 2 passes, 64 MiB).
    static PasswordCost interactive();
    // Tests only: the smallest limits libsodium accepts, so a test signs in in microseconds.
    static PasswordCost minimal();
};

class PasswordHasher {
public:
    explicit PasswordHasher(PasswordCost cost) : cost_(cost) {}
    // "$argon2id$v=19$m=...,t=...,p=1$salt$hash"; Internal when memory runs out.
    Result<std::string> hash(const std::string& password) const;
    // Constant-time in the password; false for a malformed stored hash.
    static bool verify(const std::string& password, const std::string& storedHash);
    // Requirements named for the form: at least 12 characters, at most 1024 bytes.
    static Status validNew(const std::string& password, const std::string& field);

private:
    PasswordCost cost_;
};

}  // namespace svc
