#pragma once
// A small JSON reader for the browser SDK. nlohmann/json with its number parsing
// (strtod, printf) made up a third of sdk.wasm (docs/adr/0018); the SDK only reads the
// content response and checks purchase payloads, so it needs a value tree, strict
// RFC 8259 syntax and exact integers, nothing more. The server keeps nlohmann.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Result.hpp"
#include "text/JsonLimits.hpp"

namespace svc {

class JsonValue {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object };

    Kind kind() const { return kind_; }
    bool isNull() const { return kind_ == Kind::Null; }
    bool isBool() const { return kind_ == Kind::Bool; }
    bool isNumber() const { return kind_ == Kind::Number; }
    bool isString() const { return kind_ == Kind::String; }
    bool isArray() const { return kind_ == Kind::Array; }
    bool isObject() const { return kind_ == Kind::Object; }
    // A number written without fraction or exponent that fits int64 ("2", "-7"; not "2.0").
    bool isInteger() const { return kind_ == Kind::Number && integer_.has_value(); }

    bool boolean() const { return boolean_; }
    std::optional<int64_t> integer() const { return integer_; }
    // The number as written in the document (for messages); the string's decoded UTF-8.
    const std::string& text() const { return text_; }
    const std::vector<JsonValue>& items() const { return items_; }
    const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
    // The first member of that name, or nullptr (also when this is not an object).
    const JsonValue* find(std::string_view key) const;
    // A string member, or nullopt when absent or of another type.
    std::optional<std::string> stringMember(std::string_view key) const;

private:
    friend class JsonReader;
    Kind kind_ = Kind::Null;
    bool boolean_ = false;
    std::optional<int64_t> integer_;
    std::string text_;
    std::vector<JsonValue> items_;
    std::vector<std::pair<std::string, JsonValue>> members_;
};

class JsonReader {
public:
    // The same policy as BoundedJson's (docs/adr/0054): value() recurses once per level, and
    // the Wasm stack is small.
    static constexpr size_t kMaxDepth = JsonLimits::kDefaultMaxDepth;
    static constexpr size_t kMaxBytes = JsonLimits::kDefaultMaxBytes;
    // The whole text must be one JSON value (surrounding whitespace allowed; a UTF-8
    // byte order mark is skipped). Strings must be valid UTF-8. Errors name the byte offset.
    static Result<JsonValue> parse(std::string_view text);

private:
    explicit JsonReader(std::string_view text) : text_(text) {}
    bool value(JsonValue& out, size_t depth);
    bool string(std::string& out);
    bool number(JsonValue& out);
    bool literal(std::string_view word);
    void skipSpace();
    bool fail(const char* what);
    bool tooDeep();

    std::string_view text_;
    size_t at_ = 0;
    std::string error_;
};

}  // namespace svc
