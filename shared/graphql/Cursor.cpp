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

// `shown` is "<list>:<index>"; neither has a ':' of its own, so the scope after it is unambiguous.
std::string CursorCodec::tagOf(const std::string& shown, const CursorList& list) const { return tagOf_(shown + ":" + list.scope); }

std::string CursorCodec::encode(size_t index, const CursorList& list) const {
    std::string shown = list.name + ":" + std::to_string(index);
    return base64UrlEncode(shown + ":" + tagOf(shown, list));
}

Result<size_t> CursorCodec::decode(const std::string& cursor, const CursorList& list) const {
    auto refused = [&] { return Error::invalidArgument("after: not a cursor of this " + list.name + " list"); };
    auto decoded = base64UrlDecode(cursor);
    std::string prefix = list.name + ":";
    if (!decoded || decoded->rfind(prefix, 0) != 0) return refused();
    size_t tagStart = decoded->rfind(':');
    if (tagStart == std::string::npos || tagStart < prefix.size()) return refused();
    std::string shown = decoded->substr(0, tagStart);
    if (!sameTag(std::string_view(*decoded).substr(tagStart + 1), tagOf(shown, list))) return refused();
    auto index = parseInt64(shown.substr(prefix.size()));
    if (!index || *index < 0) return refused();
    return static_cast<size_t>(*index);
}

}  // namespace svc::graphql
