#pragma once
// Encrypts the credentials of pull sources (user and password, or an S3 access key and
// secret) at rest: XChaCha20-Poly1305 (libsodium's authenticated encryption) with a key of
// its own in <data-dir>/keys/credentials.key (created 0600 on first use). The associated
// data binds a sealed value to its owner, so a value copied to another tenant's row fails to open.
#include <array>
#include <string>
#include <string_view>

#include "core/Result.hpp"
#include "security/KeyFile.hpp"

namespace svc {

struct Credentials {
    std::string username;  // or the S3 access key id
    std::string password;  // or the S3 secret access key
    // SFTP: the server's pinned host key ("SHA256:<base64>"). Not secret, but sealed with the login so
    // that whoever can change the database cannot swap the key the service trusts (docs/adr/0033).
    std::string hostKey;
    // SFTP: a private key (OpenSSH or PEM text, no passphrase) to log in with instead of, or before, the password.
    std::string privateKey;
    // The query of the source's URL ("token=..."): shops put access tokens there, so it is sealed
    // like a password and the stored URL shows its values redacted (issue 18, docs/adr/0061).
    std::string urlQuery;
    bool empty() const { return username.empty() && password.empty() && hostKey.empty() && privateKey.empty() && urlQuery.empty(); }
};

class CredentialCipher {
public:
    static Result<CredentialCipher> loadOrCreate(const std::string& dataDir);
    // base64url(nonce || ciphertext || tag)
    std::string seal(const Credentials& credentials, std::string_view owner) const;
    // Unauthenticated when the value was changed, sealed for another owner or with another key.
    Result<Credentials> open(std::string_view sealed, std::string_view owner) const;

private:
    Key256 key_{};
};

}  // namespace svc
