#pragma once
// A document's fragments by name and the spreads between them, with an order in which every
// fragment comes after the fragments it spreads (a spread that closes a cycle left out), so
// that what is known of a fragment is computed once, from its spreads' figures, however often
// it is spread. Hostile documents spread fragments exponentially often (F0 spreads F1 twice,
// F1 spreads F2 twice, ...): everything that follows spreads goes through here (docs/adr/0053).
// Works on any parsed document, valid or not (unknown fragments and cycles included).
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "graphql/Ast.hpp"

namespace svc::graphql {

class FragmentGraph {
public:
    static constexpr size_t kNone = static_cast<size_t>(-1);

    explicit FragmentGraph(const Document& document);

    const Document& document() const { return document_; }
    // The index (in document.fragments) of the first fragment of that name, or kNone.
    size_t indexOf(const std::string& name) const;
    const FragmentDefinition* find(const std::string& name) const;
    // The known fragments a fragment spreads (through its fields and inline fragments), each once, in document order.
    const std::vector<size_t>& spreadsOf(size_t fragment) const { return spreads_[fragment]; }
    // Every fragment, each after the fragments it spreads (but a spread that closes a cycle).
    const std::vector<size_t>& order() const { return order_; }
    // Every fragment reachable from `selections` through spreads, each once, breadth first.
    std::vector<size_t> reachableFrom(const SelectionSet& selections) const;

    // Field nesting of `selections` with fragments expanded where they are spread (a fragment
    // adds no level of its own); a spread that closes a cycle counts nothing.
    int fieldDepth(const SelectionSet& selections) const;
    // Selection-set nesting with fragments expanded, each spread and inline fragment a level:
    // how deep a traversal that follows spreads recurses.
    int nesting(const SelectionSet& selections) const;

private:
    void collectSpreads(const SelectionSet& selections, std::vector<size_t>& out, std::vector<bool>& seen) const;
    int fieldDepth(const SelectionSet& selections, const std::vector<int>& known) const;
    int nesting(const SelectionSet& selections, const std::vector<int>& known) const;

    const Document& document_;
    std::map<std::string, size_t, std::less<>> byName_;
    std::vector<std::vector<size_t>> spreads_;
    std::vector<size_t> order_;
    std::vector<int> fragmentDepth_;    // fieldDepth of each fragment's selection set
    std::vector<int> fragmentNesting_;  // nesting of each fragment's selection set
};

}  // namespace svc::graphql
