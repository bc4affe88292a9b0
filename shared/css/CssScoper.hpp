#pragma once
// The operator's CSS for a tenant's widgets, made safe to serve on the shop's pages
// (docs/adr/0058): tokenized and parsed as CSS Syntax Level 3 says a browser does, then written
// back with nothing but what svc understood and allows. Every selector is confined to the
// widget root (CssSelectorScoper); every value passes CssDeclarationPolicy; of the at-rules only
// @media and @supports (their rules scoped alike) and @keyframes (renamed with a prefix, so the
// shop's own animations keep theirs) remain; @import, @namespace, @font-face, @charset and any
// other are dropped, whatever their case or escapes.
//
// One pass serves both ends: saving refuses CSS with any problem (the first one's line and
// column in the message); serving writes what passed and drops the rest, so CSS stored before
// these rules is served scoped, never raw. The output is a fixed point: scoping it again gives
// it back unchanged, with no problems.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "css/CssDeclarationPolicy.hpp"
#include "css/CssRule.hpp"
#include "css/CssSelectorScoper.hpp"

namespace svc::css {

struct ScopedCss {
    std::string css;
    std::vector<Problem> problems;  // in the order of the source, each position once
};

class CssScoper {
public:
    CssScoper(std::string rootClass, std::string keyframesPrefix);

    ScopedCss scope(std::string_view css) const;

private:
    struct Run;
    void writeRules(const std::vector<Rule>& rules, size_t depth, Run& run) const;
    void writeStyleRule(const Rule& rule, size_t depth, Run& run) const;
    void writeKeyframes(const Rule& rule, size_t depth, Run& run) const;
    bool checkMediaQuery(const std::vector<Component>& prelude, Problem& problem) const;
    bool checkSupportsCondition(const std::vector<Component>& prelude, SourcePosition at, Problem& problem) const;
    void collectKeyframes(const std::vector<Rule>& rules, Run& run) const;

    CssSelectorScoper selectors_;
    std::string keyframesPrefix_;
};

}  // namespace svc::css
