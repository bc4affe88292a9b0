// The operator's CSS is served on shops' pages (docs/adr/0058). For any input: whatever svc
// writes scopes again to itself without a problem (nothing it writes is read differently the
// second time), and every selector of every style rule starts at the widget root, with no
// sibling combinator right after it.
#include <cstdint>
#include <string>

#include "css/CssCodePoints.hpp"
#include "css/CssParser.hpp"
#include "css/CssTokenizer.hpp"
#include "tenant/WidgetSettings.hpp"

namespace {

using namespace svc::css;

bool startsAtTheRoot(const Component* begin, const Component* end) {
    trimWhitespace(begin, end);
    bool root = false;
    const Component* c = begin;
    for (; c != end && !c->is(TokenType::Whitespace) && !c->isDelim('>') && !c->isDelim('+') && !c->isDelim('~'); ++c) {
        if (c->isDelim('.') && c + 1 != end && (c + 1)->is(TokenType::Ident) && (c + 1)->token.value == "svc-widget") root = true;
    }
    while (c != end && c->is(TokenType::Whitespace)) ++c;
    return root && (c == end || !(c->isDelim('+') || c->isDelim('~')));
}

void checkRules(const std::vector<Rule>& rules) {
    std::vector<Problem> problems;
    for (const Rule& rule : rules) {
        if (rule.atRule) {
            std::string name = asciiLower(rule.name);
            if (name == "keyframes") continue;
            if ((name != "media" && name != "supports") || !rule.block) __builtin_trap();
            checkRules(CssParser::rules(rule.block->children, false, problems));
            continue;
        }
        const Component* begin = rule.prelude.data();
        const Component* end = begin + rule.prelude.size();
        for (const Component* comma = begin;; ++comma) {
            if (comma == end || comma->is(TokenType::Comma)) {
                if (!startsAtTheRoot(begin, comma)) __builtin_trap();
                if (comma == end) break;
                begin = comma + 1;
            }
        }
    }
    if (!problems.empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    ScopedCss scoped = svc::WidgetSettings::scopedCss(text);
    ScopedCss again = svc::WidgetSettings::scopedCss(scoped.css);
    if (!again.problems.empty() || again.css != scoped.css) __builtin_trap();
    std::vector<Problem> problems;
    auto components = CssParser::componentValues(CssTokenizer::tokenize(scoped.css, problems), problems);
    checkRules(CssParser::rules(components, true, problems));
    if (!problems.empty()) __builtin_trap();
    return 0;
}
