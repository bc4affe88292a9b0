#pragma once
// The selectors of the operator's style rules, each confined to svc's widget root. A complex
// selector gets the root as its first compound (".svc-widget input" for "input"), unless its
// first compound already is the root (".svc-widget .svc-card", ".svc-widget--set .svc-card",
// which gets ".svc-widget" added). Only a grammar svc understands is written back: type, class,
// id and attribute selectors, a list of harmless pseudo-classes and pseudo-elements, :is(),
// :where() and :not() of simple selectors, :nth-*() of An+B, and the four combinators. Whatever
// could match or look outside the widget even after the prefix is refused: :has(), :host,
// :root, :scope, html, body, namespaces, a leading "+" or "~", "+" or "~" after the root, and
// combinators inside :is()/:not() (they would test the page's elements around the widget).
#include <string>
#include <vector>

#include "css/CssComponent.hpp"

namespace svc::css {

class CssSelectorScoper {
public:
    explicit CssSelectorScoper(std::string rootClass);

    // The scoped selector list of a style rule's prelude, or false with the problem.
    bool scope(const std::vector<Component>& prelude, SourcePosition ruleAt, std::string& out, Problem& problem) const;

private:
    struct Compound;
    struct Cursor;
    bool complex(Cursor& cursor, std::string& out, Problem& problem) const;
    bool compound(Cursor& cursor, bool inner, Compound& out, Problem& problem) const;
    bool attribute(const Component& block, std::string& out, Problem& problem) const;
    bool pseudo(Cursor& cursor, Compound& out, Problem& problem) const;
    bool innerList(const Component& function, std::string& out, Problem& problem) const;
    bool nth(const Component& function, std::string& out, Problem& problem) const;

    std::string rootClass_;
};

}  // namespace svc::css
