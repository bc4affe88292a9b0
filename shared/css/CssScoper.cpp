#include "css/CssScoper.hpp"

#include <algorithm>

#include "css/CssCodePoints.hpp"
#include "css/CssParser.hpp"
#include "css/CssTokenizer.hpp"
#include "css/CssWriter.hpp"

namespace svc::css {
namespace {

std::string refusalOfAtRule(const std::string& name) {
    if (name == "import") return "@import is not allowed: widgets.css is one file, and nothing in it loads from elsewhere";
    if (name == "namespace") return "@namespace is not allowed: namespaces are not supported in the operator's CSS";
    if (name == "font-face") {
        return "@font-face is not allowed: a font face is page-wide and loads from elsewhere; name one of the shop's fonts instead";
    }
    if (name == "charset") return "@charset is not allowed: widgets.css is always UTF-8";
    return "'@" + CssWriter::identifier(name) + "' is not supported in the operator's CSS (allowed: @media, @supports, @keyframes)";
}

bool reservedKeyframesName(const std::string& name) {
    std::string lower = asciiLower(name);
    for (const char* reserved : {"none", "initial", "inherit", "unset", "default", "revert", "revert-layer"}) {
        if (lower == reserved) return true;
    }
    return false;
}

// The one name of "@keyframes name", or null.
const Component* keyframesName(const std::vector<Component>& prelude) {
    const Component* begin = prelude.data();
    const Component* end = begin + prelude.size();
    trimWhitespace(begin, end);
    if (end - begin != 1 || !(begin->is(TokenType::Ident) || begin->is(TokenType::String))) return nullptr;
    return begin;
}

std::string trimmedPrelude(const std::vector<Component>& prelude) {
    const Component* begin = prelude.data();
    const Component* end = begin + prelude.size();
    trimWhitespace(begin, end);
    return CssWriter::components(begin, end);
}

}  // namespace

struct CssScoper::Run {
    std::string out;
    std::vector<Problem> problems;
    std::map<std::string, std::string> keyframes;  // the stylesheet's names -> as written
    CssDeclarationPolicy policy{&keyframes};
};

CssScoper::CssScoper(std::string rootClass, std::string keyframesPrefix)
    : selectors_(std::move(rootClass)), keyframesPrefix_(std::move(keyframesPrefix)) {}

ScopedCss CssScoper::scope(std::string_view css) const {
    Run run;
    std::vector<Token> tokens = CssTokenizer::tokenize(css, run.problems);
    std::vector<Component> components = CssParser::componentValues(tokens, run.problems);
    std::vector<Rule> rules = CssParser::rules(components, true, run.problems);
    collectKeyframes(rules, run);
    writeRules(rules, 0, run);
    std::stable_sort(run.problems.begin(), run.problems.end(), [](const Problem& a, const Problem& b) { return a.at < b.at; });
    run.problems.erase(std::unique(run.problems.begin(), run.problems.end(),
                                   [](const Problem& a, const Problem& b) { return a.at == b.at; }),
                       run.problems.end());
    return {std::move(run.out), std::move(run.problems)};
}

void CssScoper::collectKeyframes(const std::vector<Rule>& rules, Run& run) const {
    std::vector<Problem> ignored;  // reported when the rules are written
    for (const Rule& rule : rules) {
        if (!rule.atRule || !rule.block) continue;
        std::string name = asciiLower(rule.name);
        if (name == "keyframes") {
            if (const Component* named = keyframesName(rule.prelude)) {
                const std::string& original = named->token.value;
                run.keyframes[original] = original.rfind(keyframesPrefix_, 0) == 0 ? original : keyframesPrefix_ + original;
            }
        } else if ((name == "media" || name == "supports") && !rule.block->tooDeep) {
            collectKeyframes(CssParser::rules(rule.block->children, false, ignored), run);
        }
    }
}

void CssScoper::writeRules(const std::vector<Rule>& rules, size_t depth, Run& run) const {
    const std::string indent(depth * 2, ' ');
    for (const Rule& rule : rules) {
        if (!rule.atRule) {
            writeStyleRule(rule, depth, run);
            continue;
        }
        std::string name = asciiLower(rule.name);
        if (name == "keyframes") {
            writeKeyframes(rule, depth, run);
            continue;
        }
        if (name != "media" && name != "supports") {
            run.problems.push_back({rule.at, refusalOfAtRule(name)});
            continue;
        }
        Problem problem;
        if (!(name == "media" ? checkMediaQuery(rule.prelude, problem) : checkSupportsCondition(rule.prelude, rule.at, problem))) {
            run.problems.push_back(problem);
            continue;
        }
        if (!rule.block) {
            run.problems.push_back({rule.at, "@" + name + " needs a { } block"});
            continue;
        }
        if (rule.block->tooDeep) continue;  // reported by the parser
        std::string prelude = trimmedPrelude(rule.prelude);
        size_t start = run.out.size();
        run.out += indent + "@" + name + (prelude.empty() ? "" : " " + prelude) + " {\n";
        size_t inside = run.out.size();
        writeRules(CssParser::rules(rule.block->children, false, run.problems), depth + 1, run);
        if (run.out.size() == inside) run.out.resize(start);  // nothing of it was kept
        else run.out += indent + "}\n";
    }
}

void CssScoper::writeStyleRule(const Rule& rule, size_t depth, Run& run) const {
    std::string selector;
    Problem problem;
    if (!selectors_.scope(rule.prelude, rule.at, selector, problem)) {
        run.problems.push_back(problem);
        return;
    }
    if (!rule.block || rule.block->tooDeep) return;
    std::string declarations;
    for (const Declaration& declaration : CssParser::declarations(rule.block->children, run.problems)) {
        std::string written;
        if (!run.policy.write(declaration, written, problem)) {
            run.problems.push_back(problem);
            continue;
        }
        declarations += (declarations.empty() ? "" : "; ") + written;
    }
    if (declarations.empty()) return;
    run.out += std::string(depth * 2, ' ') + selector + " { " + declarations + " }\n";
}

void CssScoper::writeKeyframes(const Rule& rule, size_t depth, Run& run) const {
    const Component* named = keyframesName(rule.prelude);
    if (!named) {
        run.problems.push_back({rule.at, "@keyframes needs one name (an identifier or a string)"});
        return;
    }
    if (reservedKeyframesName(named->token.value)) {
        run.problems.push_back({named->token.at, "'" + named->token.value + "' cannot name @keyframes"});
        return;
    }
    if (!rule.block) {
        run.problems.push_back({rule.at, "@keyframes needs a { } block"});
        return;
    }
    if (rule.block->tooDeep) return;
    const std::string indent(depth * 2, ' ');
    std::string frames;
    for (const Rule& frame : CssParser::rules(rule.block->children, false, run.problems)) {
        if (frame.atRule) {
            run.problems.push_back({frame.at, "@" + frame.name + " inside @keyframes is not supported"});
            continue;
        }
        std::string selector;
        bool valid = true;
        const Component* begin = frame.prelude.data();
        const Component* end = begin + frame.prelude.size();
        while (valid) {
            const Component* comma = begin;
            while (comma != end && !comma->is(TokenType::Comma)) ++comma;
            const Component* keyBegin = begin;
            const Component* keyEnd = comma;
            trimWhitespace(keyBegin, keyEnd);
            std::string key;
            if (keyEnd - keyBegin == 1 && keyBegin->is(TokenType::Percentage)) key = CssWriter::token(keyBegin->token);
            else if (keyEnd - keyBegin == 1 && keyBegin->is(TokenType::Ident)) key = asciiLower(keyBegin->token.value);
            if (key.empty() || (keyBegin->is(TokenType::Ident) && key != "from" && key != "to")) {
                run.problems.push_back({keyBegin != keyEnd ? keyBegin->token.at : frame.at, "a keyframe is from, to or a percentage"});
                valid = false;
                break;
            }
            selector += (selector.empty() ? "" : ", ") + key;
            if (comma == end) break;
            begin = comma + 1;
        }
        if (!valid || !frame.block || frame.block->tooDeep) continue;
        std::string declarations;
        for (const Declaration& declaration : CssParser::declarations(frame.block->children, run.problems)) {
            std::string written;
            Problem problem;
            if (!run.policy.write(declaration, written, problem)) {
                run.problems.push_back(problem);
                continue;
            }
            declarations += (declarations.empty() ? "" : "; ") + written;
        }
        if (!declarations.empty()) frames += indent + "  " + selector + " { " + declarations + " }\n";
    }
    auto renamed = run.keyframes.find(named->token.value);
    const std::string& name = renamed != run.keyframes.end() ? renamed->second : named->token.value;
    run.out += indent + "@keyframes " + CssWriter::identifier(name) + " {\n" + frames + indent + "}\n";
}

bool CssScoper::checkMediaQuery(const std::vector<Component>& prelude, Problem& problem) const {
    for (const Component& c : prelude) {
        if (c.tooDeep) {
            problem = {c.token.at, "nested too deeply"};
            return false;
        }
        if (c.kind == Component::Kind::Function) {
            Problem inner;
            CssDeclarationPolicy policy;
            if (!policy.checkValue({c}, "@media", inner)) {
                problem = inner;
                return false;
            }
            continue;
        }
        if (c.isBlock(TokenType::OpenParen)) {
            if (!checkMediaQuery(c.children, problem)) return false;
            continue;
        }
        switch (c.token.type) {
        case TokenType::Ident:
        case TokenType::Number:
        case TokenType::Percentage:
        case TokenType::Dimension:
        case TokenType::Whitespace:
        case TokenType::Comma:
        case TokenType::Colon:
            if (c.kind == Component::Kind::Token) continue;
            break;
        case TokenType::Delim:
            if (c.isDelim('<') || c.isDelim('>') || c.isDelim('=') || c.isDelim('/')) continue;
            break;
        default:
            break;
        }
        problem = {c.token.at, "unexpected " + CssWriter::describe(c) + " in an @media query"};
        return false;
    }
    return true;
}

bool CssScoper::checkSupportsCondition(const std::vector<Component>& prelude, SourcePosition at, Problem& problem) const {
    const Component* begin = prelude.data();
    const Component* end = begin + prelude.size();
    trimWhitespace(begin, end);
    if (begin == end) {
        problem = {at, "@supports needs a condition"};
        return false;
    }
    for (const Component* c = begin; c != end; ++c) {
        if (c->tooDeep) {
            problem = {c->token.at, "nested too deeply"};
            return false;
        }
        if (c->is(TokenType::Whitespace) || c->is(TokenType::Ident)) continue;
        if (!c->isBlock(TokenType::OpenParen)) {
            problem = {c->token.at, "unexpected " + CssWriter::describe(*c) + " in an @supports condition (only (property: value), not, and, or)"};
            return false;
        }
        const Component* inner = c->children.data();
        const Component* innerEnd = inner + c->children.size();
        trimWhitespace(inner, innerEnd);
        const Component* afterName = inner == innerEnd ? innerEnd : inner + 1;
        while (afterName != innerEnd && afterName->is(TokenType::Whitespace)) ++afterName;
        if (inner != innerEnd && inner->is(TokenType::Ident) && afterName != innerEnd && afterName->is(TokenType::Colon)) {
            std::vector<Problem> problems;
            auto declaration = CssParser::declaration(inner, innerEnd, problems);
            if (!declaration) {
                problem = problems.empty() ? Problem{c->token.at, "expected (property: value)"} : problems.front();
                return false;
            }
            CssDeclarationPolicy policy;
            if (!policy.checkValue(declaration->value, declaration->name, problem)) return false;
            continue;
        }
        if (!checkSupportsCondition(c->children, c->token.at, problem)) return false;
    }
    return true;
}

}  // namespace svc::css
