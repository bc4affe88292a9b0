#pragma once
// Opaque, tamper-checked pagination cursors: base64url of "<list>:<index>:<tag>", where the
// tag is a keyed MAC of "<list>:<index>:<scope>". The scope is what else makes the list that
// list: the tenant, the object it belongs to, the arguments that choose its items. The cursor
// shows only the list's name; the tag binds it to the rest, so a cursor is refused by any
// other list: another tenant's, another product's, another filter's (docs/adr/0053). An
// edited or forged cursor is refused too. The core holds no key and no cryptography: the
// host hands in the tag function (native-server: HMAC-SHA-256 with a key derived from the
// server's master key, security/CursorTags).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc::graphql {

// One list that cursors index: `name` as shown (in the cursor and in errors), `scope` the
// rest of its identity (any text; only the tag covers it).
struct CursorList {
    std::string name;
    std::string scope;
};

class CursorCodec {
public:
    // `tagOf` maps a payload to its tag (printable, without ':'); equal payloads, equal tags.
    using TagFunction = std::function<std::string(std::string_view payload)>;
    explicit CursorCodec(TagFunction tagOf) : tagOf_(std::move(tagOf)) {}

    std::string encode(size_t index, const CursorList& list) const;
    // Fails (naming `after`) for anything encode() did not produce for this list.
    Result<size_t> decode(const std::string& cursor, const CursorList& list) const;

private:
    std::string tagOf(const std::string& shown, const CursorList& list) const;

    TagFunction tagOf_;
};

}  // namespace svc::graphql
