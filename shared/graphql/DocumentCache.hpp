#pragma once
// Parsed-and-validated documents by their text, so that a repeated query (the normal case:
// clients send the same few documents with different variables) skips the lexer, the
// parser and the validator. Bounded, least recently used out first; thread-safe.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphql/Ast.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/GraphqlError.hpp"

namespace svc::graphql {

struct PreparedDocument {
    std::shared_ptr<const Document> document;  // null when it did not parse
    std::vector<GraphqlError> errors;          // syntax or validation errors; empty when valid
    bool syntaxError = false;
    std::shared_ptr<const FragmentGraph> fragments;  // of `document`, when it is valid
    // Per operation: its cost when no variable changes it (QueryCost), computed once.
    std::vector<std::optional<uint64_t>> fixedCosts;
    // About the memory it holds: its text and its syntax tree (DocumentCache counts these).
    size_t bytes = 0;
};

// Bounded by entries and by the bytes they hold: a hostile client's distinct large
// documents must not fill the memory (docs/adr/0053).
class DocumentCache {
public:
    explicit DocumentCache(size_t capacity, size_t maxBytes = size_t{64} << 20) : capacity_(capacity), maxBytes_(maxBytes) {}

    std::shared_ptr<const PreparedDocument> find(const std::string& text);
    void insert(const std::string& text, std::shared_ptr<const PreparedDocument> prepared);
    size_t size() const;
    size_t bytes() const;

private:
    using Order = std::list<std::string>;  // most recently used first
    struct Entry {
        std::shared_ptr<const PreparedDocument> prepared;
        Order::iterator position;
    };
    void erase(std::unordered_map<std::string, Entry>::iterator entry);

    size_t capacity_;
    size_t maxBytes_;
    size_t bytes_ = 0;
    mutable std::mutex mutex_;
    Order order_;
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace svc::graphql
