#include "security/PasswordHasher.hpp"

#include <sodium.h>

#include <array>

namespace svc {

PasswordCost PasswordCost::interactive() { return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE}; }

PasswordCost PasswordCost::minimal() { return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN}; }

Result<std::string> PasswordHasher::hash(const std::string& password) const {
    if (sodium_init() < 0) return Error::internal("libsodium could not be initialised");
    std::array<char, crypto_pwhash_STRBYTES> out{};
    if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), cost_.opsLimit, cost_.memLimit,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) {
        return Error::internal("password hashing ran out of memory");
    }
    return std::string(out.data());
}

bool PasswordHasher::verify(const std::string& password, const std::string& storedHash) {
    if (sodium_init() < 0) return false;
    return crypto_pwhash_str_verify(storedHash.c_str(), password.data(), password.size()) == 0;
}

Status PasswordHasher::validNew(const std::string& password, const std::string& field) {
    // Length is what makes a password hard to guess; composition rules mostly make it hard to remember.
    if (password.size() < 12) return Error::invalidArgument(field + ": at least 12 characters");
    if (password.size() > 1024) return Error::invalidArgument(field + ": at most 1024 bytes");
    return {};
}

}  // namespace svc
