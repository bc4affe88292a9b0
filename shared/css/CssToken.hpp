#pragma once
// One token of CSS Syntax Level 3 (section 4), with every escape already decoded: the checks
// that follow compare decoded names ("@\69mport" is "@import"), never source text.
#include <string>

#include "css/CssProblem.hpp"

namespace svc::css {

enum class TokenType {
    Ident,
    Function,   // value: the name, the "(" consumed
    AtKeyword,  // value: the name without "@"
    Hash,       // value: the name without "#"; hashIsId when it would start an identifier
    String,     // value: the decoded contents
    BadString,
    Url,        // value: the decoded address of an unquoted url(...)
    BadUrl,
    Delim,      // value: the one code point, as UTF-8
    Number,     // number: the source representation (digits, sign, point, exponent only)
    Percentage,
    Dimension,  // value: the unit
    Whitespace,
    Cdo,
    Cdc,
    Colon,
    Semicolon,
    Comma,
    OpenSquare,
    CloseSquare,
    OpenParen,
    CloseParen,
    OpenCurly,
    CloseCurly,
};

struct Token {
    TokenType type = TokenType::Whitespace;
    std::string value;
    std::string number;
    bool hashIsId = false;
    SourcePosition at;

    bool isDelim(char c) const { return type == TokenType::Delim && value.size() == 1 && value[0] == c; }
};

}  // namespace svc::css
