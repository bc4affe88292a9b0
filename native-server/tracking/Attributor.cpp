#include "tracking/Attributor.hpp"

#include <chrono>
#include <limits>
#include <map>

#include "tracking/AttributionRule.hpp"
#include "tracking/Commission.hpp"

namespace svc {
namespace {

constexpr size_t kClaimsPerPass = 500;
constexpr int64_t kSecondsPerDay = 86400;

// Whose interactions earn an order line, and before when: the visitor the claim names (a
// confirmation without one takes the visitor of the browser claim it agrees with, the witness)
// and the moment the order was first seen (so a confirmation days later judges the window
// from the order, not from the shop's call).
struct Visit {
    std::string cid;
    int64_t sequence = 0;
    int64_t receivedAt = 0;
};

std::optional<Visit> visitOf(const std::vector<OrderClaim>& claims, const SettledOrder& settled, size_t index) {
    const OrderClaim& claim = claims[index];
    if (!claim.isShop()) {
        if (!claim.cid) return std::nullopt;
        return Visit{*claim.cid, claim.sequence, claim.receivedAt};
    }
    if (settled.witness) {
        const OrderClaim& witness = claims[*settled.witness];
        auto cid = claim.cid ? claim.cid : witness.cid;
        if (!cid) return std::nullopt;
        return Visit{*cid, witness.sequence, witness.receivedAt};
    }
    if (!claim.cid) return std::nullopt;
    return Visit{*claim.cid, claim.sequence, claim.receivedAt};
}

// Sums of a claim's line over its sale, returns and reversals: what it still earns.
struct LineNet {
    const LedgerEntry* sale = nullptr;
    int64_t amount = 0;
    Cents revenue, commission;
    bool overflow = false;
};

}  // namespace

// One pass over a tenant's claims: what it books, in one transaction at the end.
struct Attributor::Booking {
    int64_t tenantId = 0;
    CommissionRates rates;
    int64_t windowSeconds = 0;
    std::vector<LedgerEntry> entries;
    std::vector<QuarantinedLine> quarantined;
    // Entries of this pass by claim: a later claim of the same order may reverse one.
    std::map<int64_t, std::vector<LedgerEntry>> byClaim;

    void add(const LedgerEntry& entry) {
        entries.push_back(entry);
        byClaim[entry.orderEvent].push_back(entry);
    }
    void setAside(const OrderClaim& claim, size_t line, std::string reason) {
        const OrderLine& orderLine = claim.lines[line];
        quarantined.push_back({tenantId, claim.sequence, claim.orderId, static_cast<int64_t>(line), orderLine.sku, orderLine.amount,
                               orderLine.price, std::move(reason), claim.receivedAt});
    }
};

Attributor::~Attributor() { stop(); }

void Attributor::start(int intervalMs, std::function<bool()> mayBook) {
    thread_ = std::thread([this, intervalMs, mayBook = std::move(mayBook)] {
        std::unique_lock lock(stateMutex_);
        while (!stopping_) {
            lock.unlock();
            if (!mayBook || mayBook()) (void)catchUp();  // a failed tenant is retried by the next pass; nothing is half booked
            lock.lock();
            wake_.wait_for(lock, std::chrono::milliseconds(intervalMs), [this] { return stopping_; });
        }
    });
}

void Attributor::stop() {
    {
        std::lock_guard lock(stateMutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

Status Attributor::catchUp() {
    std::lock_guard pass(passMutex_);
    catalog_.clear();
    auto tenants = ledger_.tenantsWithPendingClaims();
    if (!tenants) return tenants.error();
    Status first;
    for (int64_t tenantId : *tenants) {
        if (auto status = bookTenant(tenantId); !status && first.ok()) first = status;
    }
    return first;
}

Status Attributor::catchUp(int64_t tenantId) {
    std::lock_guard pass(passMutex_);
    catalog_.clear();
    return bookTenant(tenantId);
}

Status Attributor::bookTenant(int64_t tenantId) {
    while (true) {
        auto claims = ledger_.claimsToBook(tenantId, kClaimsPerPass);
        if (!claims) return claims.error();
        if (claims->empty()) return {};
        if (auto status = bookClaims(tenantId, *claims); !status) return status;
        if (claims->size() < kClaimsPerPass) return {};
    }
}

Status Attributor::bookClaims(int64_t tenantId, const std::vector<OrderClaim>& claims) {
    auto found = tenants_.findById(tenantId);
    if (!found) return found.error();
    Tenant contract;
    contract.id = tenantId;
    if (*found) contract = **found;
    auto rates = CommissionRates::fromText(contract.commissionRates);
    if (!rates) return Error::internal("tenant " + std::to_string(tenantId) + ": " + rates.error().message);
    Booking booking;
    booking.tenantId = tenantId;
    booking.rates = *rates;
    booking.windowSeconds = contract.attributionWindowDays * kSecondsPerDay;
    for (const auto& claim : claims) {
        // Every claim on the order up to this one: where it stood before, where it stands now.
        auto order = ledger_.orderClaims(tenantId, claim.orderId, claim.sequence);
        if (!order) return order.error();
        if (order->empty() || order->back().sequence != claim.sequence) {
            return Error::internal("order " + claim.orderId + ": claim " + std::to_string(claim.sequence) + " not found among its claims");
        }
        SettledOrder now = settleOrder(*order);
        order->pop_back();
        SettledOrder before = settleOrder(*order);
        order->push_back(claim);
        if (auto status = bookSales(booking, *order, now); !status) return status;
        // A claim that earned and no longer does gives back what it still earned.
        if (before.earner && before.earner != now.earner) {
            size_t was = *before.earner;
            if (auto status = bookReversal(booking, (*order)[was], now.statuses[was], claim.receivedAt); !status) return status;
        }
    }
    return ledger_.book(tenantId, booking.entries, booking.quarantined, claims.back().sequence);
}

Status Attributor::bookSales(Booking& booking, const std::vector<OrderClaim>& claims, const SettledOrder& settled) {
    size_t self = claims.size() - 1;
    const OrderClaim& claim = claims[self];
    int64_t tenantId = booking.tenantId;
    std::optional<Visit> visit;
    if (settled.earner == self) visit = visitOf(claims, settled, self);
    std::vector<Interaction> interactions;
    if (visit) {
        auto found = ledger_.interactions(tenantId, visit->cid, visit->sequence, visit->receivedAt - booking.windowSeconds);
        if (!found) return found.error();
        interactions = std::move(*found);
        for (auto& interaction : interactions) interaction.mainSku = catalog_.mainSkuOf(tenantId, interaction.sku);
    }
    AttributionRule rule(booking.windowSeconds, [&](const std::string& setId, const std::string& mainSku) {
        return catalog_.setContains(tenantId, setId, mainSku);
    });
    for (size_t i = 0; i < claim.lines.size(); ++i) {
        const OrderLine& line = claim.lines[i];
        // Validation keeps every line within the limit since events migration 3; what was stored
        // before it, or came another way, is set aside here instead of blocking every later booking.
        auto gross = line.price.times(line.amount);
        if (!gross || *gross > kMaxOrderTotal) {
            booking.setAside(claim, i,
                             "price x amount (" + line.price.text() + " x " + std::to_string(line.amount) + " = " +
                                 (gross ? gross->text() : "more than " + Cents::max().text()) +
                                 " cents) exceeds the largest order line svc books (" + kMaxOrderTotal.text() + " cents)");
            continue;
        }
        LedgerEntry entry;
        entry.kind = LedgerKind::Sale;
        entry.tenantId = tenantId;
        entry.orderEvent = claim.sequence;
        entry.orderId = claim.orderId;
        entry.line = static_cast<int64_t>(i);
        entry.sku = line.sku;
        entry.mainSku = catalog_.mainSkuOf(tenantId, line.sku);
        entry.amount = line.amount;
        entry.price = line.price;
        entry.orderedAt = claim.receivedAt;
        entry.bookedAt = claim.receivedAt;
        entry.claimSource = claim.source;
        entry.claimStatus = settled.statuses[self];
        auto attribution =
            visit ? rule.attribute(line.sku, entry.mainSku, visit->sequence, visit->receivedAt, interactions) : std::nullopt;
        if (attribution) {
            const Interaction& why = *attribution->interaction;
            entry.rateBasisPoints = booking.rates.basisPointsFor(why.widget);
            auto commission = lineCommission(line.price, line.amount, entry.rateBasisPoints);
            if (!commission) {
                booking.setAside(claim, i, commission.error().message);
                continue;
            }
            entry.attributed = true;
            entry.reason = attribution->reason;
            entry.interaction = why.sequence;
            entry.interactionType = widgetEventTypeName(why.type);
            entry.widget = widgetTypeName(why.widget);
            entry.touchpoint = touchpointName(why.touchpoint);
            entry.setId = why.setId;
            entry.testGroup = why.testGroup;
            entry.variant = why.variant;
            entry.interactionAt = why.receivedAt;
            entry.commission = *commission;
            entry.revenue = *gross;
        }
        booking.add(entry);
    }
    return {};
}

Status Attributor::bookReversal(Booking& booking, const OrderClaim& claim, ClaimStatus why, int64_t at) {
    auto stored = ledger_.orderEntries(booking.tenantId, claim.orderId);
    if (!stored) return stored.error();
    std::vector<LedgerEntry> history;
    for (auto& entry : *stored) {
        if (entry.orderEvent == claim.sequence) history.push_back(std::move(entry));
    }
    auto now = booking.byClaim.find(claim.sequence);
    if (now != booking.byClaim.end()) history.insert(history.end(), now->second.begin(), now->second.end());
    std::map<int64_t, LineNet> lines;
    for (const auto& entry : history) {
        LineNet& net = lines[entry.line];
        if (entry.kind == LedgerKind::Sale) net.sale = &entry;
        net.amount += entry.amount;
        auto revenue = net.revenue.plus(entry.revenue);
        auto commission = net.commission.plus(entry.commission);
        if (!revenue || !commission) net.overflow = true;
        else net.revenue = *revenue, net.commission = *commission;
    }
    for (const auto& [line, net] : lines) {
        if (!net.sale) continue;
        if (net.overflow) {
            booking.setAside(claim, static_cast<size_t>(line), "reversal: what the line earned does not add up within 64 bits");
            continue;
        }
        if (net.amount == 0 && net.revenue == Cents(0) && net.commission == Cents(0)) continue;
        LedgerEntry reversal = *net.sale;
        reversal.kind = LedgerKind::Reversal;
        reversal.amount = -net.amount;
        // Both were sums of non-negative sales and their negative returns: never the lowest int64.
        reversal.revenue = *net.revenue.negated();
        reversal.commission = *net.commission.negated();
        reversal.bookedAt = at;
        reversal.returnId.clear();
        reversal.claimStatus = why;
        booking.add(reversal);
    }
    return {};
}

Result<ReturnOutcome> Attributor::bookReturn(int64_t tenantId, const std::string& orderId, const ReturnRequest& request) {
    if (auto status = catchUp(tenantId); !status) return status.error();
    std::lock_guard pass(passMutex_);
    auto claims = ledger_.orderClaims(tenantId, orderId, std::numeric_limits<int64_t>::max());
    if (!claims) return claims.error();
    if (claims->empty()) return Error::notFound("orderid: no order '" + orderId + "' was reported");
    auto booked = ledger_.orderEntries(tenantId, orderId);
    if (!booked) return booked.error();
    for (const auto& entry : *booked) {
        if (entry.kind == LedgerKind::Return && entry.returnId == request.returnId) return ReturnOutcome{true, {}};
    }
    // Returns come off the claim that earns: what the order is now.
    SettledOrder settled = settleOrder(*claims);
    if (!settled.earner) {
        if (settled.state == OrderState::Rejected) {
            return Error::invalidArgument("orderid: order '" + orderId + "' was rejected by the shop: nothing of it earns, nothing to return");
        }
        return Error::invalidArgument("orderid: order '" + orderId +
                                      "' is disputed (its claims disagree) and earns nothing; confirm its true version first "
                                      "(PUT /orders/" + orderId + ")");
    }
    int64_t earner = (*claims)[*settled.earner].sequence;
    // Units still kept per line: sold minus returned so far.
    std::vector<const LedgerEntry*> sales;
    std::map<int64_t, int64_t> kept;
    for (const auto& entry : *booked) {
        if (entry.orderEvent != earner) continue;
        if (entry.kind == LedgerKind::Sale) sales.push_back(&entry);
        kept[entry.line] += entry.amount;
    }
    // What comes back of each line: a cancellation takes everything kept; otherwise each
    // requested SKU is taken from its lines in order.
    std::map<int64_t, int64_t> returned;
    if (request.cancel) {
        for (const LedgerEntry* sale : sales) {
            if (kept[sale->line] > 0) returned[sale->line] = kept[sale->line];
        }
    } else {
        for (size_t i = 0; i < request.lines.size(); ++i) {
            const auto& wanted = request.lines[i];
            std::string field = "lines[" + std::to_string(i) + "]";
            int64_t left = wanted.amount;
            bool inOrder = false;
            for (const LedgerEntry* sale : sales) {
                if (sale->sku != wanted.sku) continue;
                inOrder = true;
                int64_t available = kept[sale->line] - returned[sale->line];
                int64_t take = std::min(left, available);
                returned[sale->line] += take;
                left -= take;
            }
            if (!inOrder) return Error::invalidArgument(field + ".sku: '" + wanted.sku + "' is not in order '" + orderId + "'");
            if (left > 0) {
                return Error::invalidArgument(field + ".amount: " + std::to_string(wanted.amount) + " returned, but only " +
                                              std::to_string(wanted.amount - left) + " of '" + wanted.sku + "' are still kept");
            }
        }
    }
    ReturnOutcome outcome;
    int64_t now = clock_.nowSeconds();
    for (const LedgerEntry* sale : sales) {
        auto back = returned.find(sale->line);
        if (back == returned.end() || back->second == 0) continue;
        LedgerEntry entry = *sale;
        entry.kind = LedgerKind::Return;
        entry.amount = -back->second;
        entry.bookedAt = now;
        entry.returnId = request.returnId;
        entry.commission = 0;
        entry.revenue = 0;
        if (sale->attributed) {
            auto reversal = commissionReversal(sale->price, kept[sale->line], back->second, sale->rateBasisPoints);
            if (!reversal) return reversal.error();
            // The sale's price x amount was booked, so a part of it fits: never refused here.
            auto revenue = sale->price.times(back->second);
            if (!revenue) return Error::invalidArgument("lines: the returned revenue does not fit in 64 bits");
            entry.commission = *reversal->negated();
            entry.revenue = *revenue->negated();
        }
        outcome.entries.push_back(std::move(entry));
    }
    if (outcome.entries.empty()) return Error::invalidArgument("lines: nothing of order '" + orderId + "' is left to return");
    auto stored = ledger_.bookReturn(tenantId, request.returnId, outcome.entries);
    if (!stored) return stored.error();
    if (!*stored) return ReturnOutcome{true, {}};
    return outcome;
}

}  // namespace svc
