// Unit tests of text/HtmlEscape: escaping for element content and attributes, and URL checks.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "text/HtmlEscape.hpp"

TEST_CASE("escapeHtml escapes exactly & < > \" '") {
    struct EscapeCase {
        std::string input;
        std::string expected;
    };
    const std::vector<EscapeCase> cases{
        {"", ""},
        {"plain text 123", "plain text 123"},
        {"&", "&amp;"},
        {"<", "&lt;"},
        {">", "&gt;"},
        {"\"", "&quot;"},
        {"'", "&#39;"},
        {"<a href=\"x\" title='y'>T&C</a>", "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;T&amp;C&lt;/a&gt;"},
        {"&amp;", "&amp;amp;"},  // not idempotent: escaping twice is visible, so callers escape once
        {"Gr\xC3\xB6\xC3\x9F" "e \xE2\x82\xAC", "Gr\xC3\xB6\xC3\x9F" "e \xE2\x82\xAC"},  // UTF-8 passes through
        {std::string("a\0b", 3), std::string("a\0b", 3)},
    };
    for (const auto& c : cases) {
        CAPTURE(c.input);
        CHECK(svc::escapeHtml(c.input) == c.expected);
    }
}

TEST_CASE("safeUrl keeps http(s) and relative URLs and refuses every other scheme") {
    struct UrlCase {
        std::string input;
        std::string expected;
    };
    const std::vector<UrlCase> cases{
        // Refused schemes, whatever their case or leading whitespace and control characters.
        {"javascript:alert(1)", ""},
        {"JAVASCRIPT:alert(1)", ""},
        {"JavaScript:alert(1)", ""},
        {" javascript:alert(1)", ""},
        {"\t\n javascript:alert(1)", ""},
        {std::string("\x01javascript:alert(1)"), ""},
        {"data:text/html;base64,PHNjcmlwdD4=", ""},
        {"vbscript:msgbox(1)", ""},
        {"mailto:a@example.com", ""},
        {"x:y", ""},
        {"javascript:/x", ""},
        {"https:", "https:"},
        // Kept.
        {"http://shop.example/p?id=1&c=2", "http://shop.example/p?id=1&c=2"},
        {"https://shop.example/p", "https://shop.example/p"},
        {"HTTPS://SHOP.EXAMPLE/", "HTTPS://SHOP.EXAMPLE/"},
        {"  https://shop.example/", "https://shop.example/"},  // leading whitespace dropped
        {"/x?y", "/x?y"},
        {"/p/a:b", "/p/a:b"},     // a colon after a slash is not a scheme
        {"p?q=a:b", "p?q=a:b"},   // nor after a query
        {"p#a:b", "p#a:b"},       // nor after a fragment
        {"//cdn.example/i.jpg", "//cdn.example/i.jpg"},
        {"images/shoe.jpg", "images/shoe.jpg"},
        {"", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.input);
        CHECK(svc::safeUrl(c.input) == c.expected);
    }
}
