#pragma once
// GraphQL lexer (GraphQL spec, section 2.1): punctuators, names, numbers, strings
// and block strings with escapes, tracking line and column for error locations.
#include <string>
#include <string_view>

#include "core/Result.hpp"
#include "graphql/Ast.hpp"

namespace svc::graphql {

struct Token {
    enum class Kind { EndOfFile, Punctuator, Name, Int, Float, String, BlockString };
    Kind kind = Kind::EndOfFile;
    std::string text;  // punctuator text, name, number text, or the decoded string value
    SourceLocation location;
};

class Lexer {
public:
    explicit Lexer(std::string_view source) : source_(source) {}
    // Next token, or an InvalidArgument error whose message starts with "line:column".
    Result<Token> next();
    SourceLocation location() const { return {line_, column()}; }

private:
    void skipIgnored();
    Result<Token> readNumber(SourceLocation start);
    Result<Token> readString(SourceLocation start);
    Result<Token> readBlockString(SourceLocation start);
    Error syntaxError(SourceLocation at, const std::string& message) const;
    size_t column() const { return position_ - lineStart_ + 1; }
    char peek(size_t ahead = 0) const {
        return position_ + ahead < source_.size() ? source_[position_ + ahead] : '\0';
    }

    std::string_view source_;
    size_t position_ = 0;
    size_t line_ = 1;
    size_t lineStart_ = 0;
};

}  // namespace svc::graphql
