#include "css/CssParser.hpp"

#include "css/CssCodePoints.hpp"
#include "css/CssWriter.hpp"

namespace svc::css {
namespace {

bool opens(TokenType type) {
    return type == TokenType::OpenCurly || type == TokenType::OpenSquare || type == TokenType::OpenParen ||
           type == TokenType::Function;
}

TokenType closerFor(TokenType opener) {
    if (opener == TokenType::OpenCurly) return TokenType::CloseCurly;
    if (opener == TokenType::OpenSquare) return TokenType::CloseSquare;
    return TokenType::CloseParen;
}

Component blockOf(const Token& opener) {
    Component component;
    component.kind = opener.type == TokenType::Function ? Component::Kind::Function : Component::Kind::Block;
    component.token = opener;
    return component;
}

}  // namespace

void trimWhitespace(const Component*& begin, const Component*& end) {
    while (begin != end && begin->is(TokenType::Whitespace)) ++begin;
    while (end != begin && (end - 1)->is(TokenType::Whitespace)) --end;
}

std::vector<Component> CssParser::componentValues(const std::vector<Token>& tokens, std::vector<Problem>& problems) {
    std::vector<Component> top;
    std::vector<Component> open;  // the blocks and functions not closed yet, innermost last
    // Past the nesting limit, only the brackets are counted until the outermost one closes.
    Component deep;
    std::vector<TokenType> deepClosers;
    auto children = [&]() -> std::vector<Component>& { return open.empty() ? top : open.back().children; };

    for (const Token& token : tokens) {
        if (!deepClosers.empty()) {
            if (opens(token.type)) deepClosers.push_back(closerFor(token.type));
            else if (token.type == deepClosers.back()) deepClosers.pop_back();
            if (deepClosers.empty()) children().push_back(std::move(deep));
            continue;
        }
        if (opens(token.type)) {
            if (open.size() >= kMaxNesting) {
                problems.push_back({token.at, "nested deeper than " + std::to_string(kMaxNesting) + " levels"});
                deep = blockOf(token);
                deep.tooDeep = true;
                deepClosers.push_back(closerFor(token.type));
                continue;
            }
            open.push_back(blockOf(token));
            continue;
        }
        if (!open.empty() && token.type == closerFor(open.back().token.type)) {
            Component done = std::move(open.back());
            open.pop_back();
            children().push_back(std::move(done));
            continue;
        }
        Component single;
        single.token = token;
        children().push_back(std::move(single));
    }
    if (!deepClosers.empty()) {
        deep.closed = false;
        children().push_back(std::move(deep));
    }
    while (!open.empty()) {
        Component done = std::move(open.back());
        open.pop_back();
        done.closed = false;
        problems.push_back({done.token.at, "this " + CssWriter::describe(done) + " is never closed"});
        children().push_back(std::move(done));
    }
    return top;
}

std::vector<Rule> CssParser::rules(const std::vector<Component>& components, bool topLevel, std::vector<Problem>& problems) {
    std::vector<Rule> rules;
    size_t i = 0;
    const size_t n = components.size();
    while (i < n) {
        const Component& first = components[i];
        if (first.is(TokenType::Whitespace) || (topLevel && (first.is(TokenType::Cdo) || first.is(TokenType::Cdc)))) {
            ++i;
            continue;
        }
        Rule rule;
        rule.at = first.token.at;
        if (first.is(TokenType::AtKeyword)) {
            rule.atRule = true;
            rule.name = first.token.value;
            for (++i; i < n; ++i) {
                if (components[i].is(TokenType::Semicolon)) {
                    ++i;
                    break;
                }
                if (components[i].isBlock(TokenType::OpenCurly)) {
                    rule.block = components[i++];
                    break;
                }
                rule.prelude.push_back(components[i]);
            }
            rules.push_back(std::move(rule));
            continue;
        }
        for (; i < n; ++i) {
            if (components[i].isBlock(TokenType::OpenCurly)) {
                rule.block = components[i++];
                break;
            }
            rule.prelude.push_back(components[i]);
        }
        if (!rule.block) {
            problems.push_back({rule.at, "a selector without a { } block after it"});
            break;
        }
        rules.push_back(std::move(rule));
    }
    return rules;
}

std::optional<Declaration> CssParser::declaration(const Component* begin, const Component* end, std::vector<Problem>& problems) {
    trimWhitespace(begin, end);
    if (begin == end) return std::nullopt;
    if (!begin->is(TokenType::Ident)) {
        problems.push_back({begin->token.at, "expected a property name, found " + CssWriter::describe(*begin)});
        return std::nullopt;
    }
    Declaration declaration;
    declaration.name = begin->token.value;
    declaration.at = begin->token.at;
    const Component* c = begin + 1;
    while (c != end && c->is(TokenType::Whitespace)) ++c;
    if (c == end || !c->is(TokenType::Colon)) {
        problems.push_back({declaration.at, "expected ':' after the property name '" + declaration.name + "'"});
        return std::nullopt;
    }
    const Component* valueBegin = c + 1;
    const Component* valueEnd = end;
    trimWhitespace(valueBegin, valueEnd);
    // "! important" at the very end, any case, spaces allowed between.
    if (valueEnd != valueBegin && (valueEnd - 1)->is(TokenType::Ident) &&
        asciiLower((valueEnd - 1)->token.value) == "important") {
        const Component* bang = valueEnd - 1;
        while (bang != valueBegin && (bang - 1)->is(TokenType::Whitespace)) --bang;
        if (bang != valueBegin && (bang - 1)->isDelim('!')) {
            declaration.important = true;
            valueEnd = bang - 1;
            trimWhitespace(valueBegin, valueEnd);
        }
    }
    declaration.value.assign(valueBegin, valueEnd);
    return declaration;
}

std::vector<Declaration> CssParser::declarations(const std::vector<Component>& components, std::vector<Problem>& problems) {
    std::vector<Declaration> declarations;
    const Component* c = components.data();
    const Component* end = c + components.size();
    auto untilSemicolon = [&](const Component* from) {
        while (from != end && !from->is(TokenType::Semicolon)) ++from;
        return from;
    };
    while (c != end) {
        if (c->is(TokenType::Whitespace) || c->is(TokenType::Semicolon)) {
            ++c;
            continue;
        }
        if (c->is(TokenType::AtKeyword)) {
            problems.push_back({c->token.at, "@" + c->token.value + " inside a rule is not supported (put the rule inside the @-rule instead)"});
            // An at-rule runs to its ";" or its { } block.
            ++c;
            while (c != end && !c->is(TokenType::Semicolon) && !c->isBlock(TokenType::OpenCurly)) ++c;
            if (c != end) ++c;
            continue;
        }
        if (!c->is(TokenType::Ident)) {
            problems.push_back({c->token.at, "expected a property name, found " + CssWriter::describe(*c) +
                                                 (c->isBlock(TokenType::OpenCurly) || c->isDelim('&') || c->isDelim('.') ||
                                                          c->isDelim('#') || c->is(TokenType::Colon)
                                                      ? " (rules inside rules are not supported)"
                                                      : "")});
            c = untilSemicolon(c);
            continue;
        }
        const Component* stop = untilSemicolon(c);
        if (auto parsed = declaration(c, stop, problems)) declarations.push_back(std::move(*parsed));
        c = stop;
    }
    return declarations;
}

}  // namespace svc::css
