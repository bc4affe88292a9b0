#pragma once
// Which claim of an order earns (docs/adr/0056). Anyone with the public API ID can claim an
// order id from a browser, so a browser claim earns only provisionally: while it is the only
// version of the order. Two browser versions that disagree make the order disputed, and
// nothing earns until the shop says which is true. The shop's word (confirmed with its lines,
// or rejected), sent from its backend with the API secret, always decides: a confirmed order's
// lines earn, every browser claim that disagrees with them is a conflict and earns nothing.
// Pure: a fold over the order's claims in arrival order, so the attributor (booking one claim
// after another) and the order's view (all claims at once) agree by construction.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "tracking/OrderClaim.hpp"

namespace svc {

enum class ClaimStatus {
    Claimed,     // the order's only browser version, no word from the shop: earns, provisionally
    Confirmed,   // the version the shop confirmed: earns
    Disputed,    // browser versions disagree and the shop has not settled it: earns nothing
    Conflict,    // disagrees with the shop's confirmation: earns nothing
    Agrees,      // says what the earning version says (a repeat, or the shop's word on it): counted once, there
    Superseded,  // an earlier word of the shop, replaced by a later one
    Rejected,    // the shop rejected the order: nothing of it earns
};
// "claimed", "confirmed", "disputed", "conflict", "agrees", "superseded", "rejected".
std::string_view claimStatusName(ClaimStatus status);
std::optional<ClaimStatus> parseClaimStatus(std::string_view text);
// Whether a sale booked with this status counts as the order (its revenue, the order count).
bool claimStatusEarns(ClaimStatus status);

enum class OrderState { Claimed, Disputed, Confirmed, Rejected };
std::string_view orderStateName(OrderState state);

struct SettledOrder {
    OrderState state = OrderState::Claimed;
    std::vector<ClaimStatus> statuses;  // one per claim, in the claims' order
    // The claim whose lines earn; none while disputed or rejected.
    std::optional<size_t> earner;
    // When the earner is the shop's confirmation: the browser claim whose visitor and time its
    // attribution is judged from (the claim it names, else the first that agrees with it).
    std::optional<size_t> witness;
};

// `claims` in arrival order (their sequence). Adding a claim only ever changes the earner to
// that claim, to none, or not at all, so a ledger follows it with at most one reversal per claim.
SettledOrder settleOrder(const std::vector<OrderClaim>& claims);

// Whether a browser claim says what the shop's confirmation says: the same lines, and the
// same visitor and claim where the shop named them.
bool confirmationAgrees(const OrderClaim& confirmation, const OrderClaim& browser);

}  // namespace svc
