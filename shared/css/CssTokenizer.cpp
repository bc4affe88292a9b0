#include "css/CssTokenizer.hpp"

#include <algorithm>
#include <cstdint>

#include "css/CssCodePoints.hpp"

namespace svc::css {
namespace {

bool validEscape(char32_t first, char32_t second) { return first == '\\' && second != '\n'; }

bool startsIdent(char32_t first, char32_t second, char32_t third) {
    if (first == '-') return isCssIdentStart(second) || second == '-' || validEscape(second, third);
    if (isCssIdentStart(first)) return true;
    return first == '\\' && validEscape(first, second);
}

bool startsNumber(char32_t first, char32_t second, char32_t third) {
    if (first == '+' || first == '-') return isCssDigit(second) || (second == '.' && isCssDigit(third));
    if (first == '.') return isCssDigit(second);
    return isCssDigit(first);
}

}  // namespace

std::vector<Token> CssTokenizer::tokenize(std::string_view css, std::vector<Problem>& problems) {
    CssTokenizer tokenizer(css, problems);
    std::vector<Token> tokens;
    while (true) {
        tokenizer.consumeComments();
        if (tokenizer.pos_ >= tokenizer.input_.size()) break;
        tokens.push_back(tokenizer.consumeToken());
    }
    return tokens;
}

CssTokenizer::CssTokenizer(std::string_view css, std::vector<Problem>& problems)
    : input_(preprocessCss(css)), problems_(problems) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < input_.size(); ++i) {
        if (input_[i] == '\n') lineStarts_.push_back(i + 1);
    }
}

SourcePosition CssTokenizer::positionOf(size_t index) const {
    auto line = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), index) - 1;
    return {static_cast<size_t>(line - lineStarts_.begin()) + 1, index - *line + 1};
}

void CssTokenizer::problem(size_t index, std::string reason) { problems_.push_back({positionOf(index), std::move(reason)}); }

bool CssTokenizer::consumeComments() {
    bool any = false;
    while (peek() == '/' && peek(1) == '*') {
        size_t start = pos_;
        pos_ += 2;
        while (pos_ < input_.size() && !(input_[pos_] == '*' && peek(1) == '/')) ++pos_;
        if (pos_ >= input_.size()) {
            problem(start, "this comment is never closed (/* without */)");
            pos_ = input_.size();
            return true;
        }
        pos_ += 2;
        any = true;
    }
    return any;
}

Token CssTokenizer::consumeToken() {
    Token token;
    size_t start = pos_;
    token.at = positionOf(start);
    char32_t c = peek();
    auto single = [&](TokenType type) {
        ++pos_;
        token.type = type;
        return token;
    };
    auto delim = [&]() {
        ++pos_;
        token.type = TokenType::Delim;
        appendUtf8(token.value, c);
        return token;
    };
    if (isCssWhitespace(c)) {
        while (isCssWhitespace(peek())) ++pos_;
        token.type = TokenType::Whitespace;
        return token;
    }
    switch (c) {
    case '"':
    case '\'':
        ++pos_;
        return consumeString(token, c);
    case '#':
        if (isCssIdentChar(peek(1)) || validEscape(peek(1), peek(2))) {
            ++pos_;
            token.type = TokenType::Hash;
            token.hashIsId = startsIdent(peek(), peek(1), peek(2));
            token.value = consumeName();
            return token;
        }
        return delim();
    case '(': return single(TokenType::OpenParen);
    case ')': return single(TokenType::CloseParen);
    case '[': return single(TokenType::OpenSquare);
    case ']': return single(TokenType::CloseSquare);
    case '{': return single(TokenType::OpenCurly);
    case '}': return single(TokenType::CloseCurly);
    case ',': return single(TokenType::Comma);
    case ':': return single(TokenType::Colon);
    case ';': return single(TokenType::Semicolon);
    case '+':
    case '.':
        if (startsNumber(c, peek(1), peek(2))) return consumeNumeric(token);
        return delim();
    case '-':
        if (startsNumber(c, peek(1), peek(2))) return consumeNumeric(token);
        if (peek(1) == '-' && peek(2) == '>') {
            pos_ += 3;
            token.type = TokenType::Cdc;
            return token;
        }
        if (startsIdent(c, peek(1), peek(2))) return consumeIdentLike(token);
        return delim();
    case '<':
        if (peek(1) == '!' && peek(2) == '-' && peek(3) == '-') {
            pos_ += 4;
            token.type = TokenType::Cdo;
            return token;
        }
        return delim();
    case '@':
        if (startsIdent(peek(1), peek(2), peek(3))) {
            ++pos_;
            token.type = TokenType::AtKeyword;
            token.value = consumeName();
            return token;
        }
        return delim();
    case '\\':
        if (validEscape(c, peek(1))) return consumeIdentLike(token);
        problem(start, "a backslash before a line break escapes nothing");
        return delim();
    default:
        break;
    }
    if (isCssDigit(c)) return consumeNumeric(token);
    if (isCssIdentStart(c)) return consumeIdentLike(token);
    return delim();
}

std::string CssTokenizer::consumeNumber() {
    std::string repr;
    auto take = [&]() { repr += static_cast<char>(next()); };
    if (peek() == '+' || peek() == '-') take();
    while (isCssDigit(peek())) take();
    if (peek() == '.' && isCssDigit(peek(1))) {
        take();
        while (isCssDigit(peek())) take();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (isCssDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isCssDigit(peek(2))))) {
        take();
        if (!isCssDigit(peek())) take();
        while (isCssDigit(peek())) take();
    }
    return repr;
}

Token CssTokenizer::consumeNumeric(Token token) {
    token.number = consumeNumber();
    if (startsIdent(peek(), peek(1), peek(2))) {
        token.type = TokenType::Dimension;
        token.value = consumeName();
    } else if (peek() == '%') {
        ++pos_;
        token.type = TokenType::Percentage;
    } else {
        token.type = TokenType::Number;
    }
    return token;
}

Token CssTokenizer::consumeIdentLike(Token token) {
    std::string name = consumeName();
    token.value = name;
    if (asciiLower(name) == "url" && peek() == '(') {
        ++pos_;
        while (isCssWhitespace(peek()) && isCssWhitespace(peek(1))) ++pos_;
        char32_t first = peek();
        char32_t second = peek(1);
        if (first == '"' || first == '\'' || (isCssWhitespace(first) && (second == '"' || second == '\''))) {
            token.type = TokenType::Function;
            return token;
        }
        return consumeUrl(token);
    }
    if (peek() == '(') {
        ++pos_;
        token.type = TokenType::Function;
        return token;
    }
    token.type = TokenType::Ident;
    return token;
}

Token CssTokenizer::consumeString(Token token, char32_t ending) {
    size_t start = pos_ - 1;
    token.type = TokenType::String;
    while (true) {
        char32_t c = peek();
        if (c == kEof) {
            problem(start, "this string is never closed");
            return token;
        }
        ++pos_;
        if (c == ending) return token;
        if (c == '\n') {
            --pos_;
            problem(start, "a line break inside this string (close it, or write \\a for a line break)");
            token.type = TokenType::BadString;
            token.value.clear();
            return token;
        }
        if (c == '\\') {
            if (peek() == kEof) continue;
            if (peek() == '\n') {
                ++pos_;
                continue;
            }
            appendUtf8(token.value, consumeEscape());
            continue;
        }
        appendUtf8(token.value, c);
    }
}

Token CssTokenizer::consumeUrl(Token token) {
    token.type = TokenType::Url;
    token.value.clear();
    auto bad = [&](const char* reason) {
        problems_.push_back({token.at, reason});
        consumeBadUrlRemnants();
        token.type = TokenType::BadUrl;
        token.value.clear();
        return token;
    };
    while (isCssWhitespace(peek())) ++pos_;
    while (true) {
        char32_t c = peek();
        if (c == kEof) {
            problems_.push_back({token.at, "this url( is never closed"});
            return token;
        }
        ++pos_;
        if (c == ')') return token;
        if (isCssWhitespace(c)) {
            while (isCssWhitespace(peek())) ++pos_;
            if (peek() == ')') {
                ++pos_;
                return token;
            }
            if (peek() == kEof) {
                problems_.push_back({token.at, "this url( is never closed"});
                return token;
            }
            return bad("a space inside url( ... ) (quote the address)");
        }
        if (c == '"' || c == '\'' || c == '(' || isCssNonPrintable(c)) {
            return bad("a quote, '(' or control character inside an unquoted url( ... )");
        }
        if (c == '\\') {
            if (!validEscape(c, peek())) return bad("a backslash before a line break inside url( ... )");
            appendUtf8(token.value, consumeEscape());
            continue;
        }
        appendUtf8(token.value, c);
    }
}

void CssTokenizer::consumeBadUrlRemnants() {
    while (true) {
        char32_t c = peek();
        if (c == kEof) return;
        ++pos_;
        if (c == ')') return;
        if (validEscape(c, peek())) (void)consumeEscape();
    }
}

std::string CssTokenizer::consumeName() {
    std::string name;
    while (true) {
        char32_t c = peek();
        if (isCssIdentChar(c)) {
            ++pos_;
            appendUtf8(name, c);
        } else if (validEscape(c, peek(1))) {
            ++pos_;
            appendUtf8(name, consumeEscape());
        } else {
            return name;
        }
    }
}

char32_t CssTokenizer::consumeEscape() {
    char32_t c = peek();
    if (c == kEof) return kReplacementCharacter;
    ++pos_;
    if (!isCssHexDigit(c)) return c;
    uint32_t value = 0;
    auto digit = [](char32_t h) -> uint32_t {
        if (h >= '0' && h <= '9') return h - '0';
        if (h >= 'a' && h <= 'f') return h - 'a' + 10;
        return h - 'A' + 10;
    };
    value = digit(c);
    for (int count = 1; count < 6 && isCssHexDigit(peek()); ++count) value = value * 16 + digit(next());
    if (isCssWhitespace(peek())) ++pos_;
    if (value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) return kReplacementCharacter;
    return value;
}

}  // namespace svc::css
