#include "tracking/OrderSettlement.hpp"

#include "core/NameTable.hpp"

namespace svc {
namespace {

constexpr NameTable<ClaimStatus, 7> kClaimStatuses{{{
    {"claimed", ClaimStatus::Claimed},
    {"confirmed", ClaimStatus::Confirmed},
    {"disputed", ClaimStatus::Disputed},
    {"conflict", ClaimStatus::Conflict},
    {"agrees", ClaimStatus::Agrees},
    {"superseded", ClaimStatus::Superseded},
    {"rejected", ClaimStatus::Rejected},
}}};

constexpr NameTable<OrderState, 4> kOrderStates{{{
    {"claimed", OrderState::Claimed},
    {"disputed", OrderState::Disputed},
    {"confirmed", OrderState::Confirmed},
    {"rejected", OrderState::Rejected},
}}};

bool sameBrowserClaim(const OrderClaim& a, const OrderClaim& b) { return a.cid == b.cid && sameLines(a.lines, b.lines); }

}  // namespace

std::string_view claimStatusName(ClaimStatus status) { return kClaimStatuses.name(status); }
std::optional<ClaimStatus> parseClaimStatus(std::string_view text) { return kClaimStatuses.parse(text); }
bool claimStatusEarns(ClaimStatus status) { return status == ClaimStatus::Claimed || status == ClaimStatus::Confirmed; }
std::string_view orderStateName(OrderState state) { return kOrderStates.name(state); }

bool confirmationAgrees(const OrderClaim& confirmation, const OrderClaim& browser) {
    if (confirmation.source != ClaimSource::ShopConfirmed || browser.isShop()) return false;
    if (confirmation.confirmsClaim && *confirmation.confirmsClaim != browser.sequence) return false;
    if (confirmation.cid && confirmation.cid != browser.cid) return false;
    return sameLines(confirmation.lines, browser.lines);
}

SettledOrder settleOrder(const std::vector<OrderClaim>& claims) {
    SettledOrder settled;
    settled.statuses.resize(claims.size(), ClaimStatus::Claimed);
    std::vector<size_t> browser;
    std::optional<size_t> shopWord;
    for (size_t i = 0; i < claims.size(); ++i) {
        const OrderClaim& claim = claims[i];
        ClaimStatus& status = settled.statuses[i];
        if (!claim.isShop()) {
            browser.push_back(i);
            if (shopWord && claims[*shopWord].source == ClaimSource::ShopRejected) {
                status = ClaimStatus::Rejected;
            } else if (shopWord) {
                const OrderClaim& word = claims[*shopWord];
                bool agrees = confirmationAgrees(word, claim);
                // The shop named neither a visitor nor a claim, and no browser claim had told one
                // yet (the backend confirmed before the thank-you page): the first agreeing claim
                // with a visitor brings it, and earns in the confirmation's place.
                bool bringsVisitor = agrees && settled.earner == shopWord && !word.cid && !settled.witness && claim.cid;
                if (bringsVisitor) {
                    settled.earner = i;
                    settled.statuses[*shopWord] = ClaimStatus::Agrees;
                    status = ClaimStatus::Confirmed;
                } else {
                    status = agrees ? ClaimStatus::Agrees : ClaimStatus::Conflict;
                }
            } else if (browser.size() == 1) {
                settled.state = OrderState::Claimed;
                settled.earner = i;
                status = ClaimStatus::Claimed;
            } else if (settled.state != OrderState::Disputed && sameBrowserClaim(claims[browser.front()], claim)) {
                status = ClaimStatus::Agrees;  // a repeat (the store normally drops those at the door)
            } else {
                settled.state = OrderState::Disputed;
                settled.earner.reset();
                for (size_t index : browser) settled.statuses[index] = ClaimStatus::Disputed;
            }
            continue;
        }
        if (shopWord) settled.statuses[*shopWord] = ClaimStatus::Superseded;
        shopWord = i;
        settled.witness.reset();
        if (claim.source == ClaimSource::ShopRejected) {
            settled.state = OrderState::Rejected;
            settled.earner.reset();
            status = ClaimStatus::Rejected;
            for (size_t index : browser) settled.statuses[index] = ClaimStatus::Rejected;
            continue;
        }
        settled.state = OrderState::Confirmed;
        bool earnerAgrees = settled.earner && !claims[*settled.earner].isShop() && confirmationAgrees(claim, claims[*settled.earner]);
        if (earnerAgrees) {
            // The shop confirms what already earns: it goes on earning, counted once.
            status = ClaimStatus::Agrees;
        } else {
            settled.earner = i;
            status = ClaimStatus::Confirmed;
        }
        for (size_t index : browser) {
            bool agrees = confirmationAgrees(claim, claims[index]);
            if (agrees && !settled.witness && !earnerAgrees) settled.witness = index;
            if (settled.earner == index) settled.statuses[index] = ClaimStatus::Confirmed;
            else settled.statuses[index] = agrees ? ClaimStatus::Agrees : ClaimStatus::Conflict;
        }
    }
    return settled;
}

}  // namespace svc
