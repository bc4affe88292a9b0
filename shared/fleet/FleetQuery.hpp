#pragma once
// The fleet view's query string (GET /operator/api/tenants?q=&sort=&page=&limit=; docs/adr/0066):
// each parameter checked, a refusal names the parameter, unknown parameters are refused (a typo
// such as `pgae=2` would otherwise show page 1 without a word).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Result.hpp"

namespace svc {

enum class FleetSort { Attention, Name, Traffic, Commission };

struct FleetQuery {
    static constexpr int64_t kDefaultLimit = 50;
    static constexpr int64_t kMaxLimit = 200;  // a page's cost stays bounded whatever the caller asks
    static constexpr int64_t kMaxPage = 1000000;
    static constexpr size_t kMaxSearchLength = 200;

    std::string search;  // q: matched against name, API ID, feed ID and shop domains, case-insensitively
    FleetSort sort = FleetSort::Attention;
    int64_t page = 1;  // 1-based
    int64_t limit = kDefaultLimit;

    static Result<FleetQuery> parse(const std::vector<std::pair<std::string, std::string>>& parameters);
    static std::string_view sortName(FleetSort sort);
};

}  // namespace svc
