#include "graphql/FragmentGraph.hpp"

#include <algorithm>

namespace svc::graphql {

FragmentGraph::FragmentGraph(const Document& document) : document_(document) {
    const auto& fragments = document.fragments;
    for (size_t i = 0; i < fragments.size(); ++i) byName_.emplace(fragments[i].name, i);
    spreads_.resize(fragments.size());
    std::vector<bool> seen(fragments.size());
    for (size_t i = 0; i < fragments.size(); ++i) {
        std::fill(seen.begin(), seen.end(), false);
        collectSpreads(fragments[i].selectionSet, spreads_[i], seen);
    }
    // Depth-first post-order with an explicit stack: a chain of fragments is as long as the
    // document allows, the call stack is not.
    enum class State : unsigned char { New, Open, Done };
    std::vector<State> state(fragments.size(), State::New);
    std::vector<std::pair<size_t, size_t>> stack;  // fragment, next spread to follow
    for (size_t start = 0; start < fragments.size(); ++start) {
        if (state[start] != State::New) continue;
        stack.push_back({start, 0});
        state[start] = State::Open;
        while (!stack.empty()) {
            auto& [fragment, next] = stack.back();
            if (next < spreads_[fragment].size()) {
                size_t target = spreads_[fragment][next++];
                if (state[target] == State::New) {
                    state[target] = State::Open;
                    stack.push_back({target, 0});
                }
                continue;
            }
            state[fragment] = State::Done;
            order_.push_back(fragment);
            stack.pop_back();
        }
    }
    // In that order every spread's figures are known when they are needed (but a spread that
    // closes a cycle, which counts nothing: validation refuses such documents anyway).
    fragmentDepth_.assign(fragments.size(), -1);
    fragmentNesting_.assign(fragments.size(), -1);
    for (size_t fragment : order_) {
        fragmentDepth_[fragment] = fieldDepth(fragments[fragment].selectionSet, fragmentDepth_);
        fragmentNesting_[fragment] = nesting(fragments[fragment].selectionSet, fragmentNesting_);
    }
}

size_t FragmentGraph::indexOf(const std::string& name) const {
    auto found = byName_.find(name);
    return found == byName_.end() ? kNone : found->second;
}

const FragmentDefinition* FragmentGraph::find(const std::string& name) const {
    size_t index = indexOf(name);
    return index == kNone ? nullptr : &document_.fragments[index];
}

void FragmentGraph::collectSpreads(const SelectionSet& selections, std::vector<size_t>& out, std::vector<bool>& seen) const {
    for (const auto& selection : selections) {
        switch (selection.kind) {
            case Selection::Kind::Field: collectSpreads(selection.field.selectionSet, out, seen); break;
            case Selection::Kind::InlineFragment: collectSpreads(selection.inlineFragment.selectionSet, out, seen); break;
            case Selection::Kind::FragmentSpread: {
                size_t target = indexOf(selection.spread.name);
                if (target != kNone && !seen[target]) {
                    seen[target] = true;
                    out.push_back(target);
                }
                break;
            }
        }
    }
}

std::vector<size_t> FragmentGraph::reachableFrom(const SelectionSet& selections) const {
    std::vector<bool> seen(document_.fragments.size());
    std::vector<size_t> reached;
    collectSpreads(selections, reached, seen);
    for (size_t next = 0; next < reached.size(); ++next) {
        for (size_t target : spreads_[reached[next]]) {
            if (!seen[target]) {
                seen[target] = true;
                reached.push_back(target);
            }
        }
    }
    return reached;
}

int FragmentGraph::fieldDepth(const SelectionSet& selections, const std::vector<int>& known) const {
    int deepest = 0;
    for (const auto& selection : selections) {
        switch (selection.kind) {
            case Selection::Kind::Field: deepest = std::max(deepest, 1 + fieldDepth(selection.field.selectionSet, known)); break;
            case Selection::Kind::InlineFragment: deepest = std::max(deepest, fieldDepth(selection.inlineFragment.selectionSet, known)); break;
            case Selection::Kind::FragmentSpread: {
                size_t target = indexOf(selection.spread.name);
                if (target != kNone) deepest = std::max(deepest, known[target]);
                break;
            }
        }
    }
    return deepest;
}

int FragmentGraph::nesting(const SelectionSet& selections, const std::vector<int>& known) const {
    int deepest = 0;
    for (const auto& selection : selections) {
        switch (selection.kind) {
            case Selection::Kind::Field:
                if (!selection.field.selectionSet.empty()) deepest = std::max(deepest, nesting(selection.field.selectionSet, known));
                break;
            case Selection::Kind::InlineFragment: deepest = std::max(deepest, nesting(selection.inlineFragment.selectionSet, known)); break;
            case Selection::Kind::FragmentSpread: {
                size_t target = indexOf(selection.spread.name);
                if (target != kNone) deepest = std::max(deepest, known[target]);
                break;
            }
        }
    }
    return 1 + deepest;
}

int FragmentGraph::fieldDepth(const SelectionSet& selections) const { return fieldDepth(selections, fragmentDepth_); }

int FragmentGraph::nesting(const SelectionSet& selections) const { return nesting(selections, fragmentNesting_); }

}  // namespace svc::graphql
