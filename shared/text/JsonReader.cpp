#include "text/JsonReader.hpp"

#include "text/Utf8.hpp"

namespace svc {

const JsonValue* JsonValue::find(std::string_view key) const {
    for (const auto& [name, member] : members_) {
        if (name == key) return &member;
    }
    return nullptr;
}

std::optional<std::string> JsonValue::stringMember(std::string_view key) const {
    const JsonValue* member = find(key);
    if (!member || !member->isString()) return std::nullopt;
    return member->text();
}

Result<JsonValue> JsonReader::parse(std::string_view text) {
    if (text.size() > kMaxBytes) {
        return Error::resourceExhausted("JSON of " + std::to_string(text.size()) + " bytes, more than the limit of " + std::to_string(kMaxBytes));
    }
    JsonReader reader(text);
    if (reader.text_.substr(0, 3) == "\xEF\xBB\xBF") reader.at_ = 3;
    JsonValue root;
    reader.skipSpace();
    if (!reader.value(root, 0)) return Error::invalidArgument(reader.error_);
    reader.skipSpace();
    if (reader.at_ != text.size()) {
        reader.fail("unexpected text after the value");
        return Error::invalidArgument(reader.error_);
    }
    return root;
}

bool JsonReader::fail(const char* what) {
    if (error_.empty()) error_ = "JSON at byte " + std::to_string(at_) + ": " + what;
    return false;
}

bool JsonReader::tooDeep() {
    if (error_.empty()) error_ = "JSON at byte " + std::to_string(at_) + ": nesting deeper than " + std::to_string(kMaxDepth);
    return false;
}

void JsonReader::skipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
        ++at_;
    }
}

bool JsonReader::literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return fail("invalid literal");
    at_ += word.size();
    return true;
}

bool JsonReader::value(JsonValue& out, size_t depth) {
    if (at_ >= text_.size()) return fail("unexpected end of input");
    char c = text_[at_];
    switch (c) {
        case 'n': out.kind_ = JsonValue::Kind::Null; return literal("null");
        case 't': out.kind_ = JsonValue::Kind::Bool; out.boolean_ = true; return literal("true");
        case 'f': out.kind_ = JsonValue::Kind::Bool; out.boolean_ = false; return literal("false");
        case '"': out.kind_ = JsonValue::Kind::String; return string(out.text_);
        case '[': {
            if (depth >= kMaxDepth) return tooDeep();
            out.kind_ = JsonValue::Kind::Array;
            ++at_;
            skipSpace();
            if (at_ < text_.size() && text_[at_] == ']') { ++at_; return true; }
            while (true) {
                out.items_.emplace_back();
                skipSpace();
                if (!value(out.items_.back(), depth + 1)) return false;
                skipSpace();
                if (at_ >= text_.size()) return fail("unexpected end of input in an array");
                if (text_[at_] == ',') { ++at_; continue; }
                if (text_[at_] == ']') { ++at_; return true; }
                return fail("expected ',' or ']'");
            }
        }
        case '{': {
            if (depth >= kMaxDepth) return tooDeep();
            out.kind_ = JsonValue::Kind::Object;
            ++at_;
            skipSpace();
            if (at_ < text_.size() && text_[at_] == '}') { ++at_; return true; }
            while (true) {
                skipSpace();
                if (at_ >= text_.size() || text_[at_] != '"') return fail("expected a member name");
                out.members_.emplace_back();
                if (!string(out.members_.back().first)) return false;
                skipSpace();
                if (at_ >= text_.size() || text_[at_] != ':') return fail("expected ':'");
                ++at_;
                skipSpace();
                if (!value(out.members_.back().second, depth + 1)) return false;
                skipSpace();
                if (at_ >= text_.size()) return fail("unexpected end of input in an object");
                if (text_[at_] == ',') { ++at_; continue; }
                if (text_[at_] == '}') { ++at_; return true; }
                return fail("expected ',' or '}'");
            }
        }
        default:
            if (c == '-' || (c >= '0' && c <= '9')) return number(out);
            return fail("unexpected character");
    }
}

namespace {

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

}  // namespace

bool JsonReader::string(std::string& out) {
    ++at_;  // the opening quote
    size_t start = at_;
    while (true) {
        if (at_ >= text_.size()) return fail("unterminated string");
        unsigned char c = static_cast<unsigned char>(text_[at_]);
        if (c == '"') break;
        if (c < 0x20) return fail("control character in a string");
        if (c != '\\') {
            out += static_cast<char>(c);
            ++at_;
            continue;
        }
        if (at_ + 1 >= text_.size()) return fail("unterminated string");
        char escape = text_[at_ + 1];
        at_ += 2;
        switch (escape) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                auto readHex = [&](uint32_t& code) {
                    if (at_ + 4 > text_.size()) return false;
                    code = 0;
                    for (int i = 0; i < 4; ++i) {
                        int digit = hexDigit(text_[at_ + i]);
                        if (digit < 0) return false;
                        code = code * 16 + static_cast<uint32_t>(digit);
                    }
                    at_ += 4;
                    return true;
                };
                uint32_t code = 0;
                if (!readHex(code)) return fail("invalid \\u escape");
                if (code >= 0xDC00 && code <= 0xDFFF) return fail("unpaired surrogate in \\u escape");
                if (code >= 0xD800 && code <= 0xDBFF) {
                    uint32_t low = 0;
                    if (text_.substr(at_, 2) != "\\u") return fail("unpaired surrogate in \\u escape");
                    at_ += 2;
                    if (!readHex(low)) return fail("invalid \\u escape");
                    if (low < 0xDC00 || low > 0xDFFF) return fail("unpaired surrogate in \\u escape");
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, code);
                break;
            }
            default: return fail("invalid escape");
        }
    }
    // Raw bytes are checked once per string, escapes produce valid UTF-8 by construction.
    size_t invalid = findInvalidUtf8(text_.substr(start, at_ - start));
    if (invalid != std::string_view::npos) {
        at_ = start + invalid;
        return fail("invalid UTF-8 in a string");
    }
    ++at_;  // the closing quote
    return true;
}

bool JsonReader::number(JsonValue& out) {
    out.kind_ = JsonValue::Kind::Number;
    size_t start = at_;
    bool negative = text_[at_] == '-';
    if (negative) ++at_;
    if (at_ >= text_.size() || text_[at_] < '0' || text_[at_] > '9') return fail("invalid number");
    // Accumulated as a negative value: int64's minimum is representable, its negation is not.
    bool fits = true;
    int64_t value = 0;
    if (text_[at_] == '0') {
        ++at_;
    } else {
        while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
            int digit = text_[at_] - '0';
            if (value < (INT64_MIN + digit) / 10) fits = false;
            if (fits) value = value * 10 - digit;
            ++at_;
        }
    }
    bool integral = true;
    if (at_ < text_.size() && text_[at_] == '.') {
        integral = false;
        ++at_;
        if (at_ >= text_.size() || text_[at_] < '0' || text_[at_] > '9') return fail("invalid number");
        while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
        integral = false;
        ++at_;
        if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
        if (at_ >= text_.size() || text_[at_] < '0' || text_[at_] > '9') return fail("invalid number");
        while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    }
    out.text_ = std::string(text_.substr(start, at_ - start));
    if (integral && fits) {
        if (!negative && value == INT64_MIN) return true;  // 9223372036854775808: a number, not an int64
        out.integer_ = negative ? value : -value;
    }
    return true;
}

}  // namespace svc
