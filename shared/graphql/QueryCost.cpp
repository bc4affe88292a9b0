#include "graphql/QueryCost.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

uint64_t saturatedAdd(uint64_t a, uint64_t b) { return std::min(QueryCost::kSaturated, a + b); }  // both at most kSaturated

uint64_t saturatedMultiply(uint64_t a, uint64_t b) {
    if (a == 0 || b == 0) return 0;
    if (a > QueryCost::kSaturated / b) return QueryCost::kSaturated;
    return std::min(QueryCost::kSaturated, a * b);
}

const TypeReference& withoutNonNull(const TypeReference& type) {
    return type.kind == TypeReference::Kind::NonNull ? *type.ofType : type;
}

class CostRun {
public:
    CostRun(const Schema& schema, const FragmentGraph& fragments, const OperationDefinition& operation, const nlohmann::json& variables)
        : schema_(schema), fragments_(fragments), operation_(operation), variables_(variables) {}

    bool readVariables = false;

    // The cost of `selections` on `parent` (null when unknown) once; `page` is the page size
    // of the connection whose selection set this is (its list, `edges`, holds that many).
    uint64_t cost(const SelectionSet& selections, const TypeDefinition* parent, std::optional<uint64_t> page) {
        uint64_t total = 0;
        for (const auto& selection : selections) {
            switch (selection.kind) {
                case Selection::Kind::Field: total = saturatedAdd(total, fieldCost(selection.field, parent, page)); break;
                case Selection::Kind::InlineFragment: {
                    const auto& fragment = selection.inlineFragment;
                    const TypeDefinition* type = fragment.typeCondition.empty() ? parent : schema_.type(fragment.typeCondition);
                    total = saturatedAdd(total, cost(fragment.selectionSet, type, page));
                    break;
                }
                case Selection::Kind::FragmentSpread: {
                    size_t index = fragments_.indexOf(selection.spread.name);
                    if (index != FragmentGraph::kNone) total = saturatedAdd(total, fragmentCost(index, page));
                    break;
                }
            }
        }
        return total;
    }

private:
    uint64_t fragmentCost(size_t index, std::optional<uint64_t> page) {
        auto key = std::make_pair(index, page.value_or(kNoPage));
        auto [found, added] = memo_.try_emplace(key, 0);
        // A spread that closes a cycle (validation refuses those) counts nothing: it finds its
        // entry still 0.
        if (!added) return found->second;
        const FragmentDefinition& fragment = fragments_.document().fragments[index];
        uint64_t value = cost(fragment.selectionSet, schema_.type(fragment.typeCondition), page);
        memo_[key] = value;
        return value;
    }

    uint64_t fieldCost(const Field& field, const TypeDefinition* parent, std::optional<uint64_t> page) {
        if (field.selectionSet.empty()) return 1;
        const FieldDefinition* definition = parent ? schema_.fieldOf(*parent, field.name) : nullptr;
        if (!definition) return 1;  // validation refuses it; nothing below it runs
        const TypeDefinition* type = schema_.type(namedType(definition->type));
        uint64_t items = 1;
        if (withoutNonNull(definition->type).kind == TypeReference::Kind::List) {
            items = page ? *page : definition->maxItems.value_or(QueryCost::kUndocumentedListSize);
        }
        std::optional<uint64_t> innerPage;
        if (const ArgumentDefinition* first = definition->argument("first")) innerPage = pageSize(field, *definition, *first);
        return saturatedAdd(1, saturatedMultiply(items, cost(field.selectionSet, type, innerPage)));
    }

    // A connection's page: `first` as the request gives it, else the argument's default; never
    // more than the field's largest page (larger ones are refused when the field runs).
    uint64_t pageSize(const Field& field, const FieldDefinition& definition, const ArgumentDefinition& first) {
        std::optional<int64_t> given;
        for (const auto& argument : field.arguments) {
            if (argument.name == "first" && argument.value) given = integerOf(*argument.value);
        }
        if (!given && first.defaultValue && first.defaultValue->is_number_integer()) given = first.defaultValue->get<int64_t>();
        uint64_t size = given ? static_cast<uint64_t>(std::max<int64_t>(0, *given)) : QueryCost::kUndocumentedListSize;
        return definition.maxItems ? std::min(size, *definition.maxItems) : size;
    }

    // An Int literal or a variable's integer (the request's, else the variable's default);
    // nullopt for null or anything else (the field's default applies).
    std::optional<int64_t> integerOf(const Value& value) {
        if (value.kind == Value::Kind::Int) return parseInt64(value.text);
        if (value.kind != Value::Kind::Variable) return std::nullopt;
        readVariables = true;
        if (variables_.is_object()) {
            auto provided = variables_.find(value.text);
            if (provided != variables_.end()) {
                if (provided->is_number_integer()) return provided->get<int64_t>();
                return std::nullopt;
            }
        }
        for (const auto& definition : operation_.variables) {
            if (definition.name == value.text && definition.defaultValue) return integerOf(*definition.defaultValue);
        }
        return std::nullopt;
    }

    static constexpr uint64_t kNoPage = static_cast<uint64_t>(-1);

    const Schema& schema_;
    const FragmentGraph& fragments_;
    const OperationDefinition& operation_;
    const nlohmann::json& variables_;
    std::map<std::pair<size_t, uint64_t>, uint64_t> memo_;
};

}  // namespace

QueryCost::Figure QueryCost::of(const OperationDefinition& operation, const nlohmann::json& variables) const {
    CostRun run(schema_, fragments_, operation, variables);
    const TypeDefinition* root = operation.operation == "query" ? schema_.type(schema_.queryTypeName()) : nullptr;
    uint64_t cost = run.cost(operation.selectionSet, root, std::nullopt);
    return {cost, run.readVariables};
}

}  // namespace svc::graphql
