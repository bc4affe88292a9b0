#include "security/CursorTags.hpp"

#include <sodium.h>

namespace svc {

graphql::CursorCodec::TagFunction hmacCursorTags(const Key256& key) {
    return [key](std::string_view payload) {
        unsigned char mac[crypto_auth_hmacsha256_BYTES];
        crypto_auth_hmacsha256(mac, reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), key.data());
        char hex[2 * 8 + 1];
        sodium_bin2hex(hex, sizeof hex, mac, 8);
        return std::string(hex);
    };
}

}  // namespace svc
