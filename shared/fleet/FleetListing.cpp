#include "fleet/FleetListing.hpp"

#include <algorithm>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

bool matches(const FleetEntry& entry, const std::string& needle) {
    if (needle.empty()) return true;
    if (toLower(entry.name).find(needle) != std::string::npos) return true;
    if (toLower(entry.apiId).find(needle) != std::string::npos || toLower(entry.feedId).find(needle) != std::string::npos) return true;
    return std::any_of(entry.domains.begin(), entry.domains.end(), [&](const std::string& domain) { return domain.find(needle) != std::string::npos; });
}

// A total order (the API ID is unique), so that pages never overlap or skip an entry.
bool before(const FleetEntry& a, const FleetEntry& b, FleetSort sort) {
    auto byName = [&]() {
        std::string left = toLower(a.name), right = toLower(b.name);
        if (left != right) return left < right;
        return a.apiId < b.apiId;
    };
    switch (sort) {
        case FleetSort::Attention:
            if (a.attention != b.attention) return a.attention > b.attention;
            if (a.disabled != b.disabled) return !a.disabled;
            return byName();
        case FleetSort::Traffic:
            if (a.traffic != b.traffic) return a.traffic > b.traffic;
            return byName();
        case FleetSort::Commission:
            if (a.commission != b.commission) return a.commission > b.commission;
            return byName();
        case FleetSort::Name: return byName();
    }
    return byName();
}

}  // namespace

FleetSlice FleetListing::select(const std::vector<FleetEntry>& entries, const FleetQuery& query) {
    std::string needle = toLower(trim(query.search));
    std::vector<size_t> matching;
    matching.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        if (matches(entries[i], needle)) matching.push_back(i);
    }
    FleetSlice slice;
    slice.matching = matching.size();
    slice.pages = static_cast<int64_t>((matching.size() + static_cast<size_t>(query.limit) - 1) / static_cast<size_t>(query.limit));
    size_t first = static_cast<size_t>(query.page - 1) * static_cast<size_t>(query.limit);
    if (first >= matching.size()) return slice;
    size_t last = std::min(matching.size(), first + static_cast<size_t>(query.limit));
    // Only the entries up to the page's end need their order.
    auto order = [&](size_t a, size_t b) { return before(entries[a], entries[b], query.sort); };
    std::partial_sort(matching.begin(), matching.begin() + static_cast<std::ptrdiff_t>(last), matching.end(), order);
    slice.entries.assign(matching.begin() + static_cast<std::ptrdiff_t>(first), matching.begin() + static_cast<std::ptrdiff_t>(last));
    return slice;
}

std::string FleetListing::hostOf(const std::string& url) {
    size_t scheme = url.find("://");
    size_t start = scheme == std::string::npos ? 0 : scheme + 3;
    size_t at = url.find('@', start);
    size_t end = url.find_first_of("/?#", start);
    if (at != std::string::npos && (end == std::string::npos || at < end)) start = at + 1;
    std::string host = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!host.empty() && host.front() == '[') {
        size_t close = host.find(']');
        return toLower(close == std::string::npos ? host : host.substr(0, close + 1));
    }
    return toLower(host.substr(0, host.find(':')));
}

}  // namespace svc
