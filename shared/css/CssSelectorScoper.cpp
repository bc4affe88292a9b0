#include "css/CssSelectorScoper.hpp"

#include <algorithm>
#include <string_view>

#include "css/CssCodePoints.hpp"
#include "css/CssParser.hpp"
#include "css/CssWriter.hpp"

namespace svc::css {
namespace {

constexpr std::string_view kPseudoClasses[] = {
    "hover", "active", "focus", "focus-visible", "focus-within", "visited", "link", "any-link", "first-child",
    "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type", "empty", "enabled", "disabled",
    "checked", "indeterminate", "default", "required", "optional", "read-only", "read-write", "placeholder-shown",
    "valid", "invalid", "in-range", "out-of-range"};
constexpr std::string_view kPseudoElements[] = {
    "before", "after", "first-line", "first-letter", "marker", "placeholder", "selection", "-webkit-scrollbar",
    "-webkit-scrollbar-thumb", "-webkit-scrollbar-track", "-webkit-scrollbar-corner", "-webkit-scrollbar-button"};
// Written with one colon in CSS 2; the same pseudo-elements.
constexpr std::string_view kLegacyPseudoElements[] = {"before", "after", "first-line", "first-letter"};
constexpr std::string_view kNthFunctions[] = {"nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"};

template <size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

bool isCombinator(const Component& c) { return c.isDelim('>') || c.isDelim('+') || c.isDelim('~'); }

// Why a pseudo-class that looks past the widget, or at nothing svc renders, is refused.
std::string refusalOf(std::string_view name, bool function) {
    if (name == "has") return "':has()' is not allowed: it tests elements outside the widget (such as the shop's form fields)";
    if (name == "host" || name == "host-context") return "':" + std::string(name) + "' reaches the shadow host outside the widget";
    if (name == "root") return "':root' is the page's root element, outside the widget";
    if (name == "scope") return "':scope' is not supported: every selector is already scoped to the widget";
    if (name == "lang" || name == "dir") return "':" + std::string(name) + "()' depends on the page around the widget; not supported";
    return "'" + std::string(function ? ":" + std::string(name) + "()" : ":" + std::string(name)) +
           "' is not supported in the operator's CSS";
}

Problem namespaceProblem(const Component& at) {
    return {at.token.at, "namespace prefixes ('|') are not supported in the operator's CSS"};
}

}  // namespace

struct CssSelectorScoper::Cursor {
    const Component* at;
    const Component* end;
    SourcePosition fallback;  // where problems at the very end point

    bool done() const { return at == end; }
    bool skipWhitespace() {
        bool any = false;
        while (at != end && at->is(TokenType::Whitespace)) {
            ++at;
            any = true;
        }
        return any;
    }
    SourcePosition position() const { return done() ? fallback : at->token.at; }
};

struct CssSelectorScoper::Compound {
    SourcePosition at;
    std::string type;           // a type selector or "*"
    std::string rest;           // ids, classes, attributes and pseudo-classes
    std::string pseudoElement;  // "::before"
    bool root = false;          // has the root class itself
    bool rootModifier = false;  // has a class only the root carries ("svc-widget--set")

    bool empty() const { return type.empty() && rest.empty() && pseudoElement.empty(); }
    std::string text() const { return type + rest + pseudoElement; }
};

CssSelectorScoper::CssSelectorScoper(std::string rootClass) : rootClass_(std::move(rootClass)) {}

bool CssSelectorScoper::scope(const std::vector<Component>& prelude, SourcePosition ruleAt, std::string& out, Problem& problem) const {
    out.clear();
    const Component* begin = prelude.data();
    const Component* end = begin + prelude.size();
    SourcePosition sliceAt = ruleAt;
    while (true) {
        const Component* comma = begin;
        while (comma != end && !comma->is(TokenType::Comma)) ++comma;
        const Component* sliceBegin = begin;
        const Component* sliceEnd = comma;
        trimWhitespace(sliceBegin, sliceEnd);
        if (sliceBegin == sliceEnd) {
            problem = {comma != end ? comma->token.at : sliceAt, "an empty selector in the list"};
            return false;
        }
        Cursor cursor{sliceBegin, sliceEnd, sliceBegin->token.at};
        std::string text;
        if (!complex(cursor, text, problem)) return false;
        if (!out.empty()) out += ", ";
        out += text;
        if (comma == end) return true;
        sliceAt = comma->token.at;
        begin = comma + 1;
    }
}

bool CssSelectorScoper::complex(Cursor& cursor, std::string& out, Problem& problem) const {
    const std::string root = "." + CssWriter::identifier(rootClass_);
    char leading = 0;
    if (isCombinator(*cursor.at)) {
        leading = cursor.at->token.value[0];
        if (leading != '>') {
            problem = {cursor.at->token.at, std::string("a selector cannot start with '") + leading +
                                                "': it would match the shop's elements next to the widget"};
            return false;
        }
        ++cursor.at;
        cursor.skipWhitespace();
        if (cursor.done()) {
            problem = {cursor.position(), "a selector cannot end with a combinator"};
            return false;
        }
    }
    std::vector<std::pair<char, Compound>> parts;
    char combinator = 0;
    while (true) {
        Compound part;
        if (!compound(cursor, false, part, problem)) return false;
        parts.emplace_back(combinator, std::move(part));
        bool space = cursor.skipWhitespace();
        if (cursor.done()) break;
        if (!parts.back().second.pseudoElement.empty()) {
            problem = {cursor.position(), "nothing can follow the pseudo-element " + parts.back().second.pseudoElement};
            return false;
        }
        SourcePosition combinatorAt = cursor.position();
        if (isCombinator(*cursor.at)) {
            combinator = cursor.at->token.value[0];
            ++cursor.at;
            cursor.skipWhitespace();
        } else if (space) {
            combinator = ' ';
        } else {
            problem = {cursor.position(), "unexpected " + CssWriter::describe(*cursor.at) + " in a selector"};
            return false;
        }
        if (cursor.done()) {
            problem = {combinatorAt, "a selector cannot end with a combinator"};
            return false;
        }
    }

    const Compound& first = parts.front().second;
    if (!leading && (first.root || first.rootModifier)) {
        if (parts.size() > 1 && (parts[1].first == '+' || parts[1].first == '~')) {
            problem = {parts[1].second.at, std::string("'") + parts[1].first + "' after the widget root (." + rootClass_ +
                                               ") would match the shop's elements next to the widget"};
            return false;
        }
        out = first.root ? first.text() : first.type + root + first.rest + first.pseudoElement;
    } else {
        out = root + (leading ? " > " : " ") + first.text();
    }
    for (size_t i = 1; i < parts.size(); ++i) {
        out += parts[i].first == ' ' ? std::string(" ") : std::string(" ") + parts[i].first + " ";
        out += parts[i].second.text();
    }
    return true;
}

bool CssSelectorScoper::compound(Cursor& cursor, bool inner, Compound& out, Problem& problem) const {
    out.at = cursor.position();
    auto fail = [&](SourcePosition at, std::string reason) {
        problem = {at, std::move(reason)};
        return false;
    };
    if (!cursor.done() && cursor.at->is(TokenType::Ident)) {
        std::string name = asciiLower(cursor.at->token.value);
        if (name == "html" || name == "body") {
            return fail(cursor.at->token.at, "'" + name + "' is outside the widget; selectors match inside ." + rootClass_ + " only");
        }
        out.type = CssWriter::identifier(cursor.at->token.value);
        ++cursor.at;
    } else if (!cursor.done() && cursor.at->isDelim('*')) {
        out.type = "*";
        ++cursor.at;
    }
    while (!cursor.done()) {
        const Component& c = *cursor.at;
        if (c.is(TokenType::Whitespace) || isCombinator(c)) break;
        if (c.isDelim('|')) {
            problem = namespaceProblem(c);
            return false;
        }
        if (!out.pseudoElement.empty()) return fail(c.token.at, "nothing can follow the pseudo-element " + out.pseudoElement);
        if (c.is(TokenType::Hash)) {
            if (!c.token.hashIsId) return fail(c.token.at, CssWriter::describe(c) + " is not an id selector (an id cannot start with a digit)");
            out.rest += "#" + CssWriter::identifier(c.token.value);
            ++cursor.at;
        } else if (c.isDelim('.')) {
            ++cursor.at;
            if (cursor.done() || !cursor.at->is(TokenType::Ident)) return fail(c.token.at, "expected a class name after '.'");
            const std::string& name = cursor.at->token.value;
            out.rest += "." + CssWriter::identifier(name);
            if (name == rootClass_) out.root = true;
            else if (name.rfind(rootClass_ + "--", 0) == 0) out.rootModifier = true;
            ++cursor.at;
        } else if (c.isBlock(TokenType::OpenSquare)) {
            std::string text;
            if (!attribute(c, text, problem)) return false;
            out.rest += text;
            ++cursor.at;
        } else if (c.is(TokenType::Colon)) {
            if (!pseudo(cursor, out, problem)) return false;
        } else if (c.is(TokenType::Ident)) {
            return fail(c.token.at, "a type selector (" + CssWriter::describe(c) + ") must come first in a compound selector");
        } else {
            return fail(c.token.at, "unexpected " + CssWriter::describe(c) + " in a selector");
        }
    }
    if (out.empty()) {
        return fail(cursor.position(), cursor.done() ? "expected a selector" : "expected a selector, found " + CssWriter::describe(*cursor.at));
    }
    if (inner && !out.pseudoElement.empty()) return fail(out.at, "pseudo-elements are not allowed inside :is(), :where() and :not()");
    return true;
}

bool CssSelectorScoper::attribute(const Component& block, std::string& out, Problem& problem) const {
    auto fail = [&](SourcePosition at, std::string reason) {
        problem = {at, std::move(reason)};
        return false;
    };
    if (block.tooDeep) return fail(block.token.at, "nested too deeply");
    const Component* begin = block.children.data();
    const Component* end = begin + block.children.size();
    trimWhitespace(begin, end);
    Cursor cursor{begin, end, block.token.at};
    if (cursor.done()) return fail(block.token.at, "an empty attribute selector '[]'");
    if (cursor.at->isDelim('*') || cursor.at->isDelim('|')) {
        problem = namespaceProblem(*cursor.at);
        return false;
    }
    if (!cursor.at->is(TokenType::Ident)) return fail(cursor.position(), "expected an attribute name, found " + CssWriter::describe(*cursor.at));
    out = "[" + CssWriter::identifier(cursor.at->token.value);
    ++cursor.at;
    cursor.skipWhitespace();
    if (cursor.done()) {
        out += "]";
        return true;
    }
    std::string matcher;
    const Component& c = *cursor.at;
    bool equalsNext = cursor.at + 1 != cursor.end && (cursor.at + 1)->isDelim('=');
    if (c.isDelim('=')) {
        matcher = "=";
        ++cursor.at;
    } else if (c.isDelim('|') && !equalsNext) {
        problem = namespaceProblem(c);
        return false;
    } else if ((c.isDelim('~') || c.isDelim('|') || c.isDelim('^') || c.isDelim('$') || c.isDelim('*')) && equalsNext) {
        matcher = c.token.value + "=";
        cursor.at += 2;
    } else {
        return fail(c.token.at, "expected =, ~=, |=, ^=, $= or *= in an attribute selector, found " + CssWriter::describe(c));
    }
    cursor.skipWhitespace();
    if (cursor.done() || !(cursor.at->is(TokenType::Ident) || cursor.at->is(TokenType::String))) {
        return fail(cursor.position(), "expected a value after " + matcher + " in an attribute selector");
    }
    out += matcher + CssWriter::quoted(cursor.at->token.value);
    ++cursor.at;
    cursor.skipWhitespace();
    if (!cursor.done() && cursor.at->is(TokenType::Ident)) {
        std::string flag = asciiLower(cursor.at->token.value);
        if (flag != "i" && flag != "s") return fail(cursor.position(), "an attribute selector's flag is i or s, not '" + flag + "'");
        out += " " + flag;
        ++cursor.at;
        cursor.skipWhitespace();
    }
    if (!cursor.done()) return fail(cursor.position(), "unexpected " + CssWriter::describe(*cursor.at) + " in an attribute selector");
    out += "]";
    return true;
}

bool CssSelectorScoper::pseudo(Cursor& cursor, Compound& out, Problem& problem) const {
    SourcePosition at = cursor.at->token.at;
    auto fail = [&](SourcePosition where, std::string reason) {
        problem = {where, std::move(reason)};
        return false;
    };
    ++cursor.at;
    bool element = false;
    if (!cursor.done() && cursor.at->is(TokenType::Colon)) {
        element = true;
        ++cursor.at;
    }
    if (cursor.done()) return fail(at, "expected a name after ':'");
    const Component& c = *cursor.at;
    std::string name = asciiLower(c.token.value);
    if (c.is(TokenType::Ident)) {
        ++cursor.at;
        if (element || listed(kLegacyPseudoElements, name)) {
            if (!listed(kPseudoElements, name)) return fail(at, "'::" + name + "' is not supported in the operator's CSS");
            out.pseudoElement = "::" + name;
            return true;
        }
        if (!listed(kPseudoClasses, name)) return fail(at, refusalOf(name, false));
        out.rest += ":" + name;
        return true;
    }
    if (c.kind != Component::Kind::Function) return fail(at, "expected a name after ':', found " + CssWriter::describe(c));
    ++cursor.at;
    if (element) return fail(at, "'::" + name + "()' is not supported in the operator's CSS");
    if (c.tooDeep) return fail(c.token.at, "nested too deeply");
    std::string arguments;
    if (name == "is" || name == "where" || name == "not") {
        if (!innerList(c, arguments, problem)) return false;
    } else if (listed(kNthFunctions, name)) {
        if (!nth(c, arguments, problem)) return false;
    } else {
        return fail(at, refusalOf(name, true));
    }
    out.rest += ":" + name + "(" + arguments + ")";
    return true;
}

bool CssSelectorScoper::innerList(const Component& function, std::string& out, Problem& problem) const {
    const Component* begin = function.children.data();
    const Component* end = begin + function.children.size();
    out.clear();
    while (true) {
        const Component* comma = begin;
        while (comma != end && !comma->is(TokenType::Comma)) ++comma;
        const Component* sliceBegin = begin;
        const Component* sliceEnd = comma;
        trimWhitespace(sliceBegin, sliceEnd);
        SourcePosition at = comma != end ? comma->token.at : function.token.at;
        if (sliceBegin == sliceEnd) {
            problem = {at, "an empty selector inside :" + asciiLower(function.token.value) + "()"};
            return false;
        }
        Cursor cursor{sliceBegin, sliceEnd, at};
        Compound part;
        if (!compound(cursor, true, part, problem)) return false;
        if (!cursor.done()) {
            problem = {cursor.position(), "only simple selectors (no spaces or combinators) inside :is(), :where() and :not(): "
                                          "a combinator there would test the page around the widget"};
            return false;
        }
        if (!out.empty()) out += ", ";
        out += part.text();
        if (comma == end) return true;
        begin = comma + 1;
    }
}

bool CssSelectorScoper::nth(const Component& function, std::string& out, Problem& problem) const {
    const std::string usage = "':" + asciiLower(function.token.value) + "()' takes An+B, such as 2n+1, odd or 3";
    std::string compact;
    for (const Component& c : function.children) {
        if (c.is(TokenType::Whitespace)) continue;
        if (c.is(TokenType::Number)) compact += c.token.number;
        else if (c.is(TokenType::Dimension)) compact += c.token.number + c.token.value;
        else if (c.is(TokenType::Ident)) compact += c.token.value;
        else if (c.isDelim('+') || c.isDelim('-')) compact += c.token.value;
        else {
            problem = {c.token.at, usage};
            return false;
        }
    }
    compact = asciiLower(compact);
    auto integer = [](std::string_view text, long& value) {
        bool negative = false;
        if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
            negative = text[0] == '-';
            text.remove_prefix(1);
        }
        if (text.empty() || text.size() > 9) return false;
        value = 0;
        for (char digit : text) {
            if (digit < '0' || digit > '9') return false;
            value = value * 10 + (digit - '0');
        }
        if (negative) value = -value;
        return true;
    };
    long a = 0;
    long b = 0;
    bool valid = true;
    if (compact == "odd") {
        a = 2;
        b = 1;
    } else if (compact == "even") {
        a = 2;
    } else if (size_t n = compact.find('n'); n == std::string::npos) {
        valid = integer(compact, b);
    } else {
        std::string_view before = std::string_view(compact).substr(0, n);
        std::string_view after = std::string_view(compact).substr(n + 1);
        if (before.empty() || before == "+") a = 1;
        else if (before == "-") a = -1;
        else valid = integer(before, a);
        if (valid && !after.empty()) valid = (after[0] == '+' || after[0] == '-') && integer(after, b);
    }
    if (!valid) {
        problem = {function.token.at, usage};
        return false;
    }
    if (a == 0) {
        out = std::to_string(b);
    } else {
        out = a == 1 ? "n" : a == -1 ? "-n" : std::to_string(a) + "n";
        if (b > 0) out += "+" + std::to_string(b);
        else if (b < 0) out += std::to_string(b);
    }
    return true;
}

}  // namespace svc::css
