// The two readers of JSON from outside (docs/adr/0054) against nlohmann/json as the reference:
// BoundedJson must read exactly what nlohmann reads within JsonLimits and refuse the rest at the
// right bracket; the SDK's JsonReader must accept and refuse the same documents as BoundedJson and
// agree on every value. What is read is then copied and dumped, the recursive walks that once
// overflowed the stack on deep input.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "text/BoundedJson.hpp"
#include "text/JsonReader.hpp"

namespace {

// Does the reader's tree say the same as nlohmann's?
bool same(const svc::JsonValue& ours, const nlohmann::json& theirs) {
    using Kind = svc::JsonValue::Kind;
    switch (ours.kind()) {
        case Kind::Null: return theirs.is_null();
        case Kind::Bool: return theirs.is_boolean() && theirs.get<bool>() == ours.boolean();
        case Kind::String: return theirs.is_string() && theirs.get<std::string>() == ours.text();
        case Kind::Number:
            if (!theirs.is_number()) return false;
            if (ours.isInteger()) {
                if (theirs.is_number_integer() && !theirs.is_number_unsigned()) return theirs.get<int64_t>() == *ours.integer();
                if (theirs.is_number_unsigned()) return *ours.integer() >= 0 && theirs.get<uint64_t>() == uint64_t(*ours.integer());
                return false;
            }
            // Not an int64: a fraction, an exponent, or too large; nlohmann may keep a large one as uint64.
            return theirs.is_number_float() || (theirs.is_number_unsigned() && ours.text()[0] != '-');
        case Kind::Array:
            if (!theirs.is_array() || theirs.size() != ours.items().size()) return false;
            for (size_t i = 0; i < ours.items().size(); ++i) {
                if (!same(ours.items()[i], theirs[i])) return false;
            }
            return true;
        case Kind::Object: {
            if (!theirs.is_object()) return false;
            size_t distinct = 0;
            for (const auto& [name, value] : ours.members()) {
                size_t occurrences = 0;
                for (const auto& member : ours.members()) occurrences += member.first == name ? 1 : 0;
                auto it = theirs.find(name);
                if (it == theirs.end()) return false;
                if (ours.find(name) == &value) ++distinct;
                // nlohmann keeps the last of a repeated name, the reader finds the first: compare unique names only.
                if (occurrences == 1 && !same(value, *it)) return false;
            }
            return distinct == theirs.size();
        }
    }
    return false;
}

// nlohmann refuses numbers beyond double's range ("1e999"); the reader keeps them as text
// (RFC 8259 leaves the range to the implementation, and the SDK reads only integers).
bool hasOverflowingNumber(const svc::JsonValue& value) {
    if (value.isNumber()) return std::isinf(std::strtod(value.text().c_str(), nullptr));
    for (const auto& item : value.items()) {
        if (hasOverflowingNumber(item)) return true;
    }
    for (const auto& member : value.members()) {
        if (hasOverflowingNumber(member.second)) return true;
    }
    return false;
}

size_t depthOf(const std::string& text) {
    size_t depth = 0, deepest = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto ours = svc::JsonReader::parse(text);
    auto bounded = svc::BoundedJson::parse(text, "fuzz");
    auto theirs = nlohmann::json::parse(text, nullptr, false);
    size_t depth = depthOf(text);

    // Past the depth limit both readers refuse, BoundedJson naming the depth whatever else is wrong.
    if (depth > svc::JsonLimits::kDefaultMaxDepth) {
        if (ours.ok() || bounded.ok()) __builtin_trap();
        if (bounded.error().message.find(": nesting deeper than 64") == std::string::npos) __builtin_trap();
        return 0;
    }
    // Within it BoundedJson is nlohmann.
    if (bounded.ok() == theirs.is_discarded()) __builtin_trap();
    if (bounded.ok()) {
        if (*bounded != theirs) __builtin_trap();
        nlohmann::json copy = *bounded;
        if (nlohmann::json::parse(copy.dump()) != theirs) __builtin_trap();
    }
    // A tighter depth from the first byte: the refusal points at the bracket that opens one level too many.
    size_t tight = size > 0 ? data[0] % 8 : 0;
    size_t at = svc::BoundedJson::firstTooDeep(text, tight);
    if ((at == std::string::npos) != (depth <= tight)) __builtin_trap();
    if (at != std::string::npos) {
        if (text[at] != '[' && text[at] != '{') __builtin_trap();
        if (depthOf(text.substr(0, at + 1)) != tight + 1 || depthOf(text.substr(0, at)) != tight) __builtin_trap();
        auto refused = svc::BoundedJson::parse(text, "fuzz", svc::JsonLimits{tight, svc::JsonLimits::kDefaultMaxBytes});
        if (refused.ok() || refused.error().message != "fuzz: " + svc::BoundedJson::positionOf(text, at) + ": nesting deeper than " + std::to_string(tight)) {
            __builtin_trap();
        }
    }

    // No JSON text contains a NUL byte (not whitespace, and raw control characters are not allowed
    // in strings); nlohmann takes a NUL as the end of its input and may accept "1\0junk".
    if (text.find('\0') != std::string::npos) {
        if (ours.ok()) __builtin_trap();
        return 0;
    }
    if (ours.ok() && theirs.is_discarded() && hasOverflowingNumber(*ours)) return 0;
    if (ours.ok() != !theirs.is_discarded()) __builtin_trap();
    if (ours.ok() && !same(*ours, theirs)) __builtin_trap();
    if (ours.ok()) {
        svc::JsonValue copy = *ours;
        if (!same(copy, theirs)) __builtin_trap();
    }
    return 0;
}
