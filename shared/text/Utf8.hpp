#pragma once
#include <cstddef>
#include <string_view>

namespace svc {

// Byte offset of the first invalid UTF-8 sequence, or npos when the text is valid.
// Rejects overlong forms, surrogates and code points above U+10FFFF.
size_t findInvalidUtf8(std::string_view text);

}  // namespace svc
