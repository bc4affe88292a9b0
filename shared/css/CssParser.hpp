#pragma once
// The parser of CSS Syntax Level 3 (section 5) over the tokenizer's tokens: component values
// first (blocks and functions matched as a browser matches them, nesting kept to a limit so
// that nothing recurses without bound), then lists of rules and of declarations.
#include <vector>

#include "css/CssRule.hpp"

namespace svc::css {

class CssParser {
public:
    // Blocks and functions nested deeper are not kept (and cannot be written back).
    static constexpr size_t kMaxNesting = 32;

    static std::vector<Component> componentValues(const std::vector<Token>& tokens, std::vector<Problem>& problems);
    // "Consume a list of rules"; at the top level CDO and CDC are skipped.
    static std::vector<Rule> rules(const std::vector<Component>& components, bool topLevel, std::vector<Problem>& problems);
    // "Consume a list of declarations": the contents of a style rule's block. What is not a
    // declaration (an at-rule, a nested rule, a stray token) is left out with a problem.
    static std::vector<Declaration> declarations(const std::vector<Component>& components, std::vector<Problem>& problems);
    // One declaration from `name: value [!important]`, or a problem.
    static std::optional<Declaration> declaration(const Component* begin, const Component* end, std::vector<Problem>& problems);
};

// The components between `begin` and `end` without whitespace at either end.
void trimWhitespace(const Component*& begin, const Component*& end);

}  // namespace svc::css
