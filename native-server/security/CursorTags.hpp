#pragma once
// The tag function of the GraphQL API's pagination cursors (graphql/Cursor): the first
// 64 bits of HMAC-SHA-256 (libsodium) over the cursor's payload, as hex. Enough to refuse
// an edited or forged cursor; a cursor grants nothing its list does not show anyway.
#include "graphql/Cursor.hpp"
#include "security/ServerKeys.hpp"

namespace svc {

graphql::CursorCodec::TagFunction hmacCursorTags(const Key256& key);

}  // namespace svc
