// The operator's CSS as shops get it (docs/adr/0058): a table of CSS in and, for each, the
// scoped CSS out or the refusal with its line and column. Every accepted output is also scoped
// again: it must come back unchanged and without problems (the fixed point the fuzzer checks).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "css/CssScoper.hpp"
#include "css/CssTokenizer.hpp"
#include "tenant/WidgetSettings.hpp"

using namespace svc;

namespace {

struct Case {
    std::string name;
    std::string css;
    std::string scoped;   // expected output when accepted
    std::string refused;  // expected first problem ("line 1, column 3: ...", a prefix) when refused
};

std::string firstProblem(const css::ScopedCss& scoped) {
    return scoped.problems.empty() ? std::string() : scoped.problems.front().describe();
}

const std::vector<Case> kCases = {
    // Selectors get the widget root in front; what already starts at the root keeps it.
    {"a type selector", "input { color: red }", ".svc-widget input { color: red }\n", ""},
    {"a class", ".svc-card{border-color:red}", ".svc-widget .svc-card { border-color: red }\n", ""},
    {"already at the root", ".svc-widget .svc-card__cart { background: #0a5 !important; }",
     ".svc-widget .svc-card__cart { background: #0a5 !important }\n", ""},
    {"the root itself", ".svc-widget{display:grid}", ".svc-widget { display: grid }\n", ""},
    {"a root modifier gets the root class", ".svc-widget--set .svc-card { color: red }",
     ".svc-widget.svc-widget--set .svc-card { color: red }\n", ""},
    {"every selector of a list", "a, .b > c ,> d, e + f { color: red }",
     ".svc-widget a, .svc-widget .b > c, .svc-widget > d, .svc-widget e + f { color: red }\n", ""},
    {"attributes, ids, pseudo-classes, pseudo-elements",
     "#x[data-a=\"1\"]:hover , a[href^='https' i]::after, li:nth-child( 2n + 1 ), p:before, :not(.a, [b]):focus-visible { color: red }",
     ".svc-widget #x[data-a=\"1\"]:hover, .svc-widget a[href^=\"https\" i]::after, .svc-widget li:nth-child(2n+1), "
     ".svc-widget p::before, .svc-widget :not(.a, [b]):focus-visible { color: red }\n",
     ""},
    {"odd, even and -n+3", "li:nth-child(odd), li:nth-of-type(even), li:nth-last-child(-n+3) { color: red }",
     ".svc-widget li:nth-child(2n+1), .svc-widget li:nth-of-type(2n), .svc-widget li:nth-last-child(-n+3) { color: red }\n", ""},
    {"escapes are decoded, written back plainly", ".a\\:b, .\\31 x, .svc\\-widget .c { c\\6flor: red }",
     ".svc-widget .a\\:b, .svc-widget .\\31 x, .svc-widget .c { color: red }\n", ""},
    {"comments, CDO and CDC vanish", "<!-- /* note */ a /* x */ { color /**/: red } -->", ".svc-widget a { color: red }\n", ""},
    {"a path on svc", "a { background: url(/sdk/demo/a.svg) no-repeat, url( 'img/b.png' ) }",
     ".svc-widget a { background: url(\"/sdk/demo/a.svg\") no-repeat, url(\"img/b.png\") }\n", ""},
    {"image-set of paths on svc", "a { background-image: image-set(\"a.png\" 1x, url(b.png) type(\"image/png\") 2x) }",
     ".svc-widget a { background-image: image-set(\"a.png\" 1x, url(\"b.png\") type(\"image/png\") 2x) }\n", ""},
    {"values: functions, strings, custom properties",
     "a::before { content: \"\\\"\\a\"; --gap: calc(1px + 2%); margin: var(--gap, 0) -1px; color: rgb(0 0 0 / 50%) }",
     ".svc-widget a::before { content: \"\\\"\\a \"; --gap: calc(1px + 2%); margin: var(--gap, 0) -1px; color: rgb(0 0 0 / 50%) }\n",
     ""},
    {"tokens that would run together are kept apart", "a { margin: 1px/**/-2px; grid-area: a/**/b; width: 1\\65 3 }",
     ".svc-widget a { margin: 1px/**/-2px; grid-area: a/**/b; width: 1\\65 3 }\n", ""},
    {"nested @media and @supports",
     "@MEDIA screen and (max-width: 600px) { @media print { a { color: red } } @supports (display: grid) and (not (gap: 1px)) { b { display: grid } } }",
     "@media screen and (max-width: 600px) {\n  @media print {\n    .svc-widget a { color: red }\n  }\n"
     "  @supports (display: grid) and (not (gap: 1px)) {\n    .svc-widget b { display: grid }\n  }\n}\n",
     ""},
    {"@media ranges", "@media (400px <= width <= 700px) { a { color: red } }",
     "@media (400px <= width <= 700px) {\n  .svc-widget a { color: red }\n}\n", ""},
    {"@keyframes renamed, with the animations that use them",
     "@keyframes spin { from { transform: rotate(0) } 50%, to { transform: rotate(360deg) } } a { animation: spin 1s linear; animation-name: spin, fade }",
     "@keyframes svc-tenant-spin {\n  from { transform: rotate(0) }\n  50%, to { transform: rotate(360deg) }\n}\n"
     ".svc-widget a { animation: svc-tenant-spin 1s linear; animation-name: svc-tenant-spin, fade }\n",
     ""},
    {"an empty stylesheet", "  /* nothing */ ", "", ""},

    // At-rules: an allow-list, whatever the case or escapes.
    {"@import", "@import url(x.css);", "", "line 1, column 1: @import is not allowed"},
    {"@IMPORT", "@IMPORT \"x.css\";", "", "line 1, column 1: @import is not allowed"},
    {"@\\69mport", "@\\69mport \"x.css\";", "", "line 1, column 1: @import is not allowed"},
    {"@\\000069mport", "@\\000069mport \"x.css\";", "", "line 1, column 1: @import is not allowed"},
    {"a comment inside the at-keyword", "@im/**/port \"x.css\";", "", "line 1, column 1: '@im' is not supported"},
    {"@import inside @media", "@media print {\n  @import \"x.css\";\n}", "", "line 2, column 3: @import is not allowed"},
    {"@namespace", "@namespace svg url(http://www.w3.org/2000/svg);", "", "line 1, column 1: @namespace is not allowed"},
    {"@font-face", "@font-face { font-family: X; src: url(/x.woff) }", "", "line 1, column 1: @font-face is not allowed"},
    {"@charset", "@charset \"utf-8\";", "", "line 1, column 1: @charset is not allowed"},
    {"an unknown at-rule", "@layer base { a { color: red } }", "", "line 1, column 1: '@layer' is not supported"},
    {"@supports selector()", "@supports selector(:has(a)) { a { color: red } }", "", "line 1, column 11: unexpected 'selector('"},
    {"@keyframes none", "@keyframes none { from { color: red } }", "", "line 1, column 12: 'none' cannot name @keyframes"},

    // Selectors that would match or look outside the widget.
    {"the finding: a password's prefix", "input[type=password][value^=a]{background:url(http://x/a)}", "",
     "line 1, column 43: url(\"http://x/a\") leaves svc"},
    {":has()", "a:has(input[value^=a]) { color: red }", "", "line 1, column 2: ':has()' is not allowed"},
    {":root", ":root { --x: 1 }", "", "line 1, column 1: ':root' is the page's root element"},
    {":host", ":host { color: red }", "", "line 1, column 1: ':host' reaches the shadow host"},
    {":scope", ":scope > a { color: red }", "", "line 1, column 1: ':scope' is not supported"},
    {"html", "html body a { color: red }", "", "line 1, column 1: 'html' is outside the widget"},
    {"body in a list", "a,\nBODY { color: red }", "", "line 2, column 1: 'body' is outside the widget"},
    {"a leading sibling combinator", "~ input { color: red }", "", "line 1, column 1: a selector cannot start with '~'"},
    {"a leading +", "+ input { color: red }", "", "line 1, column 1: a selector cannot start with '+'"},
    {"a sibling of the root", ".svc-widget ~ input { color: red }", "", "line 1, column 15: '~' after the widget root"},
    {"a namespace", "svg|a { color: red }", "", "line 1, column 4: namespace prefixes"},
    {"a namespace in an attribute", "[xlink|href] { color: red }", "", "line 1, column 7: namespace prefixes"},
    {"any namespace", "*|* { color: red }", "", "line 1, column 2: namespace prefixes"},
    {"a combinator inside :is()", ":is(form input) { color: red }", "", "line 1, column 9: only simple selectors"},
    {"the nesting selector", "& a { color: red }", "", "line 1, column 1: unexpected '&'"},
    {"an unknown pseudo-class", "a:target { color: red }", "", "line 1, column 2: ':target' is not supported"},
    {"an empty selector in a list", "a,, b { color: red }", "", "line 1, column 3: an empty selector"},

    // Values that would fetch from elsewhere or run code.
    {"url( \"http://x\" )", "a { background: url( \"http://x\" ) }", "", "line 1, column 17: url(\"http://x\") leaves svc"},
    {"u\\72l(", "a { background: u\\72l(http://x) }", "", "line 1, column 17: url(\"http://x\") leaves svc"},
    {"\\75rl(", "a { background: \\75rl(http://x) }", "", "line 1, column 17: url(\"http://x\") leaves svc"},
    {"a protocol-relative url", "a { background: url(//x/a.png) }", "", "line 1, column 17: url(\"//x/a.png\") leaves svc"},
    {"a backslash that the URL parser reads as /", "a { background: url('/\\\\x/a.png') }", "",
     "line 1, column 17: url(\"/\\\\x/a.png\") has spaces"},
    {"a data url", "a { background: url(data:image/png;base64,AAAA) }", "", "line 1, column 17: url(\"data:image/png;base64,AAAA\") leaves svc"},
    {"image-set", "a { background-image: image-set(\"http://x/a.png\" 1x) }", "", "line 1, column 33: url(\"http://x/a.png\") leaves svc"},
    {"-webkit-image-set", "a { background-image: -webkit-image-set(url(https://x/a.png) 1x) }", "",
     "line 1, column 41: url(\"https://x/a.png\") leaves svc"},
    {"var() inside image-set", "a { --u: \"x.png\"; background: image-set(var(--u) 1x) }", "", "line 1, column 41: var() inside image-set()"},
    {"a url in a custom property", "a { --u: url(https://x/a.png) }", "", "line 1, column 10: url(\"https://x/a.png\") leaves svc"},
    {"src()", "a { background: src(\"x.png\") }", "", "line 1, column 17: 'src()' is not allowed"},
    {"image()", "a { background: image(\"x.png\") }", "", "line 1, column 17: 'image()' is not allowed"},
    {"expression()", "a { width: expression(alert(1)) }", "", "line 1, column 12: expression() is not allowed"},
    {"behavior", "a { behavior: url(x.htc) }", "", "line 1, column 5: 'behavior' is not allowed"},
    {"-moz-binding", "a { -moz-binding: url(x.xml#b) }", "", "line 1, column 5: '-moz-binding' is not allowed"},
    {"a bad url", "a { background: url(javascript:alert(1)) }", "", "line 1, column 17: a quote, '(' or control character"},
    {"a block in a value", "a { --x: { color: red } }", "", "line 1, column 10: a { } block inside the value"},

    // Broken CSS: the browser would guess; svc refuses to save it.
    {"an unterminated block", "a { color: red", "", "line 1, column 3: this '{' is never closed"},
    {"an unterminated nested block", "@media print {\n  a { color: red }\n", "", "line 1, column 14: this '{' is never closed"},
    {"an unterminated comment", "a { color: red } /* x", "", "line 1, column 18: this comment is never closed"},
    {"a line break in a string", "a::after { content: \"x\n; color: red }", "", "line 1, column 21: a line break inside this string"},
    {"a missing colon", "a { color red }", "", "line 1, column 5: expected ':' after the property name 'color'"},
    {"a nested rule", "a { color: red; .b { color: blue } }", "", "line 1, column 17: expected a property name, found '.'"},
    {"a stray closing brace", "a { color: red } }", "", "line 1, column 18: a selector without a { } block"},
    {"a selector without a block", "a", "", "line 1, column 1: a selector without a { } block"},
    {"a missing value", "a { color: ; width: 1px }", "", "line 1, column 5: 'color' has no value"},
};

}  // namespace

TEST_CASE("CssScoper: the operator's CSS scoped to the widget root, or refused with line and column") {
    for (const Case& c : kCases) {
        CAPTURE(c.name);
        CAPTURE(c.css);
        css::ScopedCss scoped = WidgetSettings::scopedCss(c.css);
        if (c.refused.empty()) {
            CHECK(firstProblem(scoped) == "");
            CHECK(scoped.css == c.scoped);
            css::ScopedCss again = WidgetSettings::scopedCss(scoped.css);
            CHECK(firstProblem(again) == "");
            CHECK(again.css == scoped.css);
        } else {
            CAPTURE(firstProblem(scoped));
            CHECK(firstProblem(scoped).rfind(c.refused, 0) == 0);
        }
    }
}

TEST_CASE("CssScoper: CSS stored before the checks is served with what passes; the rest is left out and listed") {
    const std::string stored =
        "@import url(https://x/font.css);\n"
        "input[type=password][value^=a] { background: url(https://x/a) }\n"
        "body { background: red }\n"
        ".svc-card__cart { background: #0a5 !important; list-style-image: url(https://x/b) }\n"
        "@font-face { font-family: Leak; src: url(https://x/c.woff) }\n";
    css::ScopedCss scoped = WidgetSettings::scopedCss(stored);
    CHECK(scoped.css == ".svc-widget .svc-card__cart { background: #0a5 !important }\n");
    REQUIRE(scoped.problems.size() == 5);
    CHECK(scoped.problems[0].describe().rfind("line 1, column 1: @import is not allowed", 0) == 0);
    CHECK(scoped.problems[1].describe().rfind("line 2, column 46: url(\"https://x/a\") leaves svc", 0) == 0);
    CHECK(scoped.problems[2].describe().rfind("line 3, column 1: 'body' is outside the widget", 0) == 0);
    CHECK(scoped.problems[3].describe().rfind("line 4, column 66: url(\"https://x/b\") leaves svc", 0) == 0);
    CHECK(scoped.problems[4].describe().rfind("line 5, column 1: @font-face is not allowed", 0) == 0);
}

TEST_CASE("WidgetSettings::validCss names the field, the line and the column of the first problem") {
    CHECK(WidgetSettings::validCss(".svc-widget { color: red }", "css").ok());
    CHECK(WidgetSettings::validCss("@media (width < 600px) { a { color: red } }", "css").ok());
    CHECK(WidgetSettings::validCss("</style><script>", "css").error().message.rfind("css: contains '<'", 0) == 0);
    auto refused = WidgetSettings::validCss("a { color: red }\n@IMPORT url(x.css);\nb { x: url(http://y) }", "css");
    REQUIRE(!refused.ok());
    CHECK(refused.error().message == "css: line 2, column 1: @import is not allowed: widgets.css is one file, and nothing in it "
                                     "loads from elsewhere (and 1 more)");
}

TEST_CASE("CssTokenizer: escapes are decoded before anything looks at a name") {
    std::vector<css::Problem> problems;
    auto tokens = css::CssTokenizer::tokenize("@\\69mport u\\72l(x) \\75rl( \"y\" ) #\\31 a \"\\\n\" \\0", problems);
    REQUIRE(tokens.size() == 15);
    CHECK(tokens[0].type == css::TokenType::AtKeyword);
    CHECK(tokens[0].value == "import");
    CHECK(tokens[2].type == css::TokenType::Url);
    CHECK(tokens[2].value == "x");
    CHECK(tokens[4].type == css::TokenType::Function);
    CHECK(tokens[4].value == "url");
    CHECK(tokens[10].type == css::TokenType::Hash);
    CHECK(tokens[10].hashIsId);
    CHECK(tokens[10].value == "1a");
    CHECK(tokens[12].type == css::TokenType::String);
    CHECK(tokens[12].value == "");
    CHECK(tokens.back().type == css::TokenType::Ident);
    CHECK(tokens.back().value == "\xEF\xBF\xBD");
    CHECK(problems.empty());
}
