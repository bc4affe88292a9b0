#include "graphql/Lexer.hpp"

#include <cctype>

namespace svc::graphql {
namespace {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameContinue(char c) { return isNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

void appendUtf8(std::string& out, unsigned int codePoint) {
    if (codePoint < 0x80) {
        out += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
        out += static_cast<char>(0xC0 | (codePoint >> 6));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
        out += static_cast<char>(0xE0 | (codePoint >> 12));
        out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (codePoint >> 18));
        out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

Error Lexer::syntaxError(SourceLocation at, const std::string& message) const {
    return Error::invalidArgument(std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + message);
}

void Lexer::skipIgnored() {
    while (position_ < source_.size()) {
        char c = source_[position_];
        if (c == '\n') {
            ++position_;
            ++line_;
            lineStart_ = position_;
        } else if (c == '\r') {
            ++position_;
            if (peek() == '\n') ++position_;
            ++line_;
            lineStart_ = position_;
        } else if (c == ' ' || c == '\t' || c == ',') {
            ++position_;
        } else if (static_cast<unsigned char>(c) == 0xEF && peek(1) == '\xBB' && peek(2) == '\xBF') {
            position_ += 3;  // byte-order mark
        } else if (c == '#') {
            while (position_ < source_.size() && source_[position_] != '\n' && source_[position_] != '\r') ++position_;
        } else {
            break;
        }
    }
}

Result<Token> Lexer::next() {
    skipIgnored();
    SourceLocation start = location();
    if (position_ >= source_.size()) return Token{Token::Kind::EndOfFile, "", start};
    char c = source_[position_];
    if (c == '.') {
        if (peek(1) == '.' && peek(2) == '.') {
            position_ += 3;
            return Token{Token::Kind::Punctuator, "...", start};
        }
        return syntaxError(start, "unexpected character '.'");
    }
    static const std::string_view punctuators = "!$&()*:=@[]{}|";
    if (punctuators.find(c) != std::string_view::npos) {
        ++position_;
        return Token{Token::Kind::Punctuator, std::string(1, c), start};
    }
    if (isNameStart(c)) {
        size_t begin = position_;
        while (position_ < source_.size() && isNameContinue(source_[position_])) ++position_;
        return Token{Token::Kind::Name, std::string(source_.substr(begin, position_ - begin)), start};
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return readNumber(start);
    if (c == '"') {
        if (peek(1) == '"' && peek(2) == '"') return readBlockString(start);
        return readString(start);
    }
    std::string shown = static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80
                            ? "byte " + std::to_string(static_cast<unsigned char>(c))
                            : std::string("'") + c + "'";
    return syntaxError(start, "unexpected character " + shown);
}

Result<Token> Lexer::readNumber(SourceLocation start) {
    size_t begin = position_;
    bool isFloat = false;
    if (peek() == '-') ++position_;
    if (peek() == '0') {
        ++position_;
        if (std::isdigit(static_cast<unsigned char>(peek()))) return syntaxError(location(), "invalid number, unexpected digit after 0");
    } else if (std::isdigit(static_cast<unsigned char>(peek()))) {
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++position_;
    } else {
        return syntaxError(location(), "invalid number, expected digit");
    }
    if (peek() == '.') {
        isFloat = true;
        ++position_;
        if (!std::isdigit(static_cast<unsigned char>(peek()))) return syntaxError(location(), "invalid number, expected digit after '.'");
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++position_;
    }
    if (peek() == 'e' || peek() == 'E') {
        isFloat = true;
        ++position_;
        if (peek() == '+' || peek() == '-') ++position_;
        if (!std::isdigit(static_cast<unsigned char>(peek()))) return syntaxError(location(), "invalid number, expected digit in exponent");
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++position_;
    }
    if (peek() == '.' || isNameStart(peek())) return syntaxError(location(), "invalid number, unexpected character after number");
    return Token{isFloat ? Token::Kind::Float : Token::Kind::Int, std::string(source_.substr(begin, position_ - begin)), start};
}

Result<Token> Lexer::readString(SourceLocation start) {
    ++position_;  // opening quote
    std::string value;
    while (position_ < source_.size()) {
        char c = source_[position_];
        if (c == '"') {
            ++position_;
            return Token{Token::Kind::String, std::move(value), start};
        }
        if (c == '\n' || c == '\r') return syntaxError(location(), "unterminated string");
        if (c == '\\') {
            char escape = peek(1);
            auto escapeStart = location();  // errors point at the backslash, as graphql-js
            position_ += 2;
            switch (escape) {
                case '"': value += '"'; break;
                case '\\': value += '\\'; break;
                case '/': value += '/'; break;
                case 'b': value += '\b'; break;
                case 'f': value += '\f'; break;
                case 'n': value += '\n'; break;
                case 'r': value += '\r'; break;
                case 't': value += '\t'; break;
                case 'u': {
                    unsigned int codePoint = 0;
                    for (int k = 0; k < 4; ++k) {
                        int digit = hexValue(peek());
                        if (digit < 0) return syntaxError(escapeStart, "invalid unicode escape sequence");
                        codePoint = codePoint * 16 + static_cast<unsigned int>(digit);
                        ++position_;
                    }
                    if (codePoint >= 0xD800 && codePoint <= 0xDBFF && peek() == '\\' && peek(1) == 'u') {
                        // A surrogate pair written as two escapes.
                        unsigned int low = 0;
                        bool valid = true;
                        for (int k = 0; k < 4; ++k) {
                            int digit = hexValue(peek(2 + k));
                            if (digit < 0) { valid = false; break; }
                            low = low * 16 + static_cast<unsigned int>(digit);
                        }
                        if (valid && low >= 0xDC00 && low <= 0xDFFF) {
                            position_ += 6;
                            codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
                        }
                    }
                    if (codePoint >= 0xD800 && codePoint <= 0xDFFF) return syntaxError(escapeStart, "invalid unicode escape sequence");
                    appendUtf8(value, codePoint);
                    break;
                }
                default: return syntaxError(escapeStart, "invalid character escape sequence");
            }
            continue;
        }
        value += c;
        ++position_;
    }
    return syntaxError(location(), "unterminated string");
}

Result<Token> Lexer::readBlockString(SourceLocation start) {
    position_ += 3;
    std::string raw;
    while (position_ < source_.size()) {
        if (peek() == '"' && peek(1) == '"' && peek(2) == '"') {
            position_ += 3;
            // Block string value: common indentation removed, blank first/last lines dropped.
            std::vector<std::string> lines;
            size_t lineBegin = 0;
            for (size_t i = 0; i <= raw.size(); ++i) {
                if (i == raw.size() || raw[i] == '\n' || raw[i] == '\r') {
                    lines.push_back(raw.substr(lineBegin, i - lineBegin));
                    if (i < raw.size() && raw[i] == '\r' && i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
                    lineBegin = i + 1;
                }
            }
            size_t commonIndent = std::string::npos;
            for (size_t i = 1; i < lines.size(); ++i) {
                size_t indent = lines[i].find_first_not_of(" \t");
                if (indent == std::string::npos) continue;
                if (indent < commonIndent) commonIndent = indent;
            }
            if (commonIndent != std::string::npos) {
                for (size_t i = 1; i < lines.size(); ++i) lines[i] = lines[i].size() >= commonIndent ? lines[i].substr(commonIndent) : "";
            }
            auto blank = [](const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; };
            while (!lines.empty() && blank(lines.front())) lines.erase(lines.begin());
            while (!lines.empty() && blank(lines.back())) lines.pop_back();
            std::string value;
            for (size_t i = 0; i < lines.size(); ++i) {
                if (i) value += '\n';
                value += lines[i];
            }
            return Token{Token::Kind::BlockString, std::move(value), start};
        }
        if (peek() == '\\' && peek(1) == '"' && peek(2) == '"' && peek(3) == '"') {
            raw += "\"\"\"";
            position_ += 4;
            continue;
        }
        char c = source_[position_++];
        if (c == '\n') {
            ++line_;
            lineStart_ = position_;
        }
        raw += c;
    }
    return syntaxError(location(), "unterminated block string");
}

}  // namespace svc::graphql
