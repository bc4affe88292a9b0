#pragma once
// What the parser makes of component values (CSS Syntax Level 3, section 5): rules (a selector
// or an at-keyword with its prelude and { } block) and the declarations inside a block.
#include <optional>
#include <string>
#include <vector>

#include "css/CssComponent.hpp"

namespace svc::css {

struct Rule {
    bool atRule = false;
    std::string name;  // an at-rule's decoded name, without "@"
    SourcePosition at;
    std::vector<Component> prelude;
    std::optional<Component> block;  // the { } block; none for "@x ...;"
};

struct Declaration {
    std::string name;  // decoded
    SourcePosition at;
    std::vector<Component> value;  // without the whitespace around it and without !important
    bool important = false;
};

}  // namespace svc::css
