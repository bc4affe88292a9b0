#pragma once
// What an operation may cost, computed before it runs (docs/adr/0053): every field costs 1,
// times the sizes of the lists it sits in. A connection's list (its `edges`) holds a page:
// `first` as given (a literal, or the request's variable), else its default, at most the
// field's maxItems; any other list its documented maximum (FieldDefinition::maxItems, or
// kUndocumentedListSize). Fragments count where they are spread; @skip and @include are not
// looked at, so the cost is an upper bound of the fields the response can hold.
//
// Linear in the document: a fragment's cost is computed once per page size it is spread
// under. Call it on documents whose nesting (FragmentGraph::nesting) is bounded: it recurses
// as deep as that.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "graphql/Ast.hpp"
#include "graphql/FragmentGraph.hpp"
#include "graphql/Schema.hpp"

namespace svc::graphql {

class QueryCost {
public:
    // A list without a documented size is counted as this long.
    static constexpr uint64_t kUndocumentedListSize = 100;
    // Costs saturate here rather than overflow.
    static constexpr uint64_t kSaturated = uint64_t{1} << 60;

    struct Figure {
        uint64_t cost = 0;
        bool readVariables = false;  // false: the same for every request of this document
    };

    QueryCost(const Schema& schema, const FragmentGraph& fragments) : schema_(schema), fragments_(fragments) {}

    // `variables`: the request's, as sent (only integer page sizes are read from them).
    Figure of(const OperationDefinition& operation, const nlohmann::json& variables) const;

private:
    const Schema& schema_;
    const FragmentGraph& fragments_;
};

}  // namespace svc::graphql
