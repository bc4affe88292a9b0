#pragma once
// Writes tokens and component values back as CSS text that a browser tokenizes into exactly
// the same tokens: identifiers and strings escaped as CSSOM serializes them, whitespace runs as
// one space, and an empty comment between two tokens that would otherwise run together
// (CSS Syntax Level 3, section 9). url(...) is always written url("...").
#include <string>
#include <string_view>
#include <vector>

#include "css/CssComponent.hpp"

namespace svc::css {

class CssWriter {
public:
    static std::string identifier(std::string_view name);
    static std::string quoted(std::string_view value);
    static std::string token(const Token& token);
    static std::string components(const std::vector<Component>& list);
    static std::string components(const Component* begin, const Component* end);
    // A short picture of a component for a message: "'{'", "'rgb('", "'@import'".
    static std::string describe(const Component& component);

private:
    struct Output;
    static void write(const Component& component, Output& out);
};

}  // namespace svc::css
