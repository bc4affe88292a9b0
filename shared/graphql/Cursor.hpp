#pragma once
// Opaque, tamper-checked pagination cursors: base64url of "<list>:<index>:<tag>", where the
// tag is a keyed MAC of "<list>:<index>". A cursor names its list, so one list's cursor is
// refused by another, and an edited or forged one is refused. The core holds no key and
// no cryptography: the host hands in the tag function (native-server: HMAC-SHA-256 with a
// key derived from the server's master key, security/CursorTags).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc::graphql {

class CursorCodec {
public:
    // `tagOf` maps a payload to its tag (printable, without ':'); equal payloads, equal tags.
    using TagFunction = std::function<std::string(std::string_view payload)>;
    explicit CursorCodec(TagFunction tagOf) : tagOf_(std::move(tagOf)) {}

    std::string encode(size_t index, const std::string& listName) const;
    // Fails (naming `after`) for anything encode() did not produce for this list.
    Result<size_t> decode(const std::string& cursor, const std::string& listName) const;

private:
    TagFunction tagOf_;
};

}  // namespace svc::graphql
