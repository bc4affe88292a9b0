#pragma once
#include <cstddef>
#include <string_view>

namespace svc {

// Byte offset of the first invalid UTF-8 sequence, or npos when the text is valid.
// Rejects overlong forms, surrogates and code points above U+10FFFF.
size_t findInvalidUtf8(std::string_view text);

// Length of the longest prefix of at most maxBytes that does not end inside a UTF-8
// sequence: cutting outside text there keeps it valid UTF-8 if it was.
size_t utf8PrefixLength(std::string_view text, size_t maxBytes);

}  // namespace svc
