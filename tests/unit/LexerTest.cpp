// Unit tests of graphql/Lexer.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "graphql/Lexer.hpp"

using svc::graphql::Lexer;
using svc::graphql::Token;

namespace {

const char* kindName(Token::Kind kind) {
    switch (kind) {
        case Token::Kind::EndOfFile: return "EOF";
        case Token::Kind::Punctuator: return "P";
        case Token::Kind::Name: return "Name";
        case Token::Kind::Int: return "Int";
        case Token::Kind::Float: return "Float";
        case Token::Kind::String: return "String";
        case Token::Kind::BlockString: return "Block";
    }
    return "?";
}

// All tokens as "Kind(text)@line:column" separated by spaces; stops at the first error,
// which is appended as "error: <message>".
std::string tokenize(const std::string& source) {
    Lexer lexer(source);
    std::string out;
    for (int guard = 0; guard < 1000; ++guard) {
        auto token = lexer.next();
        if (!out.empty()) out += " ";
        if (!token.ok()) return out + "error: " + token.error().message;
        out += std::string(kindName(token->kind)) + "(" + token->text + ")@" + std::to_string(token->location.line) + ":" +
               std::to_string(token->location.column);
        if (token->kind == Token::Kind::EndOfFile) return out;
    }
    return out + "no end";
}

// The single value token of `source`, or the error.
std::string firstToken(const std::string& source) {
    Lexer lexer(source);
    auto token = lexer.next();
    if (!token.ok()) return "error: " + token.error().message;
    return std::string(kindName(token->kind)) + "(" + token->text + ")";
}

}  // namespace

TEST_CASE("Lexer: punctuators, names and locations; whitespace, commas, comments and BOM are ignored") {
    struct LexCase {
        std::string source;
        std::string tokens;
    };
    const std::vector<LexCase> cases{
        {"", "EOF()@1:1"},
        {"{ a }", "P({)@1:1 Name(a)@1:3 P(})@1:5 EOF()@1:6"},
        {"!$&()...:=@[]{}|", "P(!)@1:1 P($)@1:2 P(&)@1:3 P(()@1:4 P())@1:5 P(...)@1:6 P(:)@1:9 P(=)@1:10 P(@)@1:11 "
                              "P([)@1:12 P(])@1:13 P({)@1:14 P(})@1:15 P(|)@1:16 EOF()@1:17"},
        {"_a9 B_c", "Name(_a9)@1:1 Name(B_c)@1:5 EOF()@1:8"},
        {"a,,b\t,c", "Name(a)@1:1 Name(b)@1:4 Name(c)@1:7 EOF()@1:8"},
        {"a # comment { }\n  b", "Name(a)@1:1 Name(b)@2:3 EOF()@2:4"},
        {"a\r\nb\rc\nd", "Name(a)@1:1 Name(b)@2:1 Name(c)@3:1 Name(d)@4:1 EOF()@4:2"},
        {"a .", "Name(a)@1:1 error: 1:3: unexpected character '.'"},
        {"a ..b", "Name(a)@1:1 error: 1:3: unexpected character '.'"},
        {"\n  ?", "error: 2:3: unexpected character '?'"},
        {"\x01", "error: 1:1: unexpected character byte 1"},
        {"\xC3\xA4", "error: 1:1: unexpected character byte 195"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.source);
        CHECK(tokenize(c.source) == c.tokens);
    }
}

TEST_CASE("Lexer: a UTF-8 byte-order mark is skipped") {
    CHECK(firstToken("\xEF\xBB\xBF{") == "P({)");
    CHECK(firstToken("\xEF\xBB") == "error: 1:1: unexpected character byte 239");
}

TEST_CASE("Lexer: numbers") {
    struct NumberCase {
        std::string source;
        std::string token;
    };
    const std::vector<NumberCase> cases{
        {"0", "Int(0)"},
        {"-0", "Int(-0)"},
        {"123", "Int(123)"},
        {"-42", "Int(-42)"},
        {"9223372036854775808", "Int(9223372036854775808)"},  // the text is kept; range is the executor's business
        {"1.5", "Float(1.5)"},
        {"-0.25", "Float(-0.25)"},
        {"1e10", "Float(1e10)"},
        {"1E-2", "Float(1E-2)"},
        {"-3.14e+2", "Float(-3.14e+2)"},
        {"01", "error: 1:2: invalid number, unexpected digit after 0"},
        {"-", "error: 1:2: invalid number, expected digit"},
        {"-a", "error: 1:2: invalid number, expected digit"},
        {"1.", "error: 1:3: invalid number, expected digit after '.'"},
        {"1.e5", "error: 1:3: invalid number, expected digit after '.'"},
        {"1e", "error: 1:3: invalid number, expected digit in exponent"},
        {"1e+", "error: 1:4: invalid number, expected digit in exponent"},
        {"12abc", "error: 1:3: invalid number, unexpected character after number"},
        {"1.5.3", "error: 1:4: invalid number, unexpected character after number"},
        {"0x1F", "error: 1:2: invalid number, unexpected character after number"},
        {"1_000", "error: 1:2: invalid number, unexpected character after number"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.source);
        CHECK(firstToken(c.source) == c.token);
    }
    CHECK(tokenize("[1, -2.5]") == "P([)@1:1 Int(1)@1:2 Float(-2.5)@1:5 P(])@1:9 EOF()@1:10");
}

TEST_CASE("Lexer: strings and escapes") {
    struct StringCase {
        std::string source;
        std::string token;
    };
    const std::vector<StringCase> cases{
        {R"("")", "String()"},
        {R"("plain text")", "String(plain text)"},
        {R"("q\"b\\s\/")", "String(q\"b\\s/)"},
        {R"("\b\f\n\r\t")", "String(\b\f\n\r\t)"},
        {"\"Gr\xC3\xB6\xC3\x9F" "e\"", "String(Gr\xC3\xB6\xC3\x9F" "e)"},  // raw UTF-8 passes through
        {R"("\u0041")", "String(A)"},
        {R"("\u00e4\u00C4")", "String(\xC3\xA4\xC3\x84)"},
        {R"("\u20AC")", "String(\xE2\x82\xAC)"},
        {R"("\uFFFF")", "String(\xEF\xBF\xBF)"},
        {R"("\uD83D\uDE00")", "String(\xF0\x9F\x98\x80)"},   // surrogate pair -> U+1F600
        {R"("\uDBFF\uDFFF")", "String(\xF4\x8F\xBF\xBF)"},   // U+10FFFF
        {R"("a\uD834\uDD1Eb")", "String(a\xF0\x9D\x84\x9E" "b)"},
        {R"("\uD83D")", "error: 1:2: invalid unicode escape sequence"},          // lone high surrogate
        {R"("\uD83Dx")", "error: 1:2: invalid unicode escape sequence"},
        {R"("\uD83D\u0041")", "error: 1:2: invalid unicode escape sequence"},    // high surrogate + non-low
        {R"("\uDE00")", "error: 1:2: invalid unicode escape sequence"},          // lone low surrogate
        {R"("\u12G4")", "error: 1:2: invalid unicode escape sequence"},
        {R"("\u12")", "error: 1:2: invalid unicode escape sequence"},
        {R"("\x")", "error: 1:2: invalid character escape sequence"},
        {R"("abc)", "error: 1:5: unterminated string"},
        {"\"abc\ndef\"", "error: 1:5: unterminated string"},
        {"\"abc\r\"", "error: 1:5: unterminated string"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.source);
        CHECK(firstToken(c.source) == c.token);
    }
}

TEST_CASE("Lexer: block strings") {
    struct BlockCase {
        std::string source;
        std::string value;
    };
    const std::vector<BlockCase> cases{
        {R"("""""")", ""},
        {R"("""single line""")", "single line"},
        // The GraphQL spec's example: common indentation and blank first and last lines removed.
        {"\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\"",
         "Hello,\n  World!\n\nYours,\n  GraphQL."},
        // The first line keeps its indentation; it does not count for the common indentation.
        {"\"\"\"  first\n    second\n      third\"\"\"", "  first\nsecond\n  third"},
        // Whitespace-only lines do not count for the common indentation either.
        {"\"\"\"\n    a\n  \n    b\n\"\"\"", "a\n\nb"},
        {"\"\"\"\n\ta\n\t\tb\n\"\"\"", "a\n\tb"},
        {"\"\"\"\r\n  x\r\n  y\r\n\"\"\"", "x\ny"},
        {R"("""say \""" and "quote" and \n""")", "say \"\"\" and \"quote\" and \\n"},  // only \""" is an escape
        {"\"\"\"\xC3\xA4\"\"\"", "\xC3\xA4"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.source);
        CHECK(firstToken(c.source) == "Block(" + c.value + ")");
    }
    CHECK(firstToken("\"\"\"never closed\n") == "error: 2:1: unterminated block string");
    // Lines inside a block string are counted for the tokens after it.
    CHECK(tokenize("\"\"\"a\nb\"\"\" x") == "Block(a\nb)@1:1 Name(x)@2:6 EOF()@2:7");
}
