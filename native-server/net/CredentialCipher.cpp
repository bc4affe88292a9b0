#include "net/CredentialCipher.hpp"

#include <sodium.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "security/KeyFile.hpp"
#include "text/Base64.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace {

static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == sizeof(Key256));
constexpr size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;

}  // namespace

Result<CredentialCipher> CredentialCipher::loadOrCreate(const std::string& dataDir) {
    auto key = KeyFile::loadOrCreate(dataDir, "credentials.key");
    if (!key) return key.error();
    CredentialCipher cipher;
    cipher.key_ = *key;
    sodium_memzero(key->data(), key->size());
    return cipher;
}

std::string CredentialCipher::seal(const Credentials& credentials, std::string_view owner) const {
    nlohmann::json fields{{"u", credentials.username}, {"p", credentials.password}};
    if (!credentials.hostKey.empty()) fields["k"] = credentials.hostKey;  // absent in values sealed before SFTP
    if (!credentials.privateKey.empty()) fields["pk"] = credentials.privateKey;
    if (!credentials.urlQuery.empty()) fields["q"] = credentials.urlQuery;
    std::string plain = fields.dump();
    std::vector<unsigned char> out(kNonceBytes + plain.size() + kTagBytes);
    randombytes_buf(out.data(), kNonceBytes);
    unsigned long long length = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + kNonceBytes, &length, reinterpret_cast<const unsigned char*>(plain.data()),
                                               plain.size(), reinterpret_cast<const unsigned char*>(owner.data()), owner.size(), nullptr,
                                               out.data(), key_.data());
    sodium_memzero(plain.data(), plain.size());
    return base64UrlEncode(std::string_view(reinterpret_cast<const char*>(out.data()), kNonceBytes + length));
}

Result<Credentials> CredentialCipher::open(std::string_view sealed, std::string_view owner) const {
    auto bytes = base64UrlDecode(sealed);
    if (!bytes || bytes->size() < kNonceBytes + kTagBytes) return Error::unauthenticated("stored credentials are damaged");
    const auto* data = reinterpret_cast<const unsigned char*>(bytes->data());
    std::string plain(bytes->size() - kNonceBytes - kTagBytes, '\0');
    unsigned long long length = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(reinterpret_cast<unsigned char*>(plain.data()), &length, nullptr, data + kNonceBytes,
                                                   bytes->size() - kNonceBytes, reinterpret_cast<const unsigned char*>(owner.data()),
                                                   owner.size(), data, key_.data()) != 0) {
        return Error::unauthenticated("stored credentials cannot be decrypted (changed, moved or another key)");
    }
    plain.resize(length);
    auto parsed = BoundedJson::parse(plain, "credentials");
    sodium_memzero(plain.data(), plain.size());
    if (!parsed) return Error::unauthenticated("stored credentials are damaged");
    nlohmann::json& json = *parsed;
    if (!json.is_object() || !json["u"].is_string() || !json["p"].is_string()) return Error::unauthenticated("stored credentials are damaged");
    for (const char* optional : {"k", "pk", "q"}) {
        if (json.contains(optional) && !json[optional].is_string()) return Error::unauthenticated("stored credentials are damaged");
    }
    return Credentials{json["u"].get<std::string>(), json["p"].get<std::string>(), json.value("k", std::string()),
                       json.value("pk", std::string()), json.value("q", std::string())};
}

}  // namespace svc
