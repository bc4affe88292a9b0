#include "text/BoundedJson.hpp"

#include <string>

namespace svc {
namespace {

// Only sees the first syntax error; nlohmann's own DOM parser is what builds values.
class SyntaxErrorCatcher final : public nlohmann::json_sax<nlohmann::json> {
public:
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) override {
        message = error.what();
        return false;
    }

    std::string message;
};

// nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 6: syntax error
// while parsing object key - invalid literal; last read: '{nope'; expected string literal". The
// place and the reason are kept; what was last read is not: it echoes the text (up to a whole
// string value) back into an error message.
std::string syntaxError(std::string_view text) {
    SyntaxErrorCatcher catcher;
    (void)nlohmann::json::sax_parse(text.begin(), text.end(), &catcher);
    const std::string& what = catcher.message;
    size_t at = what.find("at line ");
    size_t reason = at == std::string::npos ? std::string::npos : what.find(": ", at);
    if (reason == std::string::npos) return "not valid JSON";
    std::string place = what.substr(at + 3, reason - at - 3);
    std::string detail = what.substr(reason + 2, what.find("; last read:", reason) - reason - 2);
    return place + ": not valid JSON (" + detail + ")";
}

template <typename Json>
Result<Json> parseWithin(std::string_view text, std::string_view what, const JsonLimits& limits) {
    std::string prefix = std::string(what) + ": ";
    if (text.size() > limits.maxBytes) {
        return Error::resourceExhausted(prefix + std::to_string(text.size()) + " bytes, more than the limit of " + std::to_string(limits.maxBytes));
    }
    if (size_t deep = BoundedJson::firstTooDeep(text, limits.maxDepth); deep != std::string_view::npos) {
        return Error::invalidArgument(prefix + BoundedJson::positionOf(text, deep) + ": nesting deeper than " + std::to_string(limits.maxDepth));
    }
    Json value = Json::parse(text.begin(), text.end(), nullptr, false);
    if (value.is_discarded()) return Error::invalidArgument(prefix + syntaxError(text));
    return value;
}

}  // namespace

Result<nlohmann::json> BoundedJson::parse(std::string_view text, std::string_view what, const JsonLimits& limits) {
    return parseWithin<nlohmann::json>(text, what, limits);
}

Result<nlohmann::ordered_json> BoundedJson::parseOrdered(std::string_view text, std::string_view what, const JsonLimits& limits) {
    return parseWithin<nlohmann::ordered_json>(text, what, limits);
}

size_t BoundedJson::firstTooDeep(std::string_view text, size_t maxDepth) {
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\') ++i;  // the escaped character can neither end the string nor open a level
            else if (c == '"') inString = false;
            continue;
        }
        switch (c) {
            case '"': inString = true; break;
            case '[':
            case '{':
                if (++depth > maxDepth) return i;
                break;
            case ']':
            case '}':
                // An unbalanced close is a syntax error nlohmann reports; depth only has to stay exact for valid text.
                if (depth > 0) --depth;
                break;
            default: break;
        }
    }
    return std::string_view::npos;
}

std::string BoundedJson::positionOf(std::string_view text, size_t offset) {
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

}  // namespace svc
