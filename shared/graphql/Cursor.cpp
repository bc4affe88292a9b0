#include "graphql/Cursor.hpp"

#include "text/Base64.hpp"
#include "text/StringUtil.hpp"

namespace svc::graphql {

std::string encodeCursor(size_t index, const std::string& listName) {
    return base64UrlEncode(listName + ":" + std::to_string(index));
}

Result<size_t> decodeCursor(const std::string& cursor, const std::string& listName) {
    auto decoded = base64UrlDecode(cursor);
    std::string prefix = listName + ":";
    if (!decoded || decoded->rfind(prefix, 0) != 0) return Error::invalidArgument("after: not a cursor of " + listName);
    auto index = parseInt64(decoded->substr(prefix.size()));
    if (!index || *index < 0) return Error::invalidArgument("after: not a cursor of " + listName);
    return static_cast<size_t>(*index);
}

}  // namespace svc::graphql
