#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace svc {

// URL-safe base64 without padding (RFC 4648 section 5).
std::string base64UrlEncode(std::string_view bytes);
std::optional<std::string> base64UrlDecode(std::string_view text);

}  // namespace svc
