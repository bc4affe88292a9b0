#include "css/CssDeclarationPolicy.hpp"

#include <algorithm>
#include <string_view>

#include "css/CssCodePoints.hpp"
#include "css/CssParser.hpp"
#include "css/CssWriter.hpp"

namespace svc::css {
namespace {

constexpr std::string_view kFunctions[] = {
    // colours
    "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "color-mix", "light-dark",
    // maths
    "calc", "min", "max", "clamp", "round", "mod", "rem", "abs", "sign", "sin", "cos", "tan", "asin", "acos", "atan",
    "atan2", "pow", "sqrt", "hypot", "log", "exp",
    // references to the element's own values
    "var", "env", "attr", "counter", "counters",
    // images that are drawn, not fetched
    "linear-gradient", "radial-gradient", "conic-gradient", "repeating-linear-gradient", "repeating-radial-gradient",
    "repeating-conic-gradient", "-webkit-linear-gradient", "-webkit-radial-gradient",
    // transforms, easing, grid, filters, shapes
    "translate", "translatex", "translatey", "translatez", "translate3d", "rotate", "rotatex", "rotatey", "rotatez",
    "rotate3d", "scale", "scalex", "scaley", "scalez", "scale3d", "skew", "skewx", "skewy", "matrix", "matrix3d",
    "perspective", "cubic-bezier", "steps", "linear", "repeat", "minmax", "fit-content", "blur", "brightness", "contrast",
    "drop-shadow", "grayscale", "hue-rotate", "invert", "opacity", "saturate", "sepia", "inset", "circle", "ellipse",
    "polygon"};
// Properties that run code or bind behaviour in some browser.
constexpr std::string_view kRefusedProperties[] = {"behavior", "-ms-behavior", "-moz-binding"};
constexpr std::string_view kAnimationProperties[] = {"animation", "animation-name", "-webkit-animation", "-webkit-animation-name"};

template <size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

}  // namespace

CssDeclarationPolicy::CssDeclarationPolicy(const std::map<std::string, std::string>* renamedKeyframes)
    : renamedKeyframes_(renamedKeyframes) {}

bool CssDeclarationPolicy::allowedUrl(const std::string& url, std::string& reason) {
    if (url.empty()) {
        reason = "an empty url()";
        return false;
    }
    for (char c : url) {
        auto byte = static_cast<unsigned char>(c);
        // The URL parser drops tabs and line breaks anywhere and reads "\" as "/": neither may hide a host.
        if (byte <= 0x20 || byte >= 0x7F || c == '\\') {
            reason = "url(" + CssWriter::quoted(url) + ") has spaces, control, non-ASCII characters or a backslash";
            return false;
        }
    }
    bool scheme = (url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z');
    size_t i = 1;
    while (scheme && i < url.size() && (isCssLetter(url[i]) || isCssDigit(url[i]) || url[i] == '+' || url[i] == '-' || url[i] == '.')) ++i;
    if ((scheme && i < url.size() && url[i] == ':') || url.rfind("//", 0) == 0) {
        reason = "url(" + CssWriter::quoted(url) + ") leaves svc: only paths on svc itself are allowed (such as /sdk/demo/... "
                 "or a set photo's address), no scheme or host";
        return false;
    }
    return true;
}

bool CssDeclarationPolicy::check(const std::vector<Component>& list, const std::string& property, bool inImageSet, Problem& problem) const {
    auto fail = [&](SourcePosition at, std::string reason) {
        problem = {at, std::move(reason)};
        return false;
    };
    for (const Component& c : list) {
        if (c.tooDeep) return fail(c.token.at, "nested too deeply");
        const Token& t = c.token;
        if (c.kind == Component::Kind::Function) {
            std::string name = asciiLower(t.value);
            if (name == "url") {
                const Component* begin = c.children.data();
                const Component* end = begin + c.children.size();
                trimWhitespace(begin, end);
                if (end - begin != 1 || !begin->is(TokenType::String)) return fail(t.at, "url() takes one quoted address");
                std::string reason;
                if (!allowedUrl(begin->token.value, reason)) return fail(t.at, reason);
                continue;
            }
            if (name == "image-set" || name == "-webkit-image-set") {
                if (!check(c.children, property, true, problem)) return false;
                continue;
            }
            if (name == "type" && inImageSet) {
                if (!check(c.children, property, false, problem)) return false;
                continue;
            }
            if (inImageSet && (name == "var" || name == "env" || name == "attr")) {
                return fail(t.at, name + "() inside image-set() is not allowed: svc must see every address");
            }
            if (name == "expression") return fail(t.at, "expression() is not allowed: it runs code");
            if (!listed(kFunctions, name)) {
                return fail(t.at, "'" + CssWriter::identifier(t.value) + "()' is not allowed in the operator's CSS");
            }
            if (!check(c.children, property, inImageSet, problem)) return false;
            continue;
        }
        if (c.kind == Component::Kind::Block) {
            if (t.type == TokenType::OpenCurly) return fail(t.at, "a { } block inside the value of '" + property + "'");
            if (!check(c.children, property, inImageSet, problem)) return false;
            continue;
        }
        switch (t.type) {
        case TokenType::Ident:
        case TokenType::Number:
        case TokenType::Percentage:
        case TokenType::Dimension:
        case TokenType::Whitespace:
        case TokenType::Comma:
        case TokenType::Hash:
            continue;
        case TokenType::String:
            if (inImageSet) {
                std::string reason;
                if (!allowedUrl(t.value, reason)) return fail(t.at, reason);
            }
            continue;
        case TokenType::Url: {
            std::string reason;
            if (!allowedUrl(t.value, reason)) return fail(t.at, reason);
            continue;
        }
        case TokenType::Delim:
            if (c.isDelim('/') || c.isDelim('*') || c.isDelim('+') || c.isDelim('-')) continue;
            break;
        default:
            break;
        }
        return fail(t.at, "unexpected " + CssWriter::describe(c) + " in the value of '" + property + "'");
    }
    return true;
}

bool CssDeclarationPolicy::checkValue(const std::vector<Component>& value, const std::string& property, Problem& problem) const {
    return check(value, property, false, problem);
}

bool CssDeclarationPolicy::write(const Declaration& declaration, std::string& out, Problem& problem) const {
    std::string name = asciiLower(declaration.name);
    bool custom = declaration.name.rfind("--", 0) == 0;
    if (listed(kRefusedProperties, name)) {
        problem = {declaration.at, "'" + name + "' is not allowed: it runs code"};
        return false;
    }
    if (!custom && declaration.value.empty()) {
        problem = {declaration.at, "'" + declaration.name + "' has no value"};
        return false;
    }
    if (!check(declaration.value, declaration.name, false, problem)) return false;
    std::string value;
    if (renamedKeyframes_ && !renamedKeyframes_->empty() && listed(kAnimationProperties, name)) {
        std::vector<Component> renamed = declaration.value;
        for (Component& c : renamed) {
            if (!c.is(TokenType::Ident) && !c.is(TokenType::String)) continue;
            auto found = renamedKeyframes_->find(c.token.value);
            if (found == renamedKeyframes_->end()) continue;
            c.token.type = TokenType::Ident;
            c.token.value = found->second;
        }
        value = CssWriter::components(renamed);
    } else {
        value = CssWriter::components(declaration.value);
    }
    out = CssWriter::identifier(custom ? declaration.name : name) + ": " + value + (declaration.important ? " !important" : "");
    return true;
}

}  // namespace svc::css
