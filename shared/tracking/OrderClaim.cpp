#include "tracking/OrderClaim.hpp"

#include <algorithm>
#include <tuple>

#include "core/NameTable.hpp"

namespace svc {
namespace {

constexpr NameTable<ClaimSource, 3> kClaimSources{{{
    {"browser", ClaimSource::Browser},
    {"confirmed", ClaimSource::ShopConfirmed},
    {"rejected", ClaimSource::ShopRejected},
}}};

std::vector<OrderLine> sorted(std::vector<OrderLine> lines) {
    std::sort(lines.begin(), lines.end(), [](const OrderLine& a, const OrderLine& b) {
        return std::tie(a.sku, a.amount, a.price) < std::tie(b.sku, b.amount, b.price);
    });
    return lines;
}

}  // namespace

std::string_view claimSourceName(ClaimSource source) { return kClaimSources.name(source); }
std::optional<ClaimSource> parseClaimSource(std::string_view text) { return kClaimSources.parse(text); }

bool sameLines(const std::vector<OrderLine>& a, const std::vector<OrderLine>& b) {
    if (a.size() != b.size()) return false;
    if (a == b) return true;
    return sorted(a) == sorted(b);
}

std::string claimContent(const std::optional<std::string>& cid, const std::vector<OrderLine>& lines) {
    // Ids and SKUs never hold control characters (EventParser), so these separators are unambiguous.
    std::string text = cid ? "cid\x1f" + *cid : "no-cid";
    for (const auto& line : sorted(lines)) {
        text += '\x1e' + line.sku + '\x1f' + std::to_string(line.amount) + '\x1f' + line.price.text();
    }
    return text;
}

}  // namespace svc
