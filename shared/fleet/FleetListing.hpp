#pragma once
// One page of the fleet view (docs/adr/0066): the tenants matching the search, in the asked
// order, cut to the page. Every tenant's entry is at hand (a few aggregate queries made them),
// so ordering by attention needs no per-tenant query and paging is a slice.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fleet/FleetQuery.hpp"

namespace svc {

struct FleetEntry {
    std::string name, apiId, feedId;
    std::vector<std::string> domains;  // lower case
    bool disabled = false;
    int attention = 0;
    int64_t traffic = 0;     // widget events this month
    int64_t commission = 0;  // cents this month
};

struct FleetSlice {
    std::vector<size_t> entries;  // indices into the entries given, in page order
    size_t matching = 0;          // entries matching the search, on every page
    int64_t pages = 0;            // pages of `limit` entries (0 when none match)
};

class FleetListing {
public:
    static FleetSlice select(const std::vector<FleetEntry>& entries, const FleetQuery& query);
    // "shop.example.com" of "https://Shop.Example.com:8443/de/"; empty when there is none.
    static std::string hostOf(const std::string& url);
};

}  // namespace svc
