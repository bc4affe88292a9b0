#pragma once
// The digest of what a claim on an order says (docs/adr/0056), the same on every backend: a
// unique index finds an exact repeat by it, so a retried purchase is stored once.
#include <optional>
#include <string>
#include <vector>

#include "tracking/OrderClaim.hpp"

namespace svc {

class ClaimKeys {
public:
    // A browser's purchase: its visitor and its lines in any order.
    static std::string browser(const std::optional<std::string>& cid, const std::vector<OrderLine>& lines);
    // The shop's word: confirmed or rejected, the browser claim it names, its visitor and lines.
    static std::string shopWord(const OrderConfirmation& word);
};

}  // namespace svc
