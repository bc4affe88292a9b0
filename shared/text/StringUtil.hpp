#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

std::string_view trim(std::string_view text);
std::string toLower(std::string_view text);
// Splits on the separator and trims each part; empty parts are dropped.
std::vector<std::string> splitList(std::string_view text, char separator);
// The same into `parts`, whose strings are reused (a hot path that allocates nothing in the steady state).
void splitListInto(std::string_view text, char separator, std::vector<std::string>& parts);
// Whole-string base-10 integer; nullopt for anything else (no silent truncation).
std::optional<int64_t> parseInt64(std::string_view text);
// Percent-encoding for a URL query value (RFC 3986 unreserved kept).
std::string urlEncode(std::string_view text);
// Decodes %XX and '+' (form encoding); nullopt for a malformed escape.
std::optional<std::string> urlDecode(std::string_view text);

}  // namespace svc
