#pragma once
// A component value of CSS Syntax Level 3 (section 5): a token, or a block ({ }, [ ], ( )) or a
// function with the component values inside it, matched the way a browser matches them.
#include <vector>

#include "css/CssToken.hpp"

namespace svc::css {

struct Component {
    enum class Kind { Token, Block, Function };
    Kind kind = Kind::Token;
    // The token itself; for a block its opening token, for a function the function token.
    Token token;
    std::vector<Component> children;
    // A block or function the input ended inside of (a browser closes it there).
    bool closed = true;
    // Nested deeper than the parser keeps: its contents are gone, so it can never be written back.
    bool tooDeep = false;

    bool is(TokenType type) const { return kind == Kind::Token && token.type == type; }
    bool isDelim(char c) const { return kind == Kind::Token && token.isDelim(c); }
    bool isBlock(TokenType opener) const { return kind == Kind::Block && token.type == opener; }
};

}  // namespace svc::css
