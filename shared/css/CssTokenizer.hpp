#pragma once
// The tokenizer of CSS Syntax Level 3 (section 4), as browsers run it: the input is
// preprocessed (CR LF, CR and FF become LF; NUL, surrogates and invalid UTF-8 become U+FFFD),
// comments vanish, escapes are decoded into the token's value, and url(...) without quotes,
// bad strings, bad urls, CDO and CDC are tokens of their own. Whatever a browser would read
// differently from svc's checks could smuggle CSS past them; hence no shortcut here.
#include <string>
#include <string_view>
#include <vector>

#include "css/CssToken.hpp"

namespace svc::css {

class CssTokenizer {
public:
    // Every token of `css`; the parse errors a browser recovers from go to `problems`.
    static std::vector<Token> tokenize(std::string_view css, std::vector<Problem>& problems);

private:
    CssTokenizer(std::string_view css, std::vector<Problem>& problems);

    static constexpr char32_t kEof = 0xFFFFFFFF;

    char32_t peek(size_t ahead = 0) const { return pos_ + ahead < input_.size() ? input_[pos_ + ahead] : kEof; }
    char32_t next() { return pos_ < input_.size() ? input_[pos_++] : (++pos_, kEof); }
    SourcePosition positionOf(size_t index) const;
    void problem(size_t index, std::string reason);

    bool consumeComments();
    Token consumeToken();
    Token consumeNumeric(Token token);
    Token consumeIdentLike(Token token);
    Token consumeString(Token token, char32_t ending);
    Token consumeUrl(Token token);
    void consumeBadUrlRemnants();
    std::string consumeName();
    char32_t consumeEscape();
    std::string consumeNumber();

    std::u32string input_;
    std::vector<size_t> lineStarts_;
    std::vector<Problem>& problems_;
    size_t pos_ = 0;
};

}  // namespace svc::css
