#include "graphql/Cursor.hpp"

#include "text/Base64.hpp"
#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

// Compares without an early exit, so the time taken tells nothing about a forged tag.
bool sameTag(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char difference = 0;
    for (size_t i = 0; i < a.size(); ++i) difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

}  // namespace

std::string CursorCodec::encode(size_t index, const std::string& listName) const {
    std::string payload = listName + ":" + std::to_string(index);
    return base64UrlEncode(payload + ":" + tagOf_(payload));
}

Result<size_t> CursorCodec::decode(const std::string& cursor, const std::string& listName) const {
    auto refused = [&] { return Error::invalidArgument("after: not a cursor of " + listName); };
    auto decoded = base64UrlDecode(cursor);
    std::string prefix = listName + ":";
    if (!decoded || decoded->rfind(prefix, 0) != 0) return refused();
    size_t tagStart = decoded->rfind(':');
    if (tagStart == std::string::npos || tagStart < prefix.size()) return refused();
    std::string payload = decoded->substr(0, tagStart);
    if (!sameTag(std::string_view(*decoded).substr(tagStart + 1), tagOf_(payload))) return refused();
    auto index = parseInt64(payload.substr(prefix.size()));
    if (!index || *index < 0) return refused();
    return static_cast<size_t>(*index);
}

}  // namespace svc::graphql
