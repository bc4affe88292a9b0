#pragma once
// CSS Syntax Level 3's classes of code points (section 4.2), shared by the tokenizer and the
// writer so that what one reads the other writes back the same way.
#include <string>
#include <string_view>

namespace svc::css {

constexpr char32_t kReplacementCharacter = 0xFFFD;

inline bool isCssDigit(char32_t c) { return c >= '0' && c <= '9'; }
inline bool isCssHexDigit(char32_t c) { return isCssDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool isCssLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isCssIdentStart(char32_t c) { return isCssLetter(c) || (c >= 0x80 && c != 0xFFFFFFFF) || c == '_'; }
inline bool isCssIdentChar(char32_t c) { return isCssIdentStart(c) || isCssDigit(c) || c == '-'; }
inline bool isCssWhitespace(char32_t c) { return c == '\n' || c == '\t' || c == ' '; }
inline bool isCssNonPrintable(char32_t c) { return c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F; }

// The input stream after CSS Syntax's preprocessing: CR LF, CR and FF as LF; NUL, surrogates and
// bytes that are not UTF-8 as U+FFFD (a browser decoding the UTF-8 stylesheet does the same).
std::u32string preprocessCss(std::string_view text);
void appendUtf8(std::string& out, char32_t c);
// ASCII lower case: CSS keywords match "ASCII case-insensitively", nothing more.
std::string asciiLower(std::string_view text);

}  // namespace svc::css
