#include "fleet/FleetQuery.hpp"

#include <set>

#include "text/Utf8.hpp"

namespace svc {
namespace {

constexpr FleetSort kSorts[] = {FleetSort::Attention, FleetSort::Name, FleetSort::Traffic, FleetSort::Commission};

Result<int64_t> wholeNumber(const std::string& name, const std::string& value, int64_t low, int64_t high) {
    Error refusal = Error::invalidArgument(name + ": '" + value.substr(0, 20) + "' is not a whole number from " + std::to_string(low) +
                                           " to " + std::to_string(high));
    if (value.empty() || value.size() > 9) return refusal;
    int64_t number = 0;
    for (char c : value) {
        if (c < '0' || c > '9') return refusal;
        number = number * 10 + (c - '0');
    }
    if (number < low || number > high) return refusal;
    return number;
}

}  // namespace

std::string_view FleetQuery::sortName(FleetSort sort) {
    switch (sort) {
        case FleetSort::Attention: return "attention";
        case FleetSort::Name: return "name";
        case FleetSort::Traffic: return "traffic";
        case FleetSort::Commission: return "commission";
    }
    return "attention";
}

Result<FleetQuery> FleetQuery::parse(const std::vector<std::pair<std::string, std::string>>& parameters) {
    FleetQuery query;
    std::set<std::string> seen;
    for (const auto& [name, value] : parameters) {
        if (!seen.insert(name).second) return Error::invalidArgument(name + ": given more than once");
        if (name == "q") {
            if (value.size() > kMaxSearchLength) {
                return Error::invalidArgument("q: at most " + std::to_string(kMaxSearchLength) + " bytes");
            }
            if (findInvalidUtf8(value) != std::string_view::npos) return Error::invalidArgument("q: not valid UTF-8");
            query.search = value;
        } else if (name == "page") {
            auto page = wholeNumber("page", value, 1, kMaxPage);
            if (!page) return page.error();
            query.page = *page;
        } else if (name == "limit") {
            auto limit = wholeNumber("limit", value, 1, kMaxLimit);
            if (!limit) return limit.error();
            query.limit = *limit;
        } else if (name == "sort") {
            bool known = false;
            for (FleetSort sort : kSorts) {
                if (value == sortName(sort)) {
                    query.sort = sort;
                    known = true;
                }
            }
            if (!known) return Error::invalidArgument("sort: '" + value.substr(0, 20) + "' is not one of attention, name, traffic, commission");
        } else {
            return Error::invalidArgument(name.substr(0, 40) + ": unknown parameter (known: q, sort, page, limit)");
        }
    }
    return query;
}

}  // namespace svc
