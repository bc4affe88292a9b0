#pragma once
// Recursive-descent parser for executable GraphQL documents (GraphQL spec, section 2).
// Nesting is bounded so that hostile input cannot exhaust the stack.
#include <string_view>

#include "core/Result.hpp"
#include "graphql/Ast.hpp"
#include "graphql/Lexer.hpp"

namespace svc::graphql {

// How many parts a document may have. Counted while parsing, so that a hostile document is
// refused after at most this much work, whatever its byte size (docs/adr/0053).
struct DocumentLimits {
    size_t maxTokens = 20000;
    size_t maxDefinitions = 200;   // operations and fragments
    size_t maxSelections = 5000;   // fields, fragment spreads and inline fragments
    size_t maxAliases = 1000;
};

struct SyntaxError {
    std::string message;
    SourceLocation location;
    // Set when a DocumentLimits member refused the document: its name ("maxTokens", ...) and value.
    std::string limit;
    size_t maximum = 0;
};

class Parser {
public:
    static constexpr int kMaxNesting = 128;

    explicit Parser(std::string_view source, DocumentLimits limits = {}) : lexer_(source), limits_(limits) {}
    // The document, or the first syntax error with its location.
    Result<Document> parseDocument();
    const SyntaxError& lastError() const { return error_; }
    size_t tokens() const { return tokens_; }

private:
    bool advance();
    bool peekPunctuator(std::string_view text) const;
    bool peekName(std::string_view text) const;
    bool expectPunctuator(std::string_view text);
    bool expectName(std::string& out);
    bool fail(const std::string& message);
    bool fail(const std::string& message, SourceLocation at);
    // Counts one more of a limited part; false (with the error) past its maximum.
    bool count(size_t& counter, size_t maximum, const char* limit, const char* what);

    bool parseOperation(Document& document);
    bool parseFragment(Document& document);
    bool parseVariableDefinitions(std::vector<VariableDefinition>& out);
    bool parseType(TypeReference& out);
    bool parseDirectives(std::vector<Directive>& out, bool constant);
    bool parseArguments(std::vector<Argument>& out, bool constant);
    bool parseValue(ValuePtr& out, bool constant);
    bool parseSelectionSet(SelectionSet& out);
    bool parseSelection(Selection& out);

    Lexer lexer_;
    Token current_;
    SyntaxError error_;
    int nesting_ = 0;
    DocumentLimits limits_;
    size_t tokens_ = 0, definitions_ = 0, selections_ = 0, aliases_ = 0;
};

}  // namespace svc::graphql
