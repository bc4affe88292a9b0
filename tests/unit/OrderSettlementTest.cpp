// Which claim on an order earns (docs/adr/0056), pure and data-driven: one browser claim earns
// provisionally, disagreeing browser claims dispute the order, the shop's word decides; and
// adding a claim only ever moves the earner to that claim, to none, or leaves it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tracking/OrderSettlement.hpp"

using namespace svc;

namespace {

const std::vector<OrderLine> kReal{{"SHOE-42", 1, 8999}, {"SOCK", 2, 499}};
const std::vector<OrderLine> kFake{{"ANY", 1, 100000}};

OrderClaim browser(int64_t sequence, std::optional<std::string> cid, std::vector<OrderLine> lines) {
    OrderClaim claim;
    claim.sequence = sequence;
    claim.orderId = "100046";
    claim.cid = std::move(cid);
    claim.lines = std::move(lines);
    return claim;
}

OrderClaim confirmed(int64_t sequence, std::vector<OrderLine> lines, std::optional<std::string> cid = std::nullopt,
                     std::optional<int64_t> confirmsClaim = std::nullopt) {
    OrderClaim claim = browser(sequence, std::move(cid), std::move(lines));
    claim.source = ClaimSource::ShopConfirmed;
    claim.confirmsClaim = confirmsClaim;
    return claim;
}

OrderClaim rejected(int64_t sequence) {
    OrderClaim claim = browser(sequence, std::nullopt, {});
    claim.source = ClaimSource::ShopRejected;
    return claim;
}

std::vector<std::string> statusNames(const SettledOrder& settled) {
    std::vector<std::string> names;
    for (auto status : settled.statuses) names.emplace_back(claimStatusName(status));
    return names;
}

struct Case {
    const char* name;
    std::vector<OrderClaim> claims;
    const char* state;
    std::optional<size_t> earner;
    std::vector<std::string> statuses;
    std::optional<size_t> witness = std::nullopt;
};

}  // namespace

TEST_CASE("settleOrder: who earns, for every way claims on one order id can arrive") {
    const std::vector<Case> cases{
        {"one browser claim earns, provisionally", {browser(1, "c", kReal)}, "claimed", 0, {"claimed"}},
        {"the same again (lines in another order) agrees and earns nothing more",
         {browser(1, "c", kReal), browser(2, "c", {kReal[1], kReal[0]})}, "claimed", 0, {"claimed", "agrees"}},
        {"a pre-claim and the real order: disputed, nothing earns",
         {browser(1, "attacker", kFake), browser(2, "shopper", kReal)}, "disputed", std::nullopt, {"disputed", "disputed"}},
        {"the same lines from another visitor dispute too", {browser(1, "a", kReal), browser(2, "b", kReal)}, "disputed", std::nullopt,
         {"disputed", "disputed"}},
        {"the shop confirms the real lines: its confirmation earns, judged by the agreeing claim's visitor",
         {browser(1, "attacker", kFake), browser(2, "shopper", kReal), confirmed(3, kReal)}, "confirmed", 2,
         {"conflict", "agrees", "confirmed"}, 1},
        {"the shop confirms the claim that already earns: it goes on earning, counted once",
         {browser(1, "c", kReal), confirmed(2, kReal)}, "confirmed", 0, {"confirmed", "agrees"}},
        {"a confirmation naming another visitor takes over", {browser(1, "c", kReal), confirmed(2, kReal, "d")}, "confirmed", 1,
         {"conflict", "confirmed"}},
        {"confirming a claim by its id: only that claim agrees",
         {browser(1, "a", kReal), browser(2, "b", kReal), confirmed(3, kReal, "b", 2)}, "confirmed", 2, {"conflict", "agrees", "confirmed"},
         1},
        {"a browser claim after the confirmation that disagrees is a conflict",
         {confirmed(1, kReal, "c"), browser(2, "attacker", kFake)}, "confirmed", 0, {"confirmed", "conflict"}},
        {"the backend confirms first without a visitor: the agreeing browser claim brings it and earns",
         {confirmed(1, kReal), browser(2, "shopper", kReal)}, "confirmed", 1, {"agrees", "confirmed"}},
        {"...but a disagreeing one does not", {confirmed(1, kReal), browser(2, "attacker", kFake)}, "confirmed", 0,
         {"confirmed", "conflict"}},
        {"rejected: nothing earns, every browser claim rejected",
         {browser(1, "attacker", kFake), rejected(2), browser(3, "again", kFake)}, "rejected", std::nullopt,
         {"rejected", "rejected", "rejected"}},
        {"a later confirmation overrules the rejection", {browser(1, "c", kReal), rejected(2), confirmed(3, kReal)}, "confirmed", 2,
         {"agrees", "superseded", "confirmed"}, 0},
        {"a changed confirmation supersedes the earlier one", {confirmed(1, kReal, "c"), confirmed(2, kFake, "c")}, "confirmed", 1,
         {"superseded", "confirmed"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        SettledOrder settled = settleOrder(c.claims);
        CHECK(orderStateName(settled.state) == c.state);
        CHECK(settled.earner == c.earner);
        CHECK(statusNames(settled) == c.statuses);
        CHECK(settled.witness == c.witness);
        // The earner moves only to the newest claim or to none, so the ledger needs at most one
        // reversal per claim and never brings an old claim back.
        for (size_t n = 1; n <= c.claims.size(); ++n) {
            std::vector<OrderClaim> before(c.claims.begin(), c.claims.begin() + static_cast<long>(n - 1));
            std::vector<OrderClaim> after(c.claims.begin(), c.claims.begin() + static_cast<long>(n));
            auto was = settleOrder(before).earner;
            auto now = settleOrder(after).earner;
            CHECK((now == was || now == n - 1 || !now));
            if (now) CHECK(claimStatusEarns(settleOrder(after).statuses[*now]));
        }
    }
}

TEST_CASE("claimContent is the same for a repeat in any line order and differs for anything else") {
    CHECK(claimContent("c", kReal) == claimContent("c", {kReal[1], kReal[0]}));
    CHECK(claimContent("c", kReal) != claimContent("d", kReal));
    CHECK(claimContent(std::nullopt, kReal) != claimContent("c", kReal));
    CHECK(claimContent("c", kReal) != claimContent("c", {{"SHOE-42", 1, 8999}, {"SOCK", 2, 498}}));
    CHECK(claimContent("c", {{"A", 11, 1}}) != claimContent("c", {{"A", 1, 11}}));
    CHECK(sameLines(kReal, {kReal[1], kReal[0]}));
    CHECK_FALSE(sameLines(kReal, {kReal[0]}));
}
