#pragma once
// One version of an order as somebody claimed it (docs/adr/0056): a browser's purchase call
// (anyone with the public API ID), or the shop's own word from its backend (API secret):
// the order confirmed with its lines, or rejected. Every claim is kept, in arrival order;
// OrderSettlement decides which one earns.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tracking/TrackingEvent.hpp"

namespace svc {

enum class ClaimSource {
    Browser,        // POST /events with the API ID
    ShopConfirmed,  // PUT /orders/{orderid} with the secret: the order and its lines
    ShopRejected,   // PUT /orders/{orderid} with the secret: not an order of the shop
};
// "browser", "confirmed", "rejected".
std::string_view claimSourceName(ClaimSource source);
std::optional<ClaimSource> parseClaimSource(std::string_view text);

struct OrderClaim {
    int64_t tenantId = 0;
    int64_t sequence = 0;  // its place in the events file: the claim's id
    std::string orderId;
    ClaimSource source = ClaimSource::Browser;
    std::optional<std::string> cid;  // the visitor (_svc_cid) the claim names
    int64_t receivedAt = 0;
    std::vector<OrderLine> lines;          // empty for a rejection
    std::optional<int64_t> confirmsClaim;  // a confirmation that named a browser claim

    bool isShop() const { return source != ClaimSource::Browser; }
    bool operator==(const OrderClaim&) const = default;
};

// The same lines in any order: a shop page may list an order's lines in another order on a reload.
bool sameLines(const std::vector<OrderLine>& a, const std::vector<OrderLine>& b);

// A canonical text of what a claim says (its visitor and its lines, sorted): equal for two
// claims exactly when one repeats the other. The store keeps a digest of it to find repeats.
std::string claimContent(const std::optional<std::string>& cid, const std::vector<OrderLine>& lines);

// What the shop's backend says about one of its orders (PUT /orders/{orderid}).
struct OrderConfirmation {
    ClaimSource source = ClaimSource::ShopConfirmed;  // or ShopRejected
    std::vector<OrderLine> lines;     // confirmed by its lines
    std::optional<std::string> cid;   // the visitor, when the shop reads its _svc_cid cookie
    std::optional<int64_t> claim;     // confirmed by naming a browser claim: that claim's lines and visitor

    bool operator==(const OrderConfirmation&) const = default;
};

}  // namespace svc
