#include "css/CssWriter.hpp"

#include <cstdio>
#include <optional>

#include "css/CssCodePoints.hpp"

namespace svc::css {
namespace {

std::string hexEscape(char32_t c) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "\\%x ", static_cast<unsigned>(c));
    return buffer;
}

// CSS Syntax Level 3, section 9.2: pairs of tokens that need a comment between them, plus the
// pairs where a number would take a following "-->" or "%" into itself.
bool runTogether(const Token& left, const Token& right) {
    const TokenType r = right.type;
    const bool identLike = r == TokenType::Ident || r == TokenType::Function || r == TokenType::Url ||
                           r == TokenType::BadUrl || right.isDelim('-') || r == TokenType::Number ||
                           r == TokenType::Percentage || r == TokenType::Dimension || r == TokenType::Cdc;
    switch (left.type) {
    case TokenType::Ident: return identLike || r == TokenType::OpenParen;
    case TokenType::AtKeyword:
    case TokenType::Hash:
    case TokenType::Dimension: return identLike;
    case TokenType::Number: return identLike || right.isDelim('%');
    case TokenType::Delim:
        if (left.isDelim('#') || left.isDelim('-')) return identLike;
        if (left.isDelim('@')) return r == TokenType::Ident || r == TokenType::Function || r == TokenType::Url ||
                                      r == TokenType::BadUrl || right.isDelim('-');
        if (left.isDelim('.') || left.isDelim('+')) {
            return r == TokenType::Number || r == TokenType::Percentage || r == TokenType::Dimension;
        }
        if (left.isDelim('/')) return right.isDelim('*');
        return false;
    default: return false;
    }
}

Token closerOf(const Component& component) {
    Token closer;
    closer.type = component.isBlock(TokenType::OpenCurly)    ? TokenType::CloseCurly
                  : component.isBlock(TokenType::OpenSquare) ? TokenType::CloseSquare
                                                             : TokenType::CloseParen;
    return closer;
}

}  // namespace

struct CssWriter::Output {
    std::string text;
    std::optional<Token> last;
    bool pendingSpace = false;

    void put(const Token& next, const std::string& written) {
        if (pendingSpace && last) text += ' ';
        else if (last && runTogether(*last, next)) text += "/**/";
        pendingSpace = false;
        text += written;
        last = next;
    }
};

std::string CssWriter::identifier(std::string_view name) {
    std::u32string points = preprocessCss(name);
    std::string out;
    for (size_t i = 0; i < points.size(); ++i) {
        char32_t c = points[i];
        if (c == 0) c = kReplacementCharacter;
        if ((c >= 0x01 && c <= 0x1F) || c == 0x7F) {
            out += hexEscape(c);
        } else if (isCssDigit(c) && (i == 0 || (i == 1 && points[0] == '-'))) {
            out += hexEscape(c);
        } else if (i == 0 && c == '-' && points.size() == 1) {
            out += "\\-";
        } else if (c >= 0x80 || c == '-' || c == '_' || isCssDigit(c) || isCssLetter(c)) {
            appendUtf8(out, c);
        } else {
            out += '\\';
            appendUtf8(out, c);
        }
    }
    return out;
}

std::string CssWriter::quoted(std::string_view value) {
    std::string out = "\"";
    for (char32_t c : preprocessCss(value)) {
        if (c == 0) c = kReplacementCharacter;
        if ((c >= 0x01 && c <= 0x1F) || c == 0x7F) {
            out += hexEscape(c);
        } else if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else {
            appendUtf8(out, c);
        }
    }
    return out + "\"";
}

std::string CssWriter::token(const Token& token) {
    switch (token.type) {
    case TokenType::Ident: return identifier(token.value);
    case TokenType::Function: return identifier(token.value) + "(";
    case TokenType::AtKeyword: return "@" + identifier(token.value);
    case TokenType::Hash: {
        if (token.hashIsId) return "#" + identifier(token.value);
        // A name that does not start an identifier: its first characters are written as they are.
        std::string out = "#";
        for (char32_t c : preprocessCss(token.value)) {
            if (isCssIdentChar(c)) appendUtf8(out, c);
            else if ((c >= 0x01 && c <= 0x1F) || c == 0x7F) out += hexEscape(c);
            else {
                out += '\\';
                appendUtf8(out, c);
            }
        }
        return out;
    }
    case TokenType::String: return quoted(token.value);
    case TokenType::BadString: return "\"\n";
    case TokenType::Url: return "url(" + quoted(token.value) + ")";
    case TokenType::BadUrl: return "url(()";
    case TokenType::Delim: return token.value;
    case TokenType::Number: return token.number;
    case TokenType::Percentage: return token.number + "%";
    case TokenType::Dimension: {
        std::string unit = identifier(token.value);
        // "1\65 3" is the number 1 with the unit "e3"; written "1e3" it would be a thousand.
        if (!token.value.empty() && (token.value[0] == 'e' || token.value[0] == 'E') && unit.size() > 1 &&
            (isCssDigit(unit[1]) || unit[1] == '-' || unit[1] == '+')) {
            unit = hexEscape(static_cast<char32_t>(token.value[0])) + unit.substr(1);
        }
        return token.number + unit;
    }
    case TokenType::Whitespace: return " ";
    case TokenType::Cdo: return "<!--";
    case TokenType::Cdc: return "-->";
    case TokenType::Colon: return ":";
    case TokenType::Semicolon: return ";";
    case TokenType::Comma: return ",";
    case TokenType::OpenSquare: return "[";
    case TokenType::CloseSquare: return "]";
    case TokenType::OpenParen: return "(";
    case TokenType::CloseParen: return ")";
    case TokenType::OpenCurly: return "{";
    case TokenType::CloseCurly: return "}";
    }
    return "";
}

void CssWriter::write(const Component& component, Output& out) {
    if (component.is(TokenType::Whitespace)) {
        out.pendingSpace = true;
        return;
    }
    out.put(component.token, token(component.token));
    if (component.kind == Component::Kind::Token) return;
    // Spaces just inside brackets mean nothing to CSS: "( a )" is written "(a)".
    size_t opened = out.text.size();
    for (const Component& child : component.children) {
        if (child.is(TokenType::Whitespace) && out.text.size() == opened) continue;
        write(child, out);
    }
    out.pendingSpace = false;
    Token closer = closerOf(component);
    out.put(closer, token(closer));
}

std::string CssWriter::components(const Component* begin, const Component* end) {
    Output out;
    for (const Component* c = begin; c != end; ++c) write(*c, out);
    return out.text;
}

std::string CssWriter::components(const std::vector<Component>& list) {
    return components(list.data(), list.data() + list.size());
}

std::string CssWriter::describe(const Component& component) {
    switch (component.token.type) {
    case TokenType::Whitespace: return "a space";
    case TokenType::BadString: return "a broken string";
    case TokenType::BadUrl: return "a broken url(";
    default: break;
    }
    std::string text = token(component.token);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return "'" + text + "'";
}

}  // namespace svc::css

